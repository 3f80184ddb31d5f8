import CombineSchedulers
import Foundation
import NewsAPI
import Testing
import Tributary
import TributaryFeeds
import TributaryHTTP
import TributarySandbox
import TributaryTestSupport

/// The screen that reads an RSS or Atom feed, over the sandbox's feeds.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct FeedViewModelTests {
    let scheduler = DispatchQueue.test

    /// The sandbox's feed at `path`, below its `/feeds`.
    private func feed(_ path: String, on news: NewsClient) -> URL {
        news.api.baseURL.deletingLastPathComponent().appendingPathComponent("feeds/\(path)")
    }

    /// A model reading the sandbox's feed at `path`.
    private func reader(of path: String, on news: NewsClient) -> FeedViewModel {
        FeedViewModel(url: feed(path, on: news), client: news, scheduler: scheduler.eraseToAnyScheduler())
    }

    @Test(arguments: ["rss", "atom"])
    func listsAFeedAndNarrowsItLocally(format: String) async throws {
        try await onSandbox { news in
            let model = reader(of: "health.\(format)", on: news)
            try await settle(scheduler) { model.state.value != nil }
            let all = model.entries.count
            #expect(all >= 20 && all == model.document?.entries.count)
            let word = try #require(model.entries[0].title?.split(separator: " ").first.map(String.init))
            model.searchText = word
            scheduler.runDue()
            #expect(!model.entries.isEmpty && model.entries.count <= all)
            #expect(
                model.entries.allSatisfy {
                    "\($0.title ?? "") \($0.summaryText ?? "") \($0.author ?? "")"
                        .localizedCaseInsensitiveContains(
                            word
                        )
                }
            )
            model.searchText = ""
            scheduler.runDue()
            #expect(model.entries.count == all)
        }
    }

    /// An entry keeps what the feed gave: no date is no date, and no link still lists it.
    @Test func keepsEntriesWithoutADateOrALink() async throws {
        try await onSandbox { news in
            let model = reader(of: "quirks/undated-linkless.rss", on: news)
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.entries.map(\.title) == ["Whole entry", "Undated entry", "Linkless entry"])
            #expect(model.entries.map { $0.published != nil } == [true, false, true])
            #expect(model.entries.map { $0.link != nil } == [true, true, false])
            #expect(model.entries[2].summaryText == "A note with no page of its own.")
        }
    }

    /// A refresh keeps the entries shown until its answer; another feed empties them at once.
    @Test func refreshKeepsTheEntriesAndANewFeedEmptiesThem() async throws {
        try await onSandbox { news in
            let model = reader(of: "health.rss", on: news)
            try await settle(scheduler) { model.state.value != nil }
            let shown = model.entries
            model.refresh()
            #expect(model.isRefreshing && model.entries == shown && !shown.isEmpty)
            try await settle(scheduler) { model.state.value != nil }
            model.url = feed("quirks/undated-linkless.rss", on: news)
            scheduler.runDue()
            #expect(model.state.isLoading && model.entries.isEmpty && !model.isRefreshing)
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.entries.count == 3)
        }
    }

    @Test func saysWhenAFeedCannotBeRead() async throws {
        try await onSandbox { news in
            // A NewsAPI endpoint answers JSON, which is no feed.
            let model = FeedViewModel(
                url: news.api.baseURL.appendingPathComponent("sources"),
                client: news,
                scheduler: scheduler.eraseToAnyScheduler()
            )
            try await settle(scheduler) { model.state.failure != nil }
            #expect(model.errorMessage != nil)
            #expect(model.entries.isEmpty)
        }
    }
}
