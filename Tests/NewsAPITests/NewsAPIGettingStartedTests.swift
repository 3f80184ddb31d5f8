import Foundation
import NewsAPI
import Testing
import Tributary
import TributaryAsyncHTTPClient
import TributarySandbox
import TributaryTestSupport

/// The code of `NewsAPI`'s Getting Started article, as it is written there, against a sandbox:
/// the client is made with the sandbox's address and key, as the article's last section says,
/// and everything after it is the article's.
@Suite(.timeLimit(.minutes(2)))
struct NewsAPIGettingStartedTests {
    // Drive a screen
    @MainActor
    final class Screen {
        let model: ArticlesViewModel

        init(news: NewsClient) {
            model = ArticlesViewModel(feed: .topHeadlines(country: "gb"), client: news)
        }

        func userTyped(_ text: String) { model.searchText = text }
        func userReachedTheEnd() { model.loadMore() }
    }

    @Test func theArticlesCodeRuns() async throws {
        // Without a key
        try await Sandbox.withRunning { baseURL in
            // Fetch a page
            let transport = AsyncHTTPClientTransport()
            let news = NewsClient(apiKey: Sandbox.demoKey, baseURL: baseURL, transport: transport)
            let page = try await news.articles(.topHeadlines(country: "us", category: .science))
            for article in page.articles {
                print(article.title, "—", article.source.name)
            }
            #expect(!page.articles.isEmpty)
            #expect(page.articles.count + page.removedCount + page.skippedCount <= 20)

            // Search
            let results = try await news.articles(
                .everything(query: "\"swift concurrency\" AND (linux OR server) -beta", sortBy: .relevancy)
            )
            #expect(results.totalResults >= results.articles.count)

            let refused = await #expect(throws: NewsError.self) {
                try await news.articles(.everything(query: String(repeating: "a", count: 501)))
            }
            guard case .invalidRequest = refused?.kind else {
                Issue.record("expected invalidRequest, got \(String(describing: refused))")
                return
            }

            try await drive(news)
            try await transport.shutdown()
        }
    }

    @MainActor
    private func drive(_ news: NewsClient) async throws {
        let screen = Screen(news: news)
        try await waitUntil { screen.model.state.value != nil }
        let first = screen.model.articles.count
        #expect(first > 0)
        try #require(screen.model.canLoadMore)
        screen.userReachedTheEnd()
        try await waitUntil { screen.model.articles.count > first }
        screen.userTyped("zzzzqqqq")
        try await waitUntil { screen.model.state.value != nil && screen.model.articles.isEmpty }
        #expect(screen.model.errorMessage == nil)
    }
}
