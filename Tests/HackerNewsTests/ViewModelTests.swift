import CombineSchedulers
import Foundation
import HackerNews
import Testing
import Tributary
import TributaryHTTP
import TributarySandbox
import TributaryTestSupport

@MainActor
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct StoriesViewModelTests {
    let scheduler = DispatchQueue.test

    @Test func loadsAListPagesThroughItAndSwitchesLists() async throws {
        try await withHackerNews { @MainActor client, sandbox in
            let model = StoriesViewModel(
                list: .top,
                client: client,
                scheduler: scheduler.eraseToAnyScheduler(),
                pageSize: 20
            )
            #expect(model.state.isLoading && model.stories.isEmpty)
            try await settle(scheduler) { model.state.value != nil }
            let ids = try sandbox.hackerNews.decoded("topstories.json", as: [Int].self)
            #expect(
                model.stories.map(\.id)
                    == ids.prefix(20).filter { id in model.stories.contains { $0.id == id } }
            )
            #expect(model.canLoadMore)
            let first = model.stories.count
            model.loadMore()
            #expect(model.state.request?.page == 2)
            try await settle(scheduler) { model.state.value?.page == 2 }
            #expect(model.stories.count > first)
            #expect(Set(model.stories.map(\.id)).count == model.stories.count)

            model.list = .ask
            scheduler.runDue()
            #expect(model.stories.isEmpty && model.state.isLoading)
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.stories.allSatisfy { $0.title?.hasPrefix("Ask HN") == true })
            #expect(model.errorMessage == nil)
        }
    }

    /// Pull to refresh keeps the list on screen until the new first page arrives.
    @Test func refreshKeepsTheListUntilTheNewOneArrives() async throws {
        try await withHackerNews { @MainActor client, _ in
            let model = StoriesViewModel(
                list: .new,
                client: client,
                scheduler: scheduler.eraseToAnyScheduler(),
                pageSize: 10
            )
            try await settle(scheduler) { model.state.value != nil }
            let shown = model.stories
            model.refresh()
            #expect(model.isRefreshing && model.state.isLoading)
            #expect(model.stories == shown)
            try await settle(scheduler) { model.state.value != nil }
            #expect(!model.isRefreshing)
            #expect(model.stories.map(\.id) == shown.map(\.id))
        }
    }

    @Test func saysWhenHackerNewsCannotBeReached() async throws {
        let client = HackerNewsClient(
            baseURL: URL(string: "http://127.0.0.1:1/v0")!,
            transport: URLSessionTransport(),
            retryPolicy: .never
        )
        let model = StoriesViewModel(client: client, scheduler: scheduler.eraseToAnyScheduler())
        try await settle(scheduler) { model.state.failure != nil }
        #expect(model.errorMessage == "Hacker News cannot be reached. Check your connection.")
        #expect(model.stories.isEmpty && !model.canLoadMore)
    }
}

@MainActor
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct CommentsViewModelTests {
    let scheduler = DispatchQueue.test

    /// Comments arrive in batches on the scheduler, in thread order; a collapsed thread hides
    /// every reply under it and shows again when expanded.
    @Test func showsTheTreeInThreadOrderAndCollapsesThreads() async throws {
        let story = try hackerNews.story(withRepliesDeeperThan: 2)
        let expected = try hackerNews.replies(under: story, maximumDepth: 10)
        let server = CountingServer(delay: .zero)
        try await server.run { @MainActor client in
            let model = CommentsViewModel(
                story: story,
                client: client,
                scheduler: scheduler.eraseToAnyScheduler()
            )
            #expect(model.isLoading && model.comments.isEmpty)
            try await settle(scheduler) { !model.isLoading }
            #expect(model.comments.count == expected.count)
            #expect(model.comments.allSatisfy { expected[$0.id] == $0.depth })
            #expect(model.comments == HNComment.threaded(model.comments, under: story))

            let thread = try #require(model.comments.first { model.replyCount(under: $0.id) > 0 })
            let replies = model.replyCount(under: thread.id)
            model.toggle(thread.id)
            #expect(model.visibleComments.count == model.comments.count - replies)
            #expect(model.visibleComments.contains(thread))
            model.toggle(thread.id)
            #expect(model.visibleComments == model.comments)
        }
    }
}
