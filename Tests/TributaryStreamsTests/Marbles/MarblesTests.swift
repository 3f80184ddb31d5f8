import Foundation
import Testing
import TributaryStreams

@Suite struct MarblesTests {
    @Test(arguments: ["-1-2-3|", "--a--b---|", "-1234(5|)", "---#", "(ab)-c-|", "-a-b-c", "|", "123|"])
    func roundTripsThroughARun(marbles: String) throws {
        let stream = try Marbles.parse(marbles, frame: 1, id: "s")
        let timeline = try StreamRunner(maximumDuration: 60).run(try StreamDocument(streams: [stream]))
        #expect(try Marbles.print(timeline.events(in: "s"), frame: 1).marbles == marbles)
    }

    @Test func readsTimeSpansValueTablesAndTheSubscriptionPoint() throws {
        let stream = try Marbles.parse("a 2s b 500ms |", frame: 0.1, values: ["a": 10, "b": "hello"])
        #expect(stream.items.map(\.value) == [10, "hello"])
        #expect(stream.items.map(\.delay) == [0, 2.1])
        #expect(stream.ending == .finished(after: 0.6))

        let hot = try Marbles.parse("-a-^-b|")
        #expect(hot.items.map(\.value) == ["b"])
        #expect(hot.items.map(\.delay) == [1])
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

    @Test(arguments: ["-1-(2", "-1)", "((a))", "-1|-2", "-?-", "^^"])
    func refusesMalformedMarbles(marbles: String) {
        #expect(throws: StreamError.self) { try Marbles.parse(marbles) }
    }
}
