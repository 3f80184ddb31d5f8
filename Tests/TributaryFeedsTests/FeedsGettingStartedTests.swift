import Foundation
import Testing
import TributaryFeeds
import TributarySandbox

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The code of `TributaryFeeds`' Getting Started article, as it is written there, reading the
/// sandbox's technology feed over loopback.
@Suite(.timeLimit(.minutes(2)))
struct FeedsGettingStartedTests {
    @Test func theArticlesCodeRuns() async throws {
        try await Sandbox.withRunning { baseURL in
            let feedURL = baseURL.deletingLastPathComponent().appending(path: "feeds/technology.rss")

            // Read a feed
            let (data, response) = try await URLSession.shared.data(from: feedURL)
            let http = response as? HTTPURLResponse
            let feed = try FeedReader.document(
                data,
                baseURL: http?.url ?? feedURL,
                contentType: http?.value(forHTTPHeaderField: "Content-Type"),
                contentLocation: http?.value(forHTTPHeaderField: "Content-Location")
            )
            print(feed.title ?? "[untitled feed]")
            for entry in feed.entries {
                print(entry.title ?? "[untitled]", entry.published?.formatted() ?? "[undated]")
                print("   ", entry.link?.absoluteString ?? "[no link]", entry.summaryText ?? "")
            }
            for flaw in feed.forgiven {
                print("forgiven:", flaw)  // what was repaired to read it, in order
            }

            #expect(feed.title == "Sandbox — Technology")
            #expect(feed.entries.count == 20)
            #expect(feed.entries.allSatisfy { $0.title != nil })
            // The sandbox leaves one entry undated, and the reader leaves it so.
            #expect(feed.entries.filter { $0.published == nil }.count == 1)
            // Its one relative link is resolved against the feed's address.
            #expect(feed.entries.allSatisfy { $0.link?.scheme == "http" || $0.link?.scheme == "https" })
            #expect(feed.entries.contains { $0.link?.host == feedURL.host && $0.link?.port == feedURL.port })
            #expect(feed.entries.allSatisfy { $0.summaryText.map { !$0.contains("<") } ?? true })
        }

        // Tell a reader what went wrong
        var alert: String?
        do {
            _ = try FeedReader.document(Data("<html><body>Our news</body></html>".utf8))
        } catch {
            print(error.alertMessage)  // "This address is a web page, not a feed."
            alert = error.alertMessage
        }
        #expect(alert == "This address is a web page, not a feed.")
    }
}
