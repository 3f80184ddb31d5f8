import Foundation
import HTTPTypes
import NewsAPI
import Testing
import TributaryAsyncHTTPClient
import TributaryFeeds
import TributaryHTTP
import TributarySandbox

/// The sandbox's RSS and Atom feeds, read through the real client over loopback.
@Suite(.timeLimit(.minutes(5)))
struct FeedRoutesTests {
    @Test(arguments: ["rss", "atom"])
    func servesEachCategoryAsAFeedWithRealWorldQuirks(format: String) async throws {
        try await withSandbox { url, transport in
            let origin = url.deletingLastPathComponent()
            let feed = origin.appendingPathComponent("feeds/technology.\(format)")
            // Feeds are public: no key needed.
            let news = newsClient(url, transport, key: nil)
            let entries = try await news.feedEntries(feed)
            let expected = sharedDataset.articles
                .filter { !$0.isRemoved && sharedDataset.source(of: $0)?.category == .technology }
                .prefix(20)
            #expect(entries.map(\.title) == expected.map(\.title))
            #expect(entries.allSatisfy { $0.feedTitle == "Sandbox — Technology" })
            // One entry has no date; the others carry the article's, to the second.
            #expect(entries.filter { $0.published == nil }.count == 1)
            for (entry, article) in zip(entries, expected) where entry.published != nil {
                #expect(abs(entry.published!.timeIntervalSince(article.publishedAt)) < 1)
            }
            // A relative link resolves against the feed's base.
            #expect(entries[2].link?.host == origin.host)
            #expect(
                entries.enumerated().allSatisfy {
                    $0.offset == 2 || $0.element.link?.absoluteString == expected[$0.offset].url
                }
            )
            #expect(entries.contains { $0.image?.path.hasPrefix("/images/") == true })
            #expect(entries.allSatisfy { $0.summaryText.map { !$0.contains("<") } ?? true })
        }
    }

    @Test func answersAnUnknownFeedWithA404() async throws {
        try await withSandbox { url, transport in
            let feed = url.deletingLastPathComponent().appendingPathComponent("feeds/weather.rss")
            let error = await newsError { try await newsClient(url, transport).feedEntries(feed) }
            #expect(error?.code == .unknown("feedNotFound"))
            #expect(error?.alertMessage.contains("There is no feed weather.rss") == true)
        }
    }
}
