import Foundation
import Testing
import TributaryFeeds
import TributarySandbox

/// A feed's every entry kept, nothing invented: each case is one of the sandbox's feeds under
/// `/feeds/quirks/`, in the shape real feeds have.
@Suite struct FeedFidelityTests {
    private func date(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    @Test func keepsEveryEntryThatSaysAnythingAndInventsNothing() throws {
        let feed = try FeedCorpus.quirk("sparse-entries.rss")
        // The channel's name comes from its dc:title when it has no title.
        #expect(feed.title == "Podcast of Little Words")
        let entries = feed.entries
        // Nine items, of which only the empty one says nothing.
        #expect(entries.count == 8)
        guard entries.count == 8 else { return }
        #expect(
            entries.map(\.title) == [nil, nil, nil, nil, nil, nil, "Episode six", "Titled in Dublin Core"]
        )
        #expect(entries[0].published == date("2025-11-18T09:15:00Z"))
        #expect(entries[1].author == "Ada Byron")
        #expect(entries[2].author == "Grace Hopper")
        // A permalink guid is the entry's link; one that says it is no permalink is not.
        #expect(entries[3].link == URL(string: "https://sparse.example/posts/4"))
        #expect(entries[4].link == nil)
        #expect(entries[4].id == "sparse-5")
        #expect(entries[5].summaryText == "Only a description, and no title.")
        // The audio is no picture.
        #expect(entries[6].image == nil)
        // A link outranks a permalink guid.
        #expect(entries[7].link == URL(string: "https://sparse.example/posts/7"))
        // Nothing made up: no date where none is given, no title from a link or a summary.
        #expect(entries.dropFirst().allSatisfy { $0.published == nil })
    }

    @Test func decodesAtom03Base64TextConstructs() throws {
        let feed = try FeedCorpus.quirk("atom03-base64.atom")
        #expect(feed.title == "Encoded feed")
        #expect(feed.entries.map(\.title) == ["Grüße aus Köln"])
        #expect(feed.entries.first?.summaryText == "A bold summary")
        #expect(feed.entries.first?.published == date("2004-01-26T15:31:00Z"))
    }

    @Test func resolvesLinksAgainstXMLBaseThenContentLocationThenTheRequest() throws {
        let links = try FeedCorpus.quirk("relative-links.atom").entries.map(\.link)
        #expect(
            links == [
                URL(string: "https://mirror.example/feeds/posts/1"),
                URL(string: "https://base.example/archive/2003/2"),
                URL(string: "https://mirror.example/feeds/nested/3"),
            ]
        )
        // Without a Content-Location, the request's URL is the base, not the feed's own link.
        let body = Sandbox.feedQuirk("relative-links.atom").body
        let fetched = try FeedReader.read(body, baseURL: URL(string: "https://origin.example/a/feed.atom"))
        #expect(fetched.first?.link == URL(string: "https://origin.example/a/posts/1"))
    }

    /// Greek, Hungarian and Korean dates, ISO 8601 with two-digit years and a zero-padded
    /// month, each named by its form; an invalid date stays undated.
    @Test func readsDatesInTheFormsTheReferenceReaderReads() throws {
        let dates = try FeedCorpus.quirk("international-dates.rss").entries.map(\.published)
        let expected: [(form: String, date: Date?)] = [
            ("Greek day and month names", date("2004-07-11T17:00:00Z")),
            ("Hungarian month name, ISO order", date("2004-07-13T14:15:00Z")),
            ("Hungarian day and month names, RFC 822 order", date("2004-07-12T10:00:00Z")),
            ("Korean, OnBlog", date("2004-05-27T16:31:15Z")),
            ("Korean, Nate, 오후 (afternoon)", date("2004-05-25T14:23:17Z")),
            ("Korean, Nate, 오전 (morning)", date("2004-05-25T02:23:17Z")),
            ("ISO 8601 YYMMDD", date("2003-12-31T00:00:00Z")),
            ("ISO 8601 -YYMM", date("2003-12-01T00:00:00Z")),
            ("ISO 8601 zero-padded month", date("2003-12-31T10:14:55Z")),
            ("a zone after a date without a time is no date", nil),
        ]
        #expect(dates.count == expected.count)
        for (read, (form, date)) in zip(dates, expected) {
            #expect(read == date, "\(form)")
        }
    }

    @Test func readsAFeedCutOffBeforeItsClosingTags() throws {
        let feed = try FeedCorpus.quirk("truncated.rss")
        #expect(feed.entries.map(\.title) == ["Complete", "Half of a sec"])
        #expect(feed.forgiven == [.closedAtEnd(elements: ["rss", "channel", "item", "title"])])
        // Cut inside a tag before any item has closed: the item is kept, the broken tag left out.
        let early = try FeedCorpus.quirk("truncated-first-entry.rss")
        #expect(early.entries.map(\.title) == ["The only one"])
        #expect(early.entries.first?.link == URL(string: "https://cut.example/only"))
        #expect(early.entries.first?.published == date("2025-11-18T09:15:00Z"))
        #expect(early.forgiven == [.closedAtEnd(elements: ["rss", "channel", "item"])])
        #expect(
            early.forgiven.map(\.description) == [
                "closed <rss> <channel> <item>, left open where the document breaks off"
            ]
        )
    }

    @Test func readsAnUnterminatedCDATASection() throws {
        let feed = try FeedCorpus.quirk("unterminated-cdata.rss")
        #expect(feed.entries.map(\.title) == ["First", "Second"])
        #expect(feed.entries.last?.summaryText?.hasPrefix("Runs on to the end") == true)
        #expect(feed.forgiven.contains(.closedUnterminated("CDATA section")))
    }

    @Test func readsCharacterReferencesWithAnUppercaseX() throws {
        let feed = try FeedCorpus.quirk("uppercase-hex-reference.rss")
        #expect(feed.title == "The X feed")
        #expect(feed.entries.map(\.title) == ["Café — open"])
    }

    @Test func readsInvalidBytesInAUTF8FeedAsWindows1252() throws {
        let feed = try FeedCorpus.quirk("invalid-utf8.rss")
        // The valid UTF-8 stays what it says; the stray byte is Windows-1252's quote.
        #expect(feed.entries.map(\.title) == ["Café first", "It’s broken here"])
        #expect(feed.forgiven == [.redecodedAsWindows1252(line: 7, column: 16)])
    }

    @Test func readsRSSWhoseRootHasANamespacePrefix() throws {
        let feed = try FeedCorpus.quirk("prefixed-root.rss")
        #expect(feed.title == "Prefixed")
        #expect(feed.entries.map(\.title) == ["Prefixed item"])
        #expect(feed.entries.first?.link == URL(string: "https://prefixed.example/1"))
    }

    @Test func readsEntitiesTheDoctypeDeclaresAndFetchesNoneOutside() throws {
        let feed = try FeedCorpus.quirk("internal-entities.rss")
        #expect(feed.title == "Entity Times")
        #expect(feed.entries.map(\.title) == ["All the Entity Times that fits"])
        #expect(feed.entries.first?.summary == nil)
        #expect(
            feed.forgiven == [
                .expandedDeclaredEntities(["site", "motto"]), .leftOutExternalEntities(["secret"]),
            ]
        )
    }

    @Test func refusesABillionLaughsCleanly() {
        #expect {
            try FeedCorpus.quirk("billion-laughs.rss")
        } throws: { error in
            guard case .unsupported(let reason) = (error as? FeedError)?.kind else { return false }
            return reason == "entities nested more than 8 deep, or in a cycle"
        }
    }
}
