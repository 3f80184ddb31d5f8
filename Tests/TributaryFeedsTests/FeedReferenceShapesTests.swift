import Foundation
import Testing
import TributaryFeeds

/// Shapes from the reference reader's corpus that this reader reads as feedparser does.
@Suite struct FeedReferenceShapesTests {
    private func read(_ text: String) throws -> FeedDocument {
        try FeedReader.document(Data(text.utf8), baseURL: URL(string: "https://example.com/feed"))
    }

    @Test func keepsAnEntryThatHoldsOnlyWhatTheReaderDoesNotRead() throws {
        let feed = try read(
            """
            <rss version="2.0"><channel><title>T</title>
            <item><category>Example category</category></item>
            <item><comments>https://example.com/c</comments></item>
            <item></item>
            </channel></rss>
            """
        )
        #expect(feed.entries.count == 2)
        #expect(feed.entries.allSatisfy { $0.title == nil && $0.link == nil && $0.published == nil })
    }

    @Test func readsItemsInAtomEntriesInRSSAndRDFAbout() throws {
        let atom = try read(
            #"<feed xmlns="http://www.w3.org/2005/Atom"><item><title>An item in Atom</title></item></feed>"#
        )
        #expect(atom.entries.map(\.title) == ["An item in Atom"])
        let rdf = try read(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <channel rdf:about="https://example.com/index.rdf"><title>R</title></channel>
            <item rdf:about="https://example.com/1"></item>
            </rdf:RDF>
            """
        )
        #expect(rdf.entries.map(\.id) == ["https://example.com/1"])
    }

    @Test func readsMicrosoftsChannelDefinitionFormat() throws {
        let feed = try read(
            """
            <CHANNEL HREF="https://cdf.example/"><TITLE>Channel</TITLE>
            <ITEM HREF="https://cdf.example/1" LASTMOD="2004-01-01T12:00:00Z"><TITLE>First</TITLE><ABSTRACT>Said briefly</ABSTRACT></ITEM>
            </CHANNEL>
            """
        )
        #expect(feed.title == "Channel")
        #expect(feed.entries.map(\.title) == ["First"])
        #expect(feed.entries.first?.link == URL(string: "https://cdf.example/1"))
        #expect(feed.entries.first?.summaryText == "Said briefly")
        #expect(feed.entries.first?.published == ISO8601DateFormatter().date(from: "2004-01-01T12:00:00Z"))
    }

    @Test func readsCommentsWithDoubleHyphensAndAPartialDeclarationAtTheEnd() throws {
        let commented = try read(
            """
            <!-- a comment -- with double hyphens --->
            <rss version="2.0"><channel><item><title>Read</title></item></channel></rss>
            """
        )
        #expect(commented.entries.map(\.title) == ["Read"])
        #expect(commented.forgiven == [.repairedComments(count: 1)])
        let cut = try read(#"<rss version="2.0"><channel><item><title>Cut</title></item><item><title><![CD"#)
        #expect(cut.entries.map(\.title) == ["Cut", nil])
    }

    @Test func readsTextConstructsAsTheirTypesSay() throws {
        let encoded = Data("<p>History of the &lt;blink&gt; tag</p>".utf8).base64EncodedString()
        let feed = try read(
            """
            <feed xmlns="http://www.w3.org/2005/Atom">
            <entry><title type="application/octet-stream">\(encoded)</title></entry>
            </feed>
            """
        )
        // A type that is no text is Base64 (RFC 4287); what it decodes to reads as HTML.
        #expect(feed.entries.map(\.title) == ["History of the <blink> tag"])
        let old = try read(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry>
            <title type="application/xhtml+xml"><div xmlns="http://www.w3.org/1999/xhtml">Safe<script>alert(1)</script> &lt;b&gt;text</div></title>
            </entry></feed>
            """
        )
        // Atom 0.3's XHTML is inline by default; a script's source is no text.
        #expect(old.entries.map(\.title) == ["Safe <b>text"])
    }

    @Test func takesTheLaterOfTwoDatesAndTheEntrysOwnId() throws {
        let feed = try read(
            """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry>
            <issued>Thu, 01 Jan 2004 19:48:21 GMT</issued><published>Sat, 01 Jan 2010 19:48:21 GMT</published>
            <image><id>Not the entry's</id></image><id>The entry's</id>
            </entry></feed>
            """
        )
        #expect(feed.entries.first?.published == ISO8601DateFormatter().date(from: "2010-01-01T19:48:21Z"))
        #expect(feed.entries.first?.id == "The entry's")
    }

    @Test func readsDublinCoreDescriptionsAndITunesAuthors() throws {
        let feed = try read(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><item><dc:description>Described</dc:description><itunes:author>Mark</itunes:author></item></channel></rss>
            """
        )
        #expect(feed.entries.first?.summaryText == "Described")
        #expect(feed.entries.first?.author == "Mark")
    }

    @Test func readsC1ControlsAsTheWindows1252CharactersTheyWereMeantAs() throws {
        let feed = try read(
            "<rss version=\"2.0\"><channel><item><title>don\u{92}t \u{93}Q\u{94}</title></item></channel></rss>"
        )
        #expect(feed.entries.map(\.title) == ["don’t “Q”"])
        #expect(feed.forgiven == [.mappedControlCharacters(count: 3)])
    }

    /// Foundation's parser takes time quadratic in an element's attributes, so an element with
    /// more than a thousand, which no feed has, is refused before it parses.
    @Test func refusesAnElementWithMoreAttributesThanAnyFeedHas() throws {
        func feed(attributes: Int) -> String {
            let names = (0..<attributes).map { "a\($0)=\"v\"" }.joined(separator: " ")
            return #"<rss version="2.0"><channel><item \#(names)><title>x</title></item></channel></rss>"#
        }
        #expect(try read(feed(attributes: 1_000)).entries.map(\.title) == ["x"])
        #expect(
            throws: FeedError(
                .unsupported(reason: "an element with more than 1000 attributes"),
                line: 1,
                column: 29
            )
        ) {
            try read(feed(attributes: 200_000))
        }
    }
}
