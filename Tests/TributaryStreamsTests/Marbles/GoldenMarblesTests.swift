import Testing
import TributaryStreams

/// Every operator on the same marbles, against the diagram it must draw.
@Suite struct GoldenMarblesTests {
    static let a = "-1-2-2-3--4|"
    static let b = "--x---y|"

    @Test(arguments: [
        (StreamOperator.map(try! StreamExpression("$0 * 2")), ["a"], "-2-4-4-6--8|"),
        (.scan(initial: 0, try! StreamExpression("acc + $0")), ["a"], "-1-3-5-8--a|"),
        (.filter(try! StreamExpression("$0 % 2 == 0")), ["a"], "---2-2----4|"),
        (.dropFirst(2), ["a"], "-----2-3--4|"),
        // OpenCombine's prefix finishes when the next value arrives, not with the last one it
        // publishes.
        (.prefix(2), ["a"], "-1-2-|"),
        (.removeDuplicates, ["a"], "-1-2---3--4|"),
        (.delay(seconds: 2), ["a"], "---1-2-2-3--4|"),
        (.debounce(seconds: 1.5), ["a"], "---1-2-2-3-|"),
        (.throttle(seconds: 3, latest: false), ["a"], "-1--2--2--3--(4|)"),
        (.throttle(seconds: 2, latest: true), ["a"], "-1-2-2-3--4|"),
        (.merge, ["a", "b"], "-1x2-2y3--4|"),
        (.append, ["a", "b"], "-1-2-2-3--4--x---y|"),
        (.zip, ["a", "b"], "--a---b|"),
        (.combineLatest, ["a", "b"], "--ab-bcd--e|"),
    ])
    func drawsTheExpectedDiagram(op: StreamOperator, inputs: [String], expected: String) throws {
        let document = try StreamDocument(
            streams: [try Marbles.parse(Self.a, id: "a"), try Marbles.parse(Self.b, id: "b")],
            nodes: [StreamNode(id: "n", op, inputs: inputs)]
        )
        let timeline = try StreamRunner().run(document)
        let drawn = try TextLanes.render(timeline, document: document)
        let lane = drawn.split(separator: "\n").first { $0.hasPrefix("n = ") }.map(String.init) ?? ""
        #expect(lane.split(separator: " ").last.map(String.init) == expected, "\(op.label): \(drawn)")
    }
}
