import CombineSchedulers
import Foundation
import NewsAPI
import NewsSandbox
import Testing
import Tributary
import TributaryHTTP
import TributaryTestSupport

/// The articles screen over an RSS or Atom feed instead of NewsAPI.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct FeedSourceTests {
    let scheduler = DispatchQueue.test

    @Test(arguments: ["rss", "atom"])
    func listsAFeedAndNarrowsItLocally(format: String) async throws {
        try await onSandbox { news in
            let feed = news.api.baseURL.deletingLastPathComponent().appendingPathComponent(
                "feeds/health.\(format)"
            )
            let model = ArticlesViewModel(
                feed: .feed(feed),
                client: news,
                scheduler: scheduler.eraseToAnyScheduler()
            )
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.articles.count == 20)
            #expect(!model.canLoadMore)
            let word = try #require(model.articles[0].title.split(separator: " ").first.map(String.init))
            model.searchText = word
            await scheduler.advance(by: .milliseconds(300))
            try await settle(scheduler) { model.state.value != nil }
            #expect(!model.articles.isEmpty && model.articles.count <= 20)
            #expect(
                model.articles.allSatisfy {
                    "\($0.title) \($0.description ?? "") \($0.author ?? "")".localizedCaseInsensitiveContains(
                        word
                    )
                }
            )
        }
    }

    @Test func saysWhenAFeedCannotBeRead() async throws {
        try await onSandbox { news in
            // A NewsAPI endpoint answers JSON, which is no feed.
            let notAFeed = news.api.baseURL.appendingPathComponent("sources")
            let model = ArticlesViewModel(
                feed: .feed(notAFeed),
                client: news,
                scheduler: scheduler.eraseToAnyScheduler()
            )
            try await settle(scheduler) { model.state.failure != nil }
            #expect(model.errorMessage != nil)
        }
    }
}
