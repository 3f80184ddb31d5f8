import Foundation
import PropertyBased
import Testing
import TributaryStreams
import TributaryTestSupport

/// The SVG's marbles never cover one another, whatever the document: the shapes of the values
/// of one lane are read back from the drawing and compared pairwise.
@Suite(
    .unsanitized("CPU-bound; its logic runs in the plain pass")
)
struct MarbleLayoutTests {
    struct Box: CustomStringConvertible {
        var left, top, right, bottom: Double
        var description: String { "[\(left), \(top)]–[\(right), \(bottom)]" }

        func intersects(_ other: Box) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }
    }

    /// The shapes of every value drawn, by lane.
    static func valueShapes(_ svg: String) throws -> [String: [Box]] {
        var shapes: [String: [Box]] = [:]
        let lane = try Regex(#"<g class="lane" data-lane="([^"]*)">"#)
        let circle = try Regex(
            #"<g class="value"><title>[^<]*</title><circle cx="([-0-9.]+)" cy="([-0-9.]+)" r="([0-9.]+)""#
        )
        let pill = try Regex(
            #"<g class="value"><title>[^<]*</title><rect x="([-0-9.]+)" y="([-0-9.]+)" width="([0-9.]+)" height="([0-9.]+)""#
        )
        for part in svg.components(separatedBy: "<g class=\"lane\"").dropFirst().map({
            "<g class=\"lane\"" + $0
        }) {
            guard let name = part.firstMatch(of: lane)?.output[1].substring.map(String.init) else { continue }
            func number(_ match: Regex<AnyRegexOutput>.Match, _ index: Int) -> Double {
                Double(String(match.output[index].substring ?? "")) ?? .nan
            }
            for match in part.matches(of: circle) {
                let (cx, cy, r) = (number(match, 1), number(match, 2), number(match, 3))
                shapes[name, default: []].append(
                    Box(left: cx - r, top: cy - r, right: cx + r, bottom: cy + r)
                )
            }
            for match in part.matches(of: pill) {
                let (x, y, w, h) = (number(match, 1), number(match, 2), number(match, 3), number(match, 4))
                shapes[name, default: []].append(Box(left: x, top: y, right: x + w, bottom: y + h))
            }
        }
        return shapes
    }

    static func overlaps(_ svg: String) throws -> [String] {
        var found: [String] = []
        for (lane, boxes) in try valueShapes(svg) {
            for i in boxes.indices {
                for j in boxes.indices where j > i && boxes[i].intersects(boxes[j]) {
                    found.append("\(lane): \(boxes[i]) and \(boxes[j])")
                }
            }
        }
        return found
    }

    static let words = ["s", "sw", "swi", "swift", "a much longer value than fits", "7", "42", "true", "x"]

    @Test func noTwoValuesOfALaneIntersectInRandomDocuments() async {
        await propertyCheck(
            count: 200,
            input: Gen.int(in: 0...(Self.words.count - 1)).array(of: 1...40),
            Gen.int(in: 0...6).array(of: 1...40),
            Gen.int(in: 0...3)
        ) { picks, gaps, node in
            let items = picks.indices.map { index in
                // Tenths of a second apart or at the same moment: the crowding that used to pile up.
                StreamItem(.string(Self.words[picks[index]]), delay: Double(gaps[index % gaps.count]) / 10)
            }
            let stream = StreamDefinition(id: "typed", items: items)
            let other = StreamDefinition(id: "other", items: items.reversed())
            let operators: [StreamOperator] = [
                .debounce(seconds: 0.2), .merge, .combineLatest, .throttle(seconds: 0.3, latest: true),
            ]
            let inputs = operators[node].joins ? ["typed", "other"] : ["typed"]
            let document = try StreamDocument(
                name: "Random",
                streams: [stream, other],
                nodes: [StreamNode(id: "out", operators[node], inputs: inputs)]
            )
            do {
                let timeline = try StreamRunner().run(document)
                let svg = SVGRenderer.render(timeline, document: document)
                let shapes = try Self.valueShapes(svg)
                #expect(
                    shapes.values.map(\.count).reduce(0, +)
                        == timeline.events.filter { !$0.kind.isEnd }.count
                )
                let overlaps = try Self.overlaps(svg)
                #expect(overlaps.isEmpty, "\(overlaps.prefix(3))")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// The bundled typing example: `s`, `sw`, `swi` and `swift` a tenth of a second apart.
    @Test func separatesATypingBurst() throws {
        let document = try RenderTests.example("typing-debounce")
        let svg = SVGRenderer.render(try StreamRunner().run(document), document: document)
        #expect(try Self.overlaps(svg).isEmpty)
        #expect(svg.contains("font-size=\"13\" fill=\"#111\">swift</text>"))
    }

    /// A hundred values in a second, and a hundred at one moment, stay apart.
    @Test func keepsAHundredEventsApart() throws {
        let spread = StreamDefinition(
            id: "many",
            items: (0..<120).map { StreamItem(.integer($0), delay: 0.01) }
        )
        let piled = StreamDefinition(id: "piled", items: (0..<100).map { StreamItem(.integer($0), delay: 0) })
        let document = try StreamDocument(name: "Many", streams: [spread, piled], nodes: [])
        let svg = SVGRenderer.render(try StreamRunner().run(document), document: document)
        #expect(try Self.overlaps(svg).isEmpty)
        #expect(svg.contains("120 values") && svg.contains("100 values"))
        let width = try #require(
            svg.firstMatch(of: #/width="([0-9.]+)"/#).map { Double(String($0.output.1))! }
        )
        #expect(width <= SVGRenderer.maximumWidth + 200)
    }

    /// A node's operator heads its own lane, with what it reads.
    @Test func headsEachLaneWithTheOperatorThatMakesIt() throws {
        let document = try RenderTests.example("zip-vs-combineLatest")
        let svg = SVGRenderer.render(try StreamRunner().run(document), document: document)
        let zipped = try #require(svg.components(separatedBy: "<g class=\"lane\" data-lane=\"zipped\">").last)
        let lane = try #require(zipped.components(separatedBy: "<g class=\"lane\"").first)
        #expect(lane.contains("= zip"))
        #expect(lane.contains("← numbers, letters"))
    }
}
