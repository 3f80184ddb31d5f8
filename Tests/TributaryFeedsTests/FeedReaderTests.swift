import Foundation
import Testing
import Tributary
import TributaryFeeds
import TributarySandbox
import TributaryTestSupport

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct FeedReaderTests {
    private func date(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    @Test func readsRSSWithItsQuirks() throws {
        // Relative links resolve against the feed's address, as feedparser resolves them, not
        // against the channel's own link.
        let entries = try FeedReader.read(
            Data(FeedCorpus.rss.utf8),
            baseURL: URL(string: "https://news.example.com/world/rss.xml")
        )
        #expect(entries.count == 4)
        let markets = entries[0]
        #expect(markets.title == "Markets <rise> & fall")
        #expect(markets.summary == "<p>Stocks <b>rose</b> &amp; fell.</p>")
        #expect(markets.summaryText == "Stocks rose & fell.")
        #expect(markets.author == "Ana Rossi")
        #expect(markets.published == date("2003-06-10T04:00:00Z"))
        #expect(markets.image == URL(string: "https://cdn.example.com/m.jpg"))
        #expect(markets.id == "markets-1")
        #expect(markets.feedTitle == "Example & Sons News")

        let undated = entries[1]
        #expect(undated.title == "Undated “quote”")
        #expect(undated.published == nil)
        #expect(undated.link == URL(string: "https://news.example.com/local/story"))
        #expect(undated.summaryText == "Escaped HTML!")
        #expect(undated.author == "Ben Walsh")
        #expect(undated.image == URL(string: "https://news.example.com/world/thumbs/t.png"))

        let short = entries[2]
        #expect(short.published == date("2003-06-10T05:00:00Z"))
        #expect(short.summaryText == "Only full content")
        #expect(short.image == nil)

        let untitled = entries[3]
        // An entry without a title has none: its summary is not made into one.
        #expect(untitled.title == nil)
        #expect(untitled.summaryText == "No title, only a summary that stands in for it.")
        #expect(untitled.published == date("2003-06-10T07:30:00Z"))
    }

    @Test func readsAtomWithItsQuirks() throws {
        let entries = try FeedReader.read(
            Data(FeedCorpus.atom.utf8),
            baseURL: URL(string: "https://atom.example.org/feed.xml")
        )
        #expect(entries.count == 2)
        let robots = entries[0]
        #expect(robots.title == "Atom-Powered Robots Run Amok")
        #expect(robots.link == URL(string: "http://example.org/2003/12/13/atom03"))
        #expect(robots.published == Date(timeIntervalSince1970: 1_071_336_602.25))
        #expect(robots.summaryText == "Some & text.")
        #expect(robots.author == "John Doe")
        #expect(robots.image == URL(string: "https://atom.example.org/img/robot.png"))
        #expect(robots.id == "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a")

        let relative = entries[1]
        #expect(relative.title == "Relative link")
        #expect(relative.link == URL(string: "https://atom.example.org/2003/12/14/relative.html"))
        #expect(relative.published == date("2003-12-14T10:20:30Z"))
        #expect(relative.summaryText == "Inline XHTML body")
    }

    @Test func readsRSS1() throws {
        let entries = try FeedReader.read(Data(FeedCorpus.rdf.utf8))
        #expect(entries.map(\.title) == ["First RDF item"])
        #expect(entries[0].published == date("2003-06-10T04:00:00Z"))
        #expect(entries[0].feedTitle == "RDF Site")
    }

    @Test func saysWhereMalformedXMLBreaks() throws {
        let broken = FeedCorpus.unclosed.replacingOccurrences(of: "</item>", with: "")
        #expect {
            try FeedReader.read(Data(broken.utf8))
        } throws: { error in
            guard let error = error as? FeedError, case .malformed = error.kind else { return false }
            return error.line >= 4 && error.description.contains("line \(error.line)")
        }
        // Entries completed before the break are kept, and the break is reported.
        let kept = try FeedReader.document(Data(FeedCorpus.unclosed.utf8))
        #expect(kept.entries.map(\.title) == ["Good"])
        guard case .stoppedEarly(let error) = kept.forgiven.last, case .malformed = error.kind else {
            Issue.record("expected the break to be reported, got \(kept.forgiven)")
            return
        }
        #expect(error.line >= 4)
        #expect(
            kept.forgiven.last?.description
                == "kept the entries before the XML breaks at line \(error.line), column \(error.column)"
        )
    }

    @Test func refusesADocumentThatIsNotAFeed() {
        #expect(throws: FeedError(.notAFeed(root: "html"), line: 1, column: 1)) {
            try FeedReader.read(Data(FeedCorpus.html.utf8))
        }
        // A root that is no feed's, found by the parser.
        #expect(throws: FeedError(.notAFeed(root: "opml"), line: 1, column: 6)) {
            try FeedReader.read(Data("<opml><body/></opml>".utf8))
        }
        #expect(throws: FeedError.self) { try FeedReader.read(Data()) }
    }

    @Test func publishesEntriesAsTheyAreParsedToEveryExistingDelegateToo() throws {
        // The existing delegate sees each item start; by then the entries before it are out.
        final class Existing: NSObject, XMLParserDelegate, @unchecked Sendable {
            var seenBeforeEachItem: [Int] = []
            var elements = 0
            var published: () -> Int = { 0 }
            func parser(
                _ parser: XMLParser,
                didStartElement elementName: String,
                namespaceURI: String?,
                qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                elements += 1
                if elementName == "item" { seenBeforeEachItem.append(published()) }
            }
        }
        let existing = Existing()
        let parser = XMLParser(data: Data(FeedCorpus.items(3).utf8))
        parser.delegate = existing
        let publicist = FeedPublicist(parser: parser)
        var titles: [String?] = []
        existing.published = { titles.count }
        let subscription = publicist.entries.sink(
            receiveCompletion: { _ in },
            receiveValue: { titles.append($0.title) }
        )
        #expect(parser.delegate === publicist)
        #expect(publicist.parse())
        #expect(titles == ["Item 1", "Item 2", "Item 3"])
        #expect(existing.seenBeforeEachItem == [0, 1, 2])
        #expect(existing.elements == 3 + 3 * 2 + 3)
        subscription.cancel()
        #expect(parser.delegate === existing)
    }

    @Test func cancellingTheLastSubscriberStopsTheParseAndGivesTheDelegateBack() {
        let parser = XMLParser(data: Data(FeedCorpus.items(50).utf8))
        let publicist = FeedPublicist(parser: parser)
        var subscription: AnyCancellable?
        var titles: [String?] = []
        subscription = publicist.entries.sink(
            receiveCompletion: { _ in },
            receiveValue: { entry in
                titles.append(entry.title)
                if titles.count == 2 { subscription?.cancel() }
            }
        )
        #expect(!publicist.parse())
        #expect(titles == ["Item 1", "Item 2"])
        #expect(parser.delegate == nil)
    }

    @Test func honoursDemandByBuffering() {
        let parser = XMLParser(data: Data(FeedCorpus.items(5).utf8))
        let publicist = FeedPublicist(parser: parser, buffering: .oldest(3))
        let recorder = Recorder<FeedEntry, String, FeedError>(demand: .max(1)) { $0.title ?? "" }
        publicist.entries.subscribe(recorder)
        publicist.parse()
        #expect(recorder.values == ["Item 1"])
        recorder.request(.unlimited)
        #expect(recorder.values == ["Item 1", "Item 2", "Item 3", "Item 4"])
        #expect(recorder.events.last == .finished)
    }

    @Test func titleStartsWithWhatIsKnownThenFollows() {
        let parser = XMLParser(data: Data(FeedCorpus.rss.utf8))
        let publicist = FeedPublicist(parser: parser)
        var titles: [String?] = []
        let entries = publicist.entries.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        let title = publicist.title.sink { titles.append($0) }
        publicist.parse()
        var late: [String?] = []
        let again = publicist.title.sink { late.append($0) }
        #expect(titles == [nil, "Example & Sons News"])
        #expect(late == ["Example & Sons News"])
        _ = (entries, title, again)
    }

    @Test func leavesNothingAliveBehind() async throws {
        weak var weakPublicist: FeedPublicist?
        weak var weakParser: XMLParser?
        do {
            let parser = XMLParser(data: Data(FeedCorpus.rss.utf8))
            let publicist = FeedPublicist(parser: parser)
            weakPublicist = publicist
            weakParser = parser
            let subscription = publicist.entries.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            publicist.parse()
            subscription.cancel()
        }
        #expect(weakPublicist == nil)
        #expect(weakParser == nil)

        let recorder = Recorder<FeedEntry, String, FeedError>(demand: .unlimited) { $0.title ?? "" }
        FeedReader.entries(in: Data(FeedCorpus.items(10).utf8)).subscribe(recorder)
        try await waitUntil { recorder.events.last == .finished }
        #expect(recorder.values == (1...10).map { "Item \($0)" })
    }

    /// Subscribers to the title read it on their own threads while the parse writes it on
    /// another: the thread sanitizer checks that the two never touch it at once.
    @Test func titleCanBeSubscribedToWhileABackgroundParseRuns() async throws {
        let parser = XMLParser(data: Data(FeedCorpus.items(2_000).utf8))
        let publicist = FeedPublicist(parser: parser)
        let entries = Recorder<FeedEntry, String, FeedError>(demand: .unlimited) { $0.title ?? "" }
        publicist.entries.subscribe(entries)
        let parsed = Locked(false)
        DispatchQueue.global().async {
            publicist.parse()
            parsed.withLock { $0 = true }
        }
        var firsts: Set<String?> = []
        var subscriptions = 0
        while !parsed.current || subscriptions < 50 {
            let first = Locked<String??>(nil)
            let subscription = publicist.title.sink { title in
                first.withLock { if $0 == nil { $0 = .some(title) } }
            }
            subscription.cancel()
            firsts.insert(try #require(first.current))
            subscriptions += 1
        }
        #expect(firsts.isSubset(of: [nil, "Many"]))
        let last = Locked<String?>(nil)
        _ = publicist.title.sink { title in last.withLock { $0 = title } }
        #expect(last.current == "Many")
        #expect(entries.values.count == 2_000)
        #expect(entries.events.last == .finished)
    }

    @Test func neverCrashesOnRandomBytesOrMangledFeeds() {
        var random = SeededGenerator(seed: 0x5EED)
        let sources = [FeedCorpus.rss, FeedCorpus.atom, FeedCorpus.rdf].map { Array($0.utf8) }
        // Pieces of markup Foundation's parser is fragile around on Linux.
        let fragments = [
            "<?x?>", "<?xml-stylesheet?>", "<!DOCTYPE rss [<!ATTLIST rss a CDATA #IMPLIED>]>",
            #"<!DOCTYPE r [<!ENTITY e "<?p?>">]>"#, "&e;", "<![CDATA[", "]]>", "<!--", "-->",
            #"encoding="x""#,
            #"xmlns:a="""#, "\u{FEFF}", "\u{0}", "é", "<a:b>", "</", ">", "\"", "'",
        ].map { Array($0.utf8) }
        for round in 0..<3_000 {
            var bytes = sources[round % sources.count]
            switch round % 4 {
            case 0:
                bytes = (0..<Int.random(in: 0..<400, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                // Near the start, where the declaration says how to read the rest.
                for _ in 0..<3 {
                    bytes[Int.random(in: 0..<60, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 2:
                for _ in 0..<3 {
                    let fragment = fragments.randomElement(using: &random)!
                    bytes.insert(contentsOf: fragment, at: Int.random(in: 0...bytes.count, using: &random))
                }
            default:
                for _ in 0..<5 {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
                        in: 0...255,
                        using: &random
                    )
                }
            }
            bytes = Array(bytes.prefix(Int.random(in: bytes.count / 2...bytes.count, using: &random)))
            _ = try? FeedReader.read(Data(bytes))
        }
    }
}
