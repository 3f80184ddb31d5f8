import Foundation
import Testing
import TributaryStreams

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The documents in Examples/streams, run and drawn.
@Suite struct RenderTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/streams")

    static func example(_ name: String) throws -> StreamDocument {
        try StreamDocument.decode(Data(contentsOf: examples.appendingPathComponent("\(name).json")))
    }

    @Test(arguments: [
        "serial", "map-filter-scan", "zip-vs-combineLatest", "merge-vs-append", "typing-debounce",
        "failing-expression",
    ])
    func everyExampleIsValidAndRunsToTheEnd(name: String) throws {
        let document = try Self.example(name)
        let timeline = try StreamRunner().run(document)
        #expect(!timeline.isTruncated)
        for lane in timeline.lanes {
            #expect(timeline.events(in: lane).last?.kind.isEnd == true, "\(name): \(lane) did not end")
        }
    }

    @Test func drawsLanesAsAlignedText() throws {
        let document = try Self.example("map-filter-scan")
        let text = try TextLanes.render(try StreamRunner().run(document), document: document)
        #expect(
            text == """
                numbers                    -123(4|)
                doubled = map($0 * 2)      -246(8|)
                above2 = filter($0 > 2)    --46(8|)
                total = scan(0, acc + $0)  --4a(b|)

                where a = 10, b = 18
                """
        )
    }

    @Test func contrastsZipWithCombineLatestAndMergeWithAppend() throws {
        let zip = try Self.example("zip-vs-combineLatest")
        let zipText = try TextLanes.render(try StreamRunner().run(zip), document: zip, frame: 0.5)
        #expect(zipText.contains("zipped = zip(numbers, letters)            ---c---(d|)"))
        #expect(zipText.contains("latest = combineLatest(numbers, letters)  ---ce-f(g|)"))
        let merge = try Self.example("merge-vs-append")
        let mergeText = try TextLanes.render(try StreamRunner().run(merge), document: merge)
        #expect(mergeText.contains("merged = merge(first, second)     -1x2(y|)"))
        #expect(mergeText.contains("appended = append(first, second)  -1-2-x-(y|)"))
    }

    @Test func drawsASelfContainedAccessibleSVG() throws {
        let document = try Self.example("failing-expression")
        let timeline = try StreamRunner().run(document)
        let svg = SVGRenderer.render(timeline, document: document)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("<title id=\"title\">A failing expression</title>"))
        #expect(svg.contains("<desc id=\"desc\">Dividing by the value"))
        let values = timeline.events.filter { !$0.kind.isEnd }.count
        #expect(svg.components(separatedBy: "<circle").count - 1 == values)
        #expect(svg.contains("failed at 3s: Division by zero"))
        #expect(svg.contains("operator map(12 / $0)"))
        #expect(!svg.contains("http://") || !svg.contains("href=\"http"))
        // Well-formed XML.
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    /// Control characters in a name, a value or a failure draw as U+FFFD: the diagram stays a
    /// well-formed document, where one had made a page drop it without a word.
    @Test func drawsControlCharactersAsWellFormedXML() throws {
        let json = #"""
            {"schemaVersion": 1, "name": "bell\u0007name",
             "streams": [{"id": "a", "items": [{"value": "tab\tand\u0001nul\u0000"}],
                          "ending": {"kind": "failed", "after": 1, "message": "esc\u001b"}}]}
            """#
        let document = try StreamDocument.decode(Data(json.utf8))
        let svg = SVGRenderer.render(try StreamRunner().run(document), document: document)
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(svg.contains("bell\u{FFFD}name"))
        #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
    }

    /// A long value is a pill with a shortened label and the whole value on hover; a value and
    /// the end of its stream in one frame stand side by side, neither hiding the other.
    @Test func keepsEveryEventOfAFrameVisible() throws {
        let document = try StreamDocument.decode(
            Data(
                #"""
                {"schemaVersion": 1, "name": "Legibility",
                 "streams": [{"id": "words", "items": [
                   {"value": "a rather long value that will not fit", "operators": [{"operator": "delay", "seconds": 1}]},
                   {"value": "short", "operators": [{"operator": "delay", "seconds": 1}]}],
                   "ending": {"kind": "finished", "after": 0}}],
                 "nodes": [{"id": "lengths", "operator": "map", "input": "words", "expression": "$0 * 2"}]}
                """#.utf8
            )
        )
        let svg = SVGRenderer.render(try StreamRunner().run(document), document: document)
        #expect(svg.contains("<title>a rather long value that will not fit at 1s</title>"))
        #expect(svg.contains(">a rather long…</text>"))
        func number(_ pattern: String) throws -> Double {
            let match = try #require(svg.firstMatch(of: try Regex(pattern)))
            let text = try #require(match.output[1].substring)
            return try #require(Double(String(text)))
        }
        let pillLeft = try number(#"<title>short at 2s</title><rect x="([0-9.]+)""#)
        let pillWidth = try number(
            #"<title>short at 2s</title><rect x="[0-9.]+" y="[0-9.]+" width="([0-9.]+)""#
        )
        let bar = try number(#"<line x1="([0-9.]+)"[^>]*><title>finished at 2s</title>"#)
        #expect(bar > pillLeft + pillWidth)
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }
}
