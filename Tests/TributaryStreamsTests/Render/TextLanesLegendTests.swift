import Testing
import TributaryStreams

/// The legend of text lanes with more values than letters.
@Suite struct TextLanesLegendTests {
    @Test func namesEveryValuePastTheLettersInTheOrderTheyAppear() throws {
        let stream = StreamDefinition(
            id: "n",
            items: (0..<100).map { StreamItem(.integer(3_000 + $0), delay: 0.01) }
        )
        let document = try StreamDocument(name: "Many", streams: [stream])
        let text = try TextLanes.render(try StreamRunner().run(document), document: document, frame: 0.01)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let legend = try #require(lines.firstIndex { $0.hasPrefix("where ") })
        let entries = lines[legend...].joined(separator: " ")
        for value in 3_000..<3_100 { #expect(entries.contains(" = \(value)")) }
        #expect(!entries.contains("?"))
        #expect(lines[legend...].allSatisfy { $0.count <= 100 })
        #expect(lines[legend].hasPrefix("where a = 3000, b = 3001, c = 3002"))
        #expect(lines[legend...].count > 1)
    }
}
