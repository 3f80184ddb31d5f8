import Foundation
import Testing
import TributaryStreams

/// Long quiet stretches print as RxJS time spans, and read back as the frames they stand for.
@Suite struct MarbleSpanTests {
    static func event(_ time: Double, _ kind: Timeline.Kind) -> Timeline.Event {
        Timeline.Event(time: time, lane: "s", kind: kind)
    }

    /// Ten million frames of nothing take a few characters, not ten megabytes of dashes.
    @Test func printsTenMillionQuietFramesInAFewBytes() throws {
        let events = [
            Self.event(0, .value("a")), Self.event(10_000, .value("b")), Self.event(10_000, .finished),
        ]
        let printed = try Marbles.print(events, frame: 0.001)
        #expect(printed.marbles == "a 9999.999s (b|)")
        let read = try Marbles.read(printed.marbles, frame: 0.001, values: printed.values)
        #expect(read.map(\.time) == [0, 10_000, 10_000])
        #expect(read.map(\.kind) == events.map(\.kind))
    }

    @Test(arguments: [
        (99, 0.001, "a 99ms b"), (1_500, 0.001, "a 1.5s b"), (120, 1, "a 2m b"), (25, 0.1, "a 2.5s b"),
        (21, 1, "a 21s b"), (20, 1, "a--------------------b"), (86_399, 1, "a 86399s b"),
    ])
    func writesEachStretchAsItsShortestSpan(frames: Int, frame: Double, marbles: String) throws {
        let events = [Self.event(0, .value("a")), Self.event(Double(frames + 1) * frame, .value("b"))]
        let printed = try Marbles.print(events, frame: frame)
        #expect(printed.marbles == marbles)
        let read = try Marbles.read(printed.marbles, frame: frame)
        #expect(read.map { ($0.time / frame).rounded() } == [0, Double(frames + 1)])
    }

    /// A quiet start is a span at the start; a digit after a span is written so that no `s` or
    /// `m` after it reads as a unit.
    @Test func keepsValuesAfterASpanFromReadingAsOne() throws {
        let events = [
            Self.event(30, .value(5)), Self.event(31, .value("s")), Self.event(60, .value(7)),
            Self.event(61, .value(".")), Self.event(62, .value("m")), Self.event(63, .finished),
        ]
        let printed = try Marbles.print(events, frame: 1)
        #expect(printed.marbles == "30s 5a 28s 7.b|")
        #expect(printed.values == ["a": "s", "b": "m"])
        let read = try Marbles.read(printed.marbles, values: printed.values)
        #expect(read.map(\.kind) == events.map(\.kind))
        #expect(read.map(\.time) == events.map(\.time))
    }

    /// A frame that no span says to the microsecond keeps its dashes, within their limit.
    @Test func keepsDashesForAFrameNoSpanCanSay() throws {
        let frame = 1.0 / 3
        let events = [Self.event(0, .value(1)), Self.event(30 * frame, .value(2))]
        #expect(
            try Marbles.print(events, frame: frame).marbles == "1" + String(repeating: "-", count: 29) + "2"
        )
        let far = [Self.event(0, .value(1)), Self.event(200_000 * frame, .value(2))]
        let error = #expect(throws: StreamError.self) { try Marbles.print(far, frame: frame) }
        #expect(error?.description.contains("more than 100000 frames of dashes") == true)
    }

    /// Text lanes share their quiet stretches, so every lane writes the same span in the same
    /// columns and the lanes stay aligned.
    @Test func textLanesStayAlignedAcrossSpans() throws {
        let document = try StreamDocument.decode(
            Data(
                #"""
                {"schemaVersion": 1, "streams": [{"id": "n", "items": [
                  {"value": 1}, {"value": 2, "operators": [{"operator": "delay", "seconds": 2}]}]}],
                 "nodes": [{"id": "late", "operator": "delay", "input": "n", "seconds": 86000}]}
                """#.utf8
            )
        )
        let text = try TextLanes.render(try StreamRunner().run(document), document: document)
        #expect(
            text == """
                n                     1-(2|)
                late = delay(86000s)  ------ 85994s 1-(2|)
                """
        )
        #expect(text.utf8.count < 100)
    }

    /// The cap is on what is printed: a day of quiet passes a small cap that its dashes would not.
    @Test func capsTheCompressedTextNotTheDashes() throws {
        let events = (0..<50).map { Self.event(Double($0) * 1_000, .value(.integer($0 % 10))) }
        let document = try StreamDocument(streams: [.series("s", [1])])
        let timeline = Timeline(lanes: ["s"], events: events)
        let text = try TextLanes.render(timeline, document: document, maximumBytes: 1_000)
        #expect(text.hasPrefix("s  0 999s 1 999s 2"))
        let error = #expect(throws: StreamError.self) {
            try TextLanes.render(timeline, document: document, maximumBytes: 200)
        }
        guard case .outputTooLarge(_, let limit)? = error?.kind else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(limit == 200)
    }
}
