import Foundation
import HTTPTypes
import HackerNews
import Testing
import Tributary
import TributaryHTTP
import TributarySandbox
import TributaryTestSupport

/// The client against the sandbox and a server that counts, over loopback.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct HackerNewsClientTests {
    @Test func pagesAStoryListInRankOrderSkippingNullItems() async throws {
        try await withHackerNews { client, sandbox in
            let ids = try sandbox.hackerNews.decoded("topstories.json", as: [Int].self)
            #expect(ids.count == 500)
            for page in 1...2 {
                let stories = try await client.stories(.top, page: page, pageSize: 40)
                let slice = ids[(page - 1) * 40..<page * 40]
                let existing = try slice.filter {
                    try sandbox.hackerNews.decoded("item/\($0).json", as: HNItem?.self) != nil
                }
                #expect(stories.items.map(\.id) == existing)
                #expect(stories.skippedCount == slice.count - existing.count)
                #expect(stories.totalCount == 500 && stories.hasMore)
            }
            // The first entry of every list is one the API answers null for.
            #expect(try await client.stories(.top, page: 1, pageSize: 5).skippedCount >= 1)
            let beyond = try await client.stories(.top, page: 100)
            #expect(beyond.items.isEmpty && !beyond.hasMore)
        }
    }

    @Test func readsItemsUsersAndTheSmallerEndpoints() async throws {
        try await withHackerNews { client, sandbox in
            let story = try sandbox.hackerNews.story(withRepliesDeeperThan: 2)
            let fetched = try #require(try await client.item(story.id))
            #expect(fetched == story)
            #expect(fetched.kind == .story && fetched.title != nil && fetched.descendants ?? 0 > 0)
            #expect(try await client.item(1) == nil)
            let author = try #require(story.author)
            let user = try #require(try await client.user(author))
            #expect(user.submitted.contains(story.id))
            #expect(try await client.user("nobody-at-all") == nil)
            let maximum = try await client.api.send(HackerNewsEndpoint.maxItem)
            #expect(maximum == sandbox.hackerNews.maximumID)
            let updates = try await client.api.send(HackerNewsEndpoint.updates)
            #expect(updates.items.count == 20 && !updates.profiles.isEmpty)
            for list in StoryList.allCases {
                #expect(try await client.storyIDs(list).isEmpty == false, "\(list)")
            }
        }
    }

    /// A page of 30 makes at most eight requests at once, and more than one.
    @Test func fetchesAPageWithBoundedConcurrency() async throws {
        let server = CountingServer()
        let page = try await server.run { client in try await client.stories(.new, page: 1, pageSize: 30) }
        #expect(page.items.count + page.skippedCount + page.hiddenCount == 30)
        #expect((2...8).contains(server.mostInFlight), "\(server.mostInFlight)")
    }

    /// The same item asked for while its request is under way is fetched once.
    @Test func sharesAnItemRequestAlreadyUnderWay() async throws {
        let server = CountingServer(delay: .milliseconds(200))
        let id = try hackerNews.story(withRepliesDeeperThan: 1).id
        let items = try await server.run { client in
            try await withThrowingTaskGroup(of: HNItem?.self) { group in
                for _ in 0..<5 { group.addTask { try await client.item(id) } }
                return try await group.reduce(into: [HNItem?]()) { $0.append($1) }
            }
        }
        #expect(items.count == 5 && items.allSatisfy { $0?.id == id })
        #expect(server.hits("item/\(id).json") == 1)
    }

    /// Items that fail are skipped and counted; the page still arrives.
    @Test func skipsItemsThatFail() async throws {
        let ids = try hackerNews.decoded("newstories.json", as: [Int].self)
        let server = CountingServer(failing: Set(ids.prefix(10).map { "item/\($0).json" }), delay: .zero)
        let page = try await server.run { client in try await client.stories(.new, page: 1, pageSize: 20) }
        #expect(page.failedCount == 10 && page.firstFailure?.serverError?.message == "Permission denied")
        #expect(page.items.count + page.skippedCount + page.hiddenCount == 20)
        #expect(Set(page.items.map(\.id)).isDisjoint(with: ids.prefix(10)))
    }

    @Test func refusesAPageOutOfRangeBeforeAskingAnything() async throws {
        let server = CountingServer(delay: .zero)
        try await server.run { client in
            for (page, size) in [(0, 30), (1, 0), (1, 101)] {
                do {
                    _ = try await client.stories(.top, page: page, pageSize: size)
                    Issue.record("page \(page) of \(size) was fetched")
                } catch {
                    guard case .invalidRequest? = (error as? APIError)?.kind else {
                        Issue.record("\(error)")
                        continue
                    }
                }
            }
        }
        #expect(server.totalHits == 0)
    }

    /// The walk is breadth-first, stops at the depth limit, finds every reply above it, and
    /// keeps to its bound of requests at once.
    @Test func walksTheReplyTreeBreadthFirstWithinItsBounds() async throws {
        let story = try hackerNews.story(withRepliesDeeperThan: 3)
        let expected = try hackerNews.replies(under: story, maximumDepth: 3)
        let server = CountingServer(delay: .milliseconds(5))
        let comments = try await server.run(maximumConcurrentRequests: 3) { client in
            try await client.comments(of: story, maximumDepth: 3).collectAll()
        }
        #expect(Dictionary(uniqueKeysWithValues: comments.map { ($0.id, $0.depth) }) == expected)
        #expect(comments.map(\.depth) == comments.map(\.depth).sorted())
        #expect(
            comments.contains { $0.item.isDeleted } || comments.contains { $0.item.isDead }
                || comments.count < 40
        )
        #expect((2...3).contains(server.mostInFlight), "\(server.mostInFlight)")
    }

    /// A tree read in thread order: each comment followed by its replies.
    @Test func threadsTheReplyTree() async throws {
        let story = try hackerNews.story(withRepliesDeeperThan: 2)
        let server = CountingServer(delay: .zero)
        let tree = try await server.run { client in try await client.commentTree(of: story, maximumDepth: 10)
        }
        #expect(tree.count == (try hackerNews.replies(under: story, maximumDepth: 10)).count)
        #expect(tree.first.map { story.kids.contains($0.id) } == true)
        for (index, comment) in tree.enumerated().dropFirst() {
            // A comment is either a reply to the one before it, or returns to a shallower level.
            #expect(comment.depth <= tree[index - 1].depth + 1)
            if comment.depth == tree[index - 1].depth + 1 {
                #expect(comment.item.parent == tree[index - 1].id)
            }
        }
    }

    /// Replies were listed and none could be fetched: the walk fails with the first error.
    @Test func aWalkWhoseEveryReplyFailsFails() async throws {
        let story = try hackerNews.story(withRepliesDeeperThan: 1)
        let server = CountingServer(failing: Set(story.kids.map { "item/\($0).json" }), delay: .zero)
        try await server.run { client in
            do {
                _ = try await client.comments(of: story).collectAll()
                Issue.record("the walk finished")
            } catch {
                #expect((error as? APIError)?.status?.code == 401)
            }
        }
    }

    /// The same walk as a thread: the replies that failed are counted with the server's reason,
    /// and nothing fails.
    @Test func aThreadWhoseEveryReplyFailsSaysSo() async throws {
        let story = try hackerNews.story(withRepliesDeeperThan: 1)
        let server = CountingServer(failing: Set(story.kids.map { "item/\($0).json" }), delay: .zero)
        let thread = try await server.run { client in try await client.thread(of: story) }
        #expect(thread.comments.isEmpty)
        #expect(thread.failedCount == story.kids.count && thread.missingCount == 0)
        #expect(thread.firstFailure?.status?.code == 401)
        #expect(thread.firstFailure?.serverError?.message == "Permission denied")
    }

    /// Dead and deleted stories are left out of a list and counted, unless asked for.
    @Test func leavesDeadStoriesOutOfAListAndCountsThem() async throws {
        try await withHackerNews { client, sandbox in
            let ids = try sandbox.hackerNews.decoded("newstories.json", as: [Int].self)
            let slice = Array(ids.prefix(100))
            let items = try slice.compactMap {
                try sandbox.hackerNews.decoded("item/\($0).json", as: HNItem?.self)
            }
            let gone = items.filter(\.isGone)
            #expect(gone.contains { $0.isDead && $0.title == nil })
            #expect(gone.contains { $0.isDeleted })
            let page = try await client.stories(.new, page: 1, pageSize: 100)
            #expect(page.hiddenCount == gone.count)
            #expect(page.items.map(\.id) == items.filter { !$0.isGone }.map(\.id))
            #expect(page.missingCount == slice.count - items.count && page.failedCount == 0)
            let all = try await client.stories(.new, page: 1, pageSize: 100, includingDead: true)
            #expect(all.hiddenCount == 0 && all.items.map(\.id) == items.map(\.id))
            // The ranked lists leave them out, as the site's do.
            let top = try sandbox.hackerNews.decoded("topstories.json", as: [Int].self)
            #expect(Set(top).isDisjoint(with: gone.map(\.id)))
        }
    }

    /// A poll's options arrive in its order, each naming its poll, with their votes.
    @Test func fetchesAPollsOptions() async throws {
        try await withHackerNews { client, sandbox in
            let ids = try sandbox.hackerNews.decoded("newstories.json", as: [Int].self)
            let poll = try #require(
                try ids.lazy.compactMap {
                    try sandbox.hackerNews.decoded("item/\($0).json", as: HNItem?.self)
                }
                .first { $0.kind == .poll }
            )
            let fetched = await client.poll(poll)
            #expect(fetched.options.map(\.id) == poll.parts && fetched.unavailableCount == 0)
            #expect(
                fetched.options.allSatisfy { $0.kind == .pollopt && $0.poll == poll.id && $0.score != nil }
            )
            #expect(fetched.totalVotes == fetched.options.reduce(0) { $0 + ($1.score ?? 0) })
        }
    }
}

extension Publisher where Failure == APIError {
    /// Every value until the publisher finishes, or its failure.
    func collectAll() async throws(APIError) -> [Output] where Output: Sendable {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<[Output], APIError>, Never>) in
            let box = Locked<AnyCancellable?>(nil)
            let values = Locked<[Output]>([])
            let cancellable = sink(
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: continuation.resume(returning: .success(values.current))
                    case .failure(let error): continuation.resume(returning: .failure(error))
                    }
                    box.withLock { $0 = nil }
                },
                receiveValue: { value in values.withLock { $0.append(value) } }
            )
            box.withLock { $0 = $0 ?? cancellable }
        }
        return try result.get()
    }
}
