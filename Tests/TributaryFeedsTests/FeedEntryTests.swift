import Foundation
import Testing
import TributaryFeeds
import TributarySandbox

/// Entries that stricter readers hide or garble: other titles, prefixed RSS 1.0, no link, markup.
struct FeedEntryTests {
    private func date(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    @Test func showsEntriesFeedsHideFromStricterReaders() throws {
        let hidden = try FeedCorpus.quirk("hidden-entries.rss").entries
        #expect(hidden.map(\.title) == ["Titled by Dublin Core", "Episode 12"])
        #expect(hidden[0].published == date("2025-11-18T08:00:00Z"))
        #expect(hidden[1].link == nil)
        #expect(hidden[1].id == "episode-12")

        let prefixed = try FeedCorpus.quirk("prefixed.rdf")
        #expect(prefixed.title == "Prefixed")
        #expect(prefixed.entries.map(\.title) == ["Prefixed item"])
        #expect(prefixed.entries.first?.link == URL(string: "https://prefixed.example/1"))
    }

    @Test func readsMarkupAsText() throws {
        let feed = try FeedCorpus.quirk("markup.atom")
        #expect(feed.title == "Example Atom")
        #expect(feed.entries[0].title == "Example Atom")
        #expect(feed.entries[0].summaryText == "Some markings Example")
        #expect(feed.entries[0].summary?.contains("<p>Some markings</p><p>Example</p>") == true)

        // An entry copied from another feed keeps its own identity, not its <source>'s.
        let copied = feed.entries[1]
        #expect(copied.link == nil)
        #expect(copied.id == "tag:example.org,2025:2")
        #expect(copied.published == date("2025-11-18T11:00:00Z"))
        #expect(copied.title == "Copied")
    }
}
