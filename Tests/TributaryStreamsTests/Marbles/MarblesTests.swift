import Foundation
import Testing
import TributaryStreams

@Suite struct MarblesTests {
    @Test(arguments: [
        "-1-2-3|", "--a--b---|", "-1234(5|)", "---#", "(ab)-c-|", "-a-b-c", "|", "123|", "(ab)--(c|)",
        "-🙈-é.|",
    ])
    func roundTripsThroughARun(marbles: String) throws {
        let stream = try Marbles.parse(marbles, frame: 1, id: "s")
        let timeline = try StreamRunner(maximumDuration: 60).run(try StreamDocument(streams: [stream]))
        let printed = try Marbles.print(timeline.events(in: "s"), frame: 1)
        #expect(printed.marbles == marbles)
    }

    @Test func readsTimeSpansValueTablesAndTheSubscriptionPoint() throws {
        let stream = try Marbles.parse("a 2s b 500ms |", frame: 0.1, values: ["a": 10, "b": "hello"])
        #expect(stream.items.map(\.value) == [10, "hello"])
        #expect(stream.items.map(\.delay) == [0, 2.1])
        #expect(stream.ending == .finished(after: 0.6))

        // Frame zero is the ^, which takes a frame; what came before it is missed.
        let hot = try Marbles.parse("-a-^-b|")
        #expect(hot.items.map(\.value) == ["b"])
        #expect(hot.items.map(\.delay) == [2])
        #expect(hot.ending == .finished(after: 1))
    }

    /// Digits are integers unless the table says otherwise; every other character is itself.
    @Test func readsDigitsAsIntegersAndEverythingElseAsStrings() throws {
        let stream = try Marbles.parse("12a(🙈٣)", values: ["2": "two"])
        #expect(stream.items.map(\.value) == [1, "two", "a", "🙈", "٣"])
    }

    /// A subscription diagram says what a subscriber to the hot stream sees: from its `^` up
    /// to its `!`, at the stream's own times.
    @Test func followsASubscriptionDiagram() throws {
        let window = try Marbles.parse("-a-^-b-c-d|", subscription: "---^-!")
        #expect(window.items.map(\.value) == ["c"])
        #expect(window.items.map(\.delay) == [4])
        #expect(window.ending == .never)

        let toTheEnd = try Marbles.parse("^-b-c|", subscription: "---^")
        #expect(toTheEnd.items.map(\.value) == ["c"])
        #expect(toTheEnd.ending == .finished(after: 1))

        // A stream that ended before the subscriber came tells it as it subscribes.
        let late = try Marbles.parse("a-#-^", subscription: "--^", values: ["#": "gone"])
        #expect(late.items.isEmpty)
        #expect(late.ending == .failed(after: 2, message: "gone"))

        let never = try Marbles.parse("-a|", subscription: "---")
        #expect(never.items.isEmpty && never.ending == .never)

        #expect(throws: StreamError.self) { try Marbles.parse("-a|", subscription: "-!-^") }
        #expect(throws: StreamError.self) { try Marbles.parse("-a|", subscription: "-^-a") }
    }

    @Test func carriesTheFailureMessageBothWays() throws {
        let stream = try Marbles.parse("-a#", values: ["#": "timeout"])
        #expect(stream.ending == .failed(after: 1, message: "timeout"))
        let timeline = try StreamRunner().run(try StreamDocument(streams: [stream]))
        let printed = try Marbles.print(timeline.events(in: stream.id), frame: 1)
        #expect(printed.marbles == "-a#")
        #expect(printed.values == ["#": "timeout"])
    }

    /// Text lanes list the failures' messages with the stand-ins, every one when lanes differ.
    @Test func listsFailureMessagesUnderTheLanes() throws {
        let document = try StreamDocument(streams: [
            Marbles.parse("-1#", values: ["#": "boom"], id: "a"), Marbles.parse("--#", id: "b"),
        ])
        let text = try TextLanes.render(try StreamRunner().run(document), document: document)
        #expect(text.hasSuffix("\n\nwhere # = [boom, failed]"), "\(text)")
    }

    @Test func printsLongValuesAsLettersWithATable() throws {
        let events = [
            Timeline.Event(time: 1, lane: "s", kind: .value("hello")),
            Timeline.Event(time: 2, lane: "s", kind: .value(42)),
            Timeline.Event(time: 3, lane: "s", kind: .value("hello")),
            Timeline.Event(time: 3, lane: "s", kind: .finished),
        ]
        let printed = try Marbles.print(events, frame: 1)
        #expect(printed.marbles == "-ab(a|)")
        #expect(printed.values == ["a": "hello", "b": 42])
    }

    /// Past the ASCII letters, stand-ins come from other scripts.
    @Test func hasStandInsForManyValues() throws {
        let events = (0..<200).map {
            Timeline.Event(time: Double($0), lane: "s", kind: .value(.string("v\($0)")))
        }
        let printed = try Marbles.print(events, frame: 1)
        #expect(printed.values.count == 200)
        #expect(try Marbles.read(printed.marbles, values: printed.values).map(\.kind) == events.map(\.kind))
    }

    /// `1s` at the start would read as a time span once a space followed, so the `s` after
    /// leading digits is written as a stand-in.
    @Test func neverPrintsWhatReadsAsATimeSpan() throws {
        let events = [
            Timeline.Event(time: 0, lane: "s", kind: .value(1)),
            Timeline.Event(time: 1, lane: "s", kind: .value("s")),
            Timeline.Event(time: 2, lane: "s", kind: .value("m")),
        ]
        let printed = try Marbles.print(events, frame: 1)
        #expect(printed.marbles == "1am")
        #expect(printed.values == ["a": "s"])
        let read = try Marbles.read(printed.marbles, values: printed.values)
        #expect(read.map(\.kind) == events.map(\.kind))
    }

    /// A group is as wide as its characters, so a value one frame after a pair cannot be drawn
    /// at that frame; the error names one that draws it, and text lanes use it.
    @Test func drawsAtAShorterFrameWhenAGroupWouldCoverAnEvent() throws {
        let events = [
            Timeline.Event(time: 0, lane: "s", kind: .value("a")),
            Timeline.Event(time: 0, lane: "s", kind: .value("b")),
            Timeline.Event(time: 1, lane: "s", kind: .value("c")),
            Timeline.Event(time: 1, lane: "s", kind: .finished),
        ]
        let error = #expect(throws: StreamError.self) { try Marbles.print(events, frame: 1) }
        #expect(error?.description.contains("0.25 seconds a frame draws every event") == true)
        #expect(try Marbles.print(events, frame: 0.25).marbles == "(ab)(c|)")

        let document = try StreamDocument(streams: [Marbles.parse("(ab)(c|)", frame: 0.25, id: "s")])
        let text = try TextLanes.render(try StreamRunner().run(document), document: document, frame: 1)
        #expect(
            text == """
                s  (ab)(c|)
                (drawn at 0.25 seconds a frame: at 1.0, a group would cover the event after it)
                """
        )
    }

    @Test(arguments: ["-1-(2", "-1)", "((a))", "-1|-2", "-!-", "^^", "a\u{7}"])
    func refusesMalformedMarbles(marbles: String) {
        #expect(throws: StreamError.self) { try Marbles.parse(marbles) }
    }

    @Test func refusesEventsItCannotPrint() {
        for time in [-1, Double.nan, .infinity] {
            #expect(throws: StreamError.self) {
                try Marbles.print([Timeline.Event(time: time, lane: "s", kind: .finished)], frame: 1)
            }
        }
    }
}
