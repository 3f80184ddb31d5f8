import Foundation
import HackerNews
import Testing
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributarySandbox
import TributaryTestSupport

/// The code of `HackerNews`' Getting Started article, as it is written there, against a
/// sandbox: the client is the article's offline one.
@Suite(.timeLimit(.minutes(2)))
struct HackerNewsGettingStartedTests {
    @Test func theArticlesCodeRuns() async throws {
        try await Sandbox.withRunning { baseURL in
            let sandboxURL = baseURL.deletingLastPathComponent()
            try await AsyncHTTPClientTransport.withTransport { transport in
                // Make a client
                let hn = HackerNewsClient(baseURL: sandboxURL.appending(path: "hn/v0"), transport: transport)

                // Read a page of stories
                let page = try await hn.stories(.top, page: 1, pageSize: 30)
                for story in page.items {
                    print(story.title ?? "", story.site ?? "", story.score ?? 0)
                }
                print("\(page.skippedCount) ids had no item")
                #expect(page.items.count + page.skippedCount == 30)
                #expect(page.items.allSatisfy { $0.title != nil })

                // Follow a thread as it arrives
                let story = try #require(page.items.first { !$0.kids.isEmpty })
                let seen = Locked<[HNComment]>([])
                let ended = Locked(false)
                let thread = hn.comments(of: story, maximumDepth: 5)
                    .sink(
                        receiveCompletion: { _ in ended.withLock { $0 = true } },
                        receiveValue: { comment in
                            print(
                                String(repeating: "  ", count: comment.depth),
                                comment.item.plainText ?? "[deleted]"
                            )
                            seen.withLock { $0.append(comment) }
                        }
                    )
                try await waitUntil { ended.current }
                thread.cancel()
                #expect(seen.current.contains { $0.depth == 0 })
                #expect(seen.current.allSatisfy { (0..<5).contains($0.depth) })

                try await showThread(of: story, client: hn, comments: seen.current.count)
            }
        }
    }

    /// The article's view model, on the main queue it publishes on.
    @MainActor
    private func showThread(of story: HNItem, client hn: HackerNewsClient, comments: Int) async throws {
        let model = CommentsViewModel(story: story, client: hn)
        try await waitUntil { !model.isLoading }
        // … when the comments have come (model.isLoading is false):
        if let first = model.visibleComments.first {
            model.toggle(first.id)  // collapse the first thread
        }
        let first = try #require(model.comments.first)
        #expect(model.collapsed == [first.id])
        #expect(model.visibleComments.count == model.comments.count - model.replyCount(under: first.id))
        #expect(comments > 0 && model.comments.count >= comments)
    }
}
