import CombineSchedulers
import Foundation
import HTTPTypes
import TMDb
import Testing
import Tributary
import TributaryHTTP
import TributaryHTTPTesting
import TributarySandbox
import TributaryTestSupport

@MainActor
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct MoviesViewModelTests {
    let scheduler = DispatchQueue.test

    @Test func showsAListSearchesAsYouTypeAndNamesGenres() async throws {
        try await withTMDb { @MainActor client, _ in
            let model = MoviesViewModel(client: client, scheduler: scheduler.eraseToAnyScheduler())
            #expect(model.state.isLoading)
            try await settle(scheduler) { model.state.value != nil && !model.genres.isEmpty }
            #expect(model.movies.count == 20)
            #expect(!model.genreNames(of: model.movies[0]).isEmpty)
            model.loadMore()
            try await settle(scheduler) { model.state.value?.page == 2 }
            #expect(model.movies.count == 40)

            // Typing is searched once it pauses; what was typed on the way is not.
            model.searchText = "gl"
            await scheduler.advance(by: .milliseconds(100))
            model.searchText = "glass "
            await scheduler.advance(by: .milliseconds(299))
            #expect(model.state.value?.page == 2)
            await scheduler.advance(by: .milliseconds(1))
            try await settle(scheduler) { model.state.value != nil && model.state.value?.page == 1 }
            #expect(
                !model.movies.isEmpty && model.movies.allSatisfy { $0.title.lowercased().contains("glass") }
            )

            // A blank search shows the list again.
            model.searchText = "  "
            await scheduler.advance(by: .milliseconds(300))
            try await settle(scheduler) { model.state.value != nil && model.movies.count == 20 }
            #expect(!model.movies.allSatisfy { $0.title.lowercased().contains("glass") })
            model.list = .topRated
            scheduler.runDue()
            #expect(model.state.request?.source == .list(.topRated))
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.movies.allSatisfy { $0.voteCount >= 100 })
        }
    }

    /// An older search answered after the newer one's results show is dropped.
    @Test func dropsAnOlderSearchThatArrivesLate() async throws {
        let release = Gate()
        let transport = MockTransport { request async throws(TransportFailure) -> TransportResponse in
            let path = request.head.path ?? ""
            if path.contains("genre") { return try Result.json(#"{"genres":[{"id":1,"name":"One"}]}"#).get() }
            let title = path.contains("query=slow") ? "slow" : path.contains("query=fast") ? "fast" : "listed"
            if title == "slow" { await release.wait() }
            return try Result.json(
                #"{"page":1,"total_pages":1,"total_results":1,"results":[{"id":\#(title.count),"title":"\#(title)","genre_ids":[1],"release_date":""}]}"#
            ).get()
        }
        let slowAnswered = Locked(false)
        var client = TMDbClient(credential: .apiKey("k"), transport: transport, retryPolicy: .never)
        client.api.middleware.append(
            Hook(afterReceive: { request, _ in
                if request.head.path?.contains("query=slow") == true { slowAnswered.withLock { $0 = true } }
            })
        )
        let model = MoviesViewModel(client: client, scheduler: scheduler.eraseToAnyScheduler())
        try await settle(scheduler) { model.state.value != nil }
        model.searchText = "slow"
        await scheduler.advance(by: .milliseconds(300))
        try await settle(scheduler) { transport.requests.contains { $0.head.path?.contains("slow") == true } }
        model.searchText = "fast"
        await scheduler.advance(by: .milliseconds(300))
        try await settle(scheduler) { model.state.value != nil }
        #expect(model.movies.map(\.title) == ["fast"])
        release.open()
        try await waitUntil { slowAnswered.current }
        await scheduler.advance(by: .seconds(1))
        #expect(model.movies.map(\.title) == ["fast"])
        #expect(model.genreNames(of: model.movies[0]) == ["One"])
    }

    @Test func showsTMDbsMessageWhenItRefuses() async throws {
        try await withTMDb(credential: .apiKey("wrong")) { @MainActor client, _ in
            let model = MoviesViewModel(client: client, scheduler: scheduler.eraseToAnyScheduler())
            try await settle(scheduler) { model.state.failure != nil }
            #expect(model.errorMessage == "Invalid API key: You must be granted a valid key.")
            #expect(model.genres.isEmpty && model.movies.isEmpty)
        }
    }
}
