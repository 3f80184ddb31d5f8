import CombineSchedulers
import Foundation
import HTTPTypes
import NewsAPI
import Testing
import Tributary
import TributaryHTTP
import TributaryHTTPTesting
import TributarySandbox
import TributaryTestSupport

@MainActor
@Suite(.timeLimit(.minutes(5)))
struct ArticlesViewModelTests {
    let scheduler = DispatchQueue.test

    @Test func loadsTheFeedAtOnceAndAgainWhenTheFeedChanges() async throws {
        try await onSandbox { news in
            let model = ArticlesViewModel(
                client: news,
                scheduler: scheduler.eraseToAnyScheduler(),
                pageSize: 5
            )
            #expect(model.state.isLoading)
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.articles.count == 5)
            #expect(model.totalResults > 5)
            #expect(model.errorMessage == nil)

            let chosen = dataset.sources[7]
            model.feed = .category(chosen.category, country: chosen.country)
            scheduler.runDue()
            #expect(
                model.state.request?.endpoint
                    == .topHeadlines(
                        country: chosen.country,
                        category: chosen.category,
                        paging: .init(pageSize: 5)
                    )
            )
            try await settle(scheduler) { model.state.value != nil }
            let ids = Set(
                dataset.sources.filter { $0.country == chosen.country && $0.category == chosen.category }.map(
                    \.id
                )
            )
            #expect(!model.articles.isEmpty)
            #expect(model.articles.allSatisfy { ids.contains($0.source.id ?? "") })
        }
    }

    @Test func debouncesTypingAndIgnoresBlankAndRepeatedSearches() async throws {
        try await onSandbox { news in
            let model = ArticlesViewModel(
                feed: .search,
                client: news,
                scheduler: scheduler.eraseToAnyScheduler()
            )
            let log = RequestLog(model, on: scheduler)
            #expect(model.state.isIdle)
            for text in ["s", "sw", "swi", "swift"] {
                model.searchText = text
                await scheduler.advance(by: .milliseconds(100))
            }
            await scheduler.advance(by: .milliseconds(199))
            #expect(log.endpoints.isEmpty)
            await scheduler.advance(by: .milliseconds(1))
            #expect(log.endpoints == [.everything(query: "swift", paging: .init(pageSize: 20))])
            try await settle(scheduler) { model.state.value != nil }
            let found = model.articles
            #expect(!found.isEmpty)
            #expect(
                found.allSatisfy {
                    "\($0.title) \($0.description ?? "") \($0.content ?? "")".lowercased().contains("swift")
                }
            )

            for text in ["swift ", " swift"] {
                model.searchText = text
                await scheduler.advance(by: .milliseconds(300))
            }
            #expect(log.endpoints.count == 1)
            #expect(model.articles == found)

            // A cleared search is back to asking nothing, with nothing of the last one shown.
            model.searchText = "   "
            await scheduler.advance(by: .milliseconds(300))
            #expect(model.state.isIdle)
            #expect(model.articles.isEmpty && model.totalResults == 0)
            #expect(log.endpoints.count == 1)

            model.searchText = "compiler"
            await scheduler.advance(by: .milliseconds(300))
            #expect(log.endpoints.last == .everything(query: "compiler", paging: .init(pageSize: 20)))
        }
    }

    @Test func aNewSelectionShowsNoneOfThePreviousOnesArticlesWhileItLoadsOrAfterItFails() async throws {
        try await onSandbox { news in
            let model = ArticlesViewModel(
                client: news,
                scheduler: scheduler.eraseToAnyScheduler(),
                pageSize: 5
            )
            try await settle(scheduler) { model.state.value != nil }
            #expect(!model.articles.isEmpty)

            model.feed = .category(.sports, country: "us")
            scheduler.runDue()
            #expect(model.state.isLoading)
            #expect(model.articles.isEmpty && model.totalResults == 0 && !model.isRefreshing)
            try await settle(scheduler) { model.state.value != nil }
            let sports = Set(
                dataset.sources.filter { $0.country == "us" && $0.category == .sports }.map(\.id)
            )
            #expect(
                !model.articles.isEmpty && model.articles.allSatisfy { sports.contains($0.source.id ?? "") }
            )

            // The Search tab with an empty box asks nothing and shows nothing of the headlines.
            model.feed = .search
            scheduler.runDue()
            #expect(model.state.isIdle)
            #expect(model.articles.isEmpty && model.totalResults == 0)

            model.searchText = "swift )"
            await scheduler.advance(by: .milliseconds(300))
            try await settle(scheduler) { model.state.failure != nil }
            #expect(model.articles.isEmpty)
            #expect(model.errorMessage == "This search cannot be made: the “)” closes no parenthesis.")

            model.searchText = ""
            model.feed = .topHeadlines(country: "us")
            await scheduler.advance(by: .milliseconds(300))
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.errorMessage == nil)
            #expect(!model.articles.isEmpty)
        }
    }

    @Test func aRefreshOfTheSameSelectionKeepsItsArticlesAndSaysSo() async throws {
        try await onSandbox { news in
            let model = ArticlesViewModel(
                client: news,
                scheduler: scheduler.eraseToAnyScheduler(),
                pageSize: 5
            )
            try await settle(scheduler) { model.state.value != nil }
            let shown = model.articles
            #expect(!model.isRefreshing)
            model.refresh()
            #expect(model.state.isLoading && model.isRefreshing && !model.isLoadingMore)
            #expect(model.articles == shown)
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.articles == shown && !model.isRefreshing)
        }
    }

    /// A query still being written is not sent, so it never fails; the model says what it
    /// waits for.
    @Test func waitsForAQueryStillBeingWritten() async throws {
        try await onSandbox { news in
            let model = ArticlesViewModel(
                feed: .search,
                client: news,
                scheduler: scheduler.eraseToAnyScheduler()
            )
            let log = RequestLog(model, on: scheduler)
            model.searchText = "swift"
            await scheduler.advance(by: .milliseconds(300))
            try await settle(scheduler) { model.state.value != nil }
            let found = model.articles
            for text in [
                "swift OR", "swift AND", "swift NOT", "swift OR \"open", "(swift OR rust", "swift -",
            ] {
                model.searchText = text
                scheduler.runDue()
                #expect(model.queryIssue?.isUnfinished == true)
                await scheduler.advance(by: .seconds(1))
                #expect(model.state.value != nil)
                #expect(model.articles == found)
                #expect(model.errorMessage == nil)
            }
            model.searchText = "swift OR"
            scheduler.runDue()
            #expect(model.queryIssue == .unfinished("Finish the query after OR."))
            #expect(log.endpoints.count == 1)
            model.searchText = "swift OR rust"
            scheduler.runDue()
            #expect(model.queryIssue == nil)
            await scheduler.advance(by: .milliseconds(300))
            #expect(log.endpoints.last == .everything(query: "swift OR rust", paging: .init(pageSize: 20)))
        }
    }

    @Test func loadsMorePagesUntilTheLastAndRefreshesFromTheFirst() async throws {
        try await onSandbox { news in
            let source = dataset.sources[4]
            let model = ArticlesViewModel(
                feed: .source(id: source.id),
                client: news,
                scheduler: scheduler.eraseToAnyScheduler(),
                pageSize: 30
            )
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.canLoadMore)
            var pages = 1
            while model.canLoadMore {
                model.loadMore()
                #expect(!model.canLoadMore)
                try await settle(scheduler) { model.state.value != nil }
                pages += 1
            }
            let total = dataset.articles.filter { $0.sourceIndex == 4 }
            #expect(pages == (total.count + 29) / 30)
            #expect(model.articles.count == total.filter { !$0.isRemoved }.count)
            #expect(Set(model.articles.map(\.id)).count == model.articles.count)
            #expect(model.articles.map(\.publishedAt) == model.articles.map(\.publishedAt).sorted(by: >))

            model.refresh()
            #expect(model.state.request?.page == 1)
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.articles.count == 30)
        }
    }

    @Test func surfacesAFailureAsAnAlertMessage() async throws {
        try await onSandbox(.init(apiKeys: ["right"]), key: "wrong") { news in
            let model = ArticlesViewModel(client: news, scheduler: scheduler.eraseToAnyScheduler())
            try await settle(scheduler) { model.state.failure != nil }
            #expect(model.state.failure?.code == .apiKeyInvalid)
            #expect(model.errorMessage == "Your API key is invalid.")
            #expect(model.articles.isEmpty)
            #expect(!model.state.isLoading)
        }
    }

    /// The first search is answered only after the second one's results are on screen, by a
    /// server that pays no heed to the cancelled request: its answer still arrives, and never
    /// shows.
    @Test func dropsAnOlderResponseThatArrivesLate() async throws {
        let release = Gate()
        let transport = MockTransport { request async throws(TransportFailure) -> TransportResponse in
            let query = request.head.path?.contains("q=slow") == true ? "slow" : "fast"
            if query == "slow" { await release.wait() }
            return try Result<TransportResponse, TransportFailure>.json(
                #"""
                {"status":"ok","totalResults":1,"articles":[{"source":{"id":null,"name":"S"},
                "title":"\#(query)","url":"https://example.com/\#(query)","publishedAt":"2026-01-01T00:00:00Z"}]}
                """#
            ).get()
        }
        let slowAnswered = Locked(false)
        let observer = Hook(afterReceive: { request, _ in
            if request.head.path?.contains("q=slow") == true { slowAnswered.withLock { $0 = true } }
        })
        let news = NewsClient(apiKey: "k", transport: transport, middleware: [observer], retryPolicy: .never)
        let model = ArticlesViewModel(feed: .search, client: news, scheduler: scheduler.eraseToAnyScheduler())
        var shown: [[String]] = []
        let watching = Observed(on: scheduler) { model.articles }.sink { shown.append($0.map(\.title)) }
        model.searchText = "slow"
        await scheduler.advance(by: .milliseconds(300))
        try await settle(scheduler) { transport.requests.count == 1 }
        model.searchText = "fast"
        await scheduler.advance(by: .milliseconds(300))
        try await settle(scheduler) { model.state.value != nil }
        #expect(model.articles.map(\.title) == ["fast"])
        release.open()
        try await waitUntil { slowAnswered.current }
        await scheduler.advance(by: .seconds(1))
        #expect(model.articles.map(\.title) == ["fast"])
        #expect(model.state.value?.articles.map(\.title) == ["fast"])
        #expect(!shown.contains(["slow"]))
        #expect(transport.requests.count == 2)
        watching.cancel()
    }

    @Test func changesItsOutputsOnTheMainQueue() async throws {
        try await onSandbox { news in
            // Where `dispatch_main` parks the main thread (Linux test runners), the main queue
            // runs on another thread: what is promised is the queue.
            let model = ArticlesViewModel(feed: .topHeadlines(country: "it"), client: news)
            let queues = ChangeQueues { _ = model.articles }
            let deadline = ContinuousClock.now + .seconds(40)
            while model.state.value == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(!model.articles.isEmpty)
            #expect(queues.onMain == [true])
        }
    }
}

/// Every request a model starts, however fast its answer comes.
@MainActor
final class RequestLog {
    private(set) var endpoints: [NewsEndpoint] = []
    private var watching: AnyCancellable?

    init(_ model: ArticlesViewModel, on scheduler: TestSchedulerOf<DispatchQueue>) {
        watching = Observed(on: scheduler) { model.state }.sink { [weak self] state in
            if let endpoint = state.request?.endpoint { self?.endpoints.append(endpoint) }
        }
    }
}
