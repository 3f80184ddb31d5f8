import Testing
import TributaryLabWire
import TributaryStreams

@testable import TributaryLab

/// A lane's subscriptions merged into one stream, ending as `merge` would.
@Suite struct RecordingDocumentLaneTests {
    static func event(
        _ subscription: Int,
        _ kind: RecordedLaneEvent.Kind,
        _ t: Double,
        _ text: String? = nil
    )
        -> RecordedLaneEvent
    {
        RecordedLaneEvent(
            lane: "l",
            subscription: subscription,
            kind: kind,
            value: kind == .value ? text : nil,
            error: kind == .failed ? text : nil,
            t: t,
            source: "App.swift:1"
        )
    }

    @Test func keepsTheValuesOfEverySubscriptionInTimeOrder() {
        let lane = RecordingDocument.lanes(
            ["l"],
            of: [
                Self.event(1, .subscribed, 0), Self.event(2, .subscribed, 0.1),
                Self.event(1, .value, 0.5, "a"),
                // Stamped on another thread a little before the value recorded ahead of it.
                Self.event(2, .value, 0.4, "b"), Self.event(1, .finished, 1), Self.event(2, .value, 1.5, "c"),
                Self.event(2, .finished, 2),
            ],
            frame: nil
        )[0]
        #expect(lane.values.map(\.value) == ["b", "a", "c"])
        #expect(lane.values.map(\.t) == [0.4, 0.5, 1.5])
        #expect(lane.end?.t == 2 && lane.end?.error == nil)
    }

    @Test func failsAtTheFirstFailureAndKeepsNothingAfterIt() {
        let lane = RecordingDocument.lanes(
            ["l"],
            of: [
                Self.event(1, .subscribed, 0), Self.event(2, .subscribed, 0), Self.event(1, .value, 1, "a"),
                Self.event(2, .failed, 2, "boom"), Self.event(1, .value, 3, "late"),
                Self.event(1, .finished, 4),
            ],
            frame: nil
        )[0]
        #expect(lane.values.map(\.value) == ["a"])
        #expect(lane.end?.t == 2 && lane.end?.error == "boom")
    }

    @Test(arguments: [RecordedLaneEvent.Kind.cancelled, .subscribed])
    func neverEndsWhileASubscriptionWasCancelledOrRunning(second: RecordedLaneEvent.Kind) {
        let lane = RecordingDocument.lanes(
            ["l"],
            of: [Self.event(1, .subscribed, 0), Self.event(1, .finished, 1), Self.event(2, second, 2)],
            frame: nil
        )[0]
        #expect(lane.end?.t == nil)
    }
}

/// A recorded description becomes a number or boolean only when it is exactly how one is written.
@Suite struct RecordingDocumentValueTests {
    @Test(
        arguments: [
            ("42", StreamValue.integer(42)), ("-7", .integer(-7)), ("0.5", .decimal(0.5)),
            ("true", .boolean(true)),
            ("false", .boolean(false)), ("1.0", .string("1.0")), ("1e2", .string("1e2")),
            (" 1", .string(" 1")),
            ("-0", .string("-0")), ("12345678901234567890", .string("12345678901234567890")),
            ("null", .string("null")), ("01", .string("01")), ("\"a\"", .string("\"a\"")), ("", .string("")),
            ("123.456", .decimal(123.456)), ("-0.25", .decimal(-0.25)), ("[1]", .string("[1]")),
            ("True", .string("True")), ("true ", .string("true ")),
        ]
    )
    func keepsTheTextUnlessItIsExactlyANumberOrBoolean(text: String, value: StreamValue) {
        #expect(RecordingDocument.value(text) == value)
    }
}

/// Times rounded to a frame, and the waits between them, are the times a person reads.
@Suite struct RecordingDocumentTimeTests {
    @Test func carriesNoBinaryNoiseIntoTimesOrWaits() throws {
        let events = (1...9).map { index in
            RecordedLaneEvent(
                lane: "l",
                subscription: 1,
                kind: .value,
                value: String(index),
                t: Double(index) * 0.1 + 0.0004,
                source: "App.swift:1"
            )
        }
        let lane = RecordingDocument.lanes(["l"], of: events, frame: 0.1)[0]
        #expect(lane.values.map(\.t) == [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
        let document = try RecordingDocument.make(name: "times", lanes: ["l"], of: events, frame: 0.1)
        #expect(document.streams[0].items.dropFirst().map(\.delay) == Array(repeating: 0.1, count: 8))
    }
}
