import Foundation
import Testing
import TributaryFeeds
import TributaryHTML
import TributarySandbox

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Flaws that once cost a whole feed, each repaired and reported.
struct FeedForgivingTests {
    /// Each of these shapes, given to Foundation's parser as it is, fails it: the repairs are
    /// what make them readable.
    @Test(arguments: [
        "control-character.rss", "html-entities.rss", "undeclared-media.atom", "undeclared-dc.rdf",
    ])
    func foundationsParserAloneRejects(quirk: String) {
        let parser = XMLParser(data: Sandbox.feedQuirk(quirk).body)
        // An undeclared prefix lets the parse finish, but reports an error on the way.
        _ = parser.parse()
        #expect(parser.parserError != nil)
    }

    @Test func removesARawControlCharacterAndKeepsEveryItem() throws {
        let feed = try FeedCorpus.quirk("control-character.rss")
        #expect(feed.entries.map(\.title) == ["Primera noticia", "Segunda noticia", "Tercera noticia"])
        #expect(feed.entries[0].summary == "Texto con un carácter de control")
        #expect(feed.forgiven == [.removedInvalidCharacters(count: 1)])
        #expect(feed.title == "EL PAÍS: el periódico global")
    }

    @Test func readsHTMLEntitiesAndBareAmpersands() throws {
        let feed = try FeedCorpus.quirk("html-entities.rss")
        #expect(
            feed.entries.map(\.title) == [
                "El Gobierno aprueba\u{A0}el plan de vivienda", "España y Portugal",
            ]
        )
        #expect(
            feed.entries[0].link
                == URL(
                    string:
                        "https://europapress.example/nacional/noticia-1.html?utm_source=rss&utm_medium=feed"
                )
        )
        #expect(feed.entries[0].summaryText == "Madrid, 18 nov. (EUROPA PRESS) – El Consejo de Ministros…")
        #expect(
            feed.forgiven == [
                .mappedHTMLEntities(["nbsp", "ndash", "hellip", "ntilde"]), .escapedAmpersands(count: 1),
            ]
        )
        #expect(
            feed.forgiven.map(\.description) == [
                "read the HTML entities &nbsp; &ndash; &hellip; &ntilde;", "read 1 bare ampersand as text",
            ]
        )
    }

    /// HTML5's named references, raw (which XML does not define) or escaped once more (which
    /// the feed's HTML then holds), and numeric ones as HTML reads them.
    @Test func readsEveryHTMLEntityRawOrEscapedAndNumbersAsHTMLDoes() throws {
        let feed = try FeedCorpus.quirk("html5-entities.rss")
        #expect(
            feed.entries.map(\.title) == [
                "Wait… it’s the café — open\u{A0}late ✓", "Café “Blå” …",
            ]
        )
        #expect(feed.entries[0].summaryText == "François & Zoë – ★")
        #expect(feed.entries[1].summaryText == "Numbers: – \u{FFFD} \u{FFFD} ’ \u{FFFD}")
        #expect(
            feed.forgiven == [
                .mappedHTMLEntities(["hellip", "rsquo", "eacute", "mdash", "nbsp", "check"]),
                .replacedInvalidReferences(count: 2),
            ]
        )
        #expect(feed.forgiven[1].description == "read 2 character references to no character as U+FFFD")
    }

    /// HTML 4's names also without their semicolon, as HTML reads them, but not in a URL's
    /// `&copy=2`, where the name goes on.
    @Test func readsHTML4NamesWithoutTheirSemicolon() throws {
        let text = """
            <rss version="2.0"><channel><title>T</title>
            <item><title>Caf&eacute &copy 2024 &amp co</title>\
            <link>https://example.com/?a=1&copy=2&region=eu</link></item>
            </channel></rss>
            """
        let feed = try FeedReader.document(Data(text.utf8))
        #expect(feed.entries.map(\.title) == ["Café © 2024 & co"])
        #expect(feed.entries.map(\.link) == [URL(string: "https://example.com/?a=1&copy=2&region=eu")])
        #expect(
            feed.forgiven == [.mappedHTMLEntities(["eacute", "copy", "amp"]), .escapedAmpersands(count: 2)]
        )
    }

    @Test func keepsALessThanSignThatOpensNoTagAsText() throws {
        let feed = try FeedCorpus.quirk("less-than.rss")
        #expect(feed.entries.map(\.title) == ["a < b, and 3 <= 4"])
        #expect(feed.entries[0].summaryText == "If x < 10 && y > 2 then bold")
        #expect(feed.forgiven == [.escapedLessThanSigns(count: 3)])
        #expect(feed.forgiven.map(\.description) == ["read 3 < that open no tag as text"])
    }

    @Test func declaresPrefixesNobodyDeclared() throws {
        let atom = try FeedCorpus.quirk("undeclared-media.atom")
        #expect(atom.entries.map(\.title) == ["Video post"])
        #expect(atom.entries[0].image == URL(string: "https://video.example/t/1.jpg"))
        #expect(atom.forgiven == [.declaredPrefixes(["media"])])

        let rdf = try FeedCorpus.quirk("undeclared-dc.rdf")
        #expect(rdf.entries.map(\.title) == ["Dated by Dublin Core"])
        #expect(rdf.entries[0].author == "R. Writer")
        #expect(rdf.entries[0].published == Date(timeIntervalSince1970: 1_763_445_600))
        #expect(rdf.forgiven.map(\.description) == ["declared the namespace prefix dc"])
    }

    @Test func dropsReferencesToCharactersXMLDoesNotAllow() throws {
        let text = """
            <rss version="2.0"><channel><title>T</title>
            <item><title a="x &#1; y">A&#x1F;B &#233; &amp; &lt;</title><link>https://example.com/1</link></item>
            </channel></rss>
            """
        let feed = try FeedReader.document(Data(text.utf8))
        #expect(feed.entries.map(\.title) == ["AB é & <"])
        #expect(feed.forgiven == [.removedInvalidCharacters(count: 2)])
    }

    @Test func leavesAWellFormedFeedAlone() throws {
        let data = Data(FeedCorpus.rss.utf8)
        #expect(try FeedReader.document(data).forgiven.isEmpty)
        #expect(try FeedReader.prepared(data) == data)
    }

    @Test func keepsCommentsAndCDATAAsTheyAre() throws {
        let text = """
            <rss version="2.0"><channel><title>T</title><!-- Q&A: &nbsp; -->
            <item><title><![CDATA[Q&A]]></title><link>https://example.com/1</link></item>
            </channel></rss>
            """
        let feed = try FeedReader.document(Data(text.utf8))
        #expect(feed.entries.map(\.title) == ["Q&A"])
        #expect(feed.forgiven.isEmpty)
    }
}
