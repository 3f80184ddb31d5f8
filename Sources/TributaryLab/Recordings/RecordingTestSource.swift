import Foundation
import TributaryLabWire
import TributaryStreams

/// A recording turned into a Swift Testing source: lane `input` replayed, as recorded, into a
/// `pipeline` function the reader fills in, expecting lane `output` as recorded, both written
/// as marbles in a `MarbleTest` (`TributaryTesting`), in virtual time.
///
/// Values are the recorded descriptions, so the pipeline works on strings; a failure is a
/// `RecordedFailure` with the recorded message. Times are measured from the earliest event of
/// the two lanes, at `frame` seconds a frame, or a shorter frame where events recorded close
/// together need one.
enum RecordingTestSource {
    static func make(
        recording: RecordingSummary,
        input: String,
        output: String,
        events: [RecordedLaneEvent],
        frame: Double
    ) throws(StreamError) -> String {
        let lanes = RecordingDocument.lanes([input, output], of: events, frame: frame)
        let printed = try Marbles.print(lanes: lanes.map(timeline), frame: frame)
        let (given, expected) = (lanes[0], lanes[1])
        let frameLiteral = duration(printed.frame)
        let (inputMarbles, outputMarbles) = (printed.marbles[0], printed.marbles[1])
        let inputValues = table(printed.values, in: inputMarbles)
        let outputValues = table(printed.values, in: outputMarbles)
        var arguments = [literal(inputMarbles)]
        if !inputValues.isEmpty { arguments.append("values: " + inputValues) }
        if let error = given.end?.error {
            arguments.append("error: RecordedFailure(message: \(literal(error)))")
        }
        var made = "test.hot(\n        " + arguments.joined(separator: ",\n        ") + "\n    )"
        if given.end?.error == nil { made += "\n    .setFailureType(to: RecordedFailure.self)" }
        var expectation = [
            "pipeline(input.eraseToAnyPublisher(), scheduler: test.scheduler)",
            "toBe: " + literal(outputMarbles),
        ]
        if !outputValues.isEmpty { expectation.append("values: " + outputValues) }
        if let error = expected.end?.error {
            expectation.append("error: RecordedFailure(message: \(literal(error)))")
        }
        return """
            // Made by the Tributary lab from recording "\(comment(recording.name))" (\(recording.id)).
            // Lane "\(comment(input))" goes into `pipeline`; lane "\(comment(output))" is what came out.

            import CombineSchedulers
            import Foundation
            import Testing
            import Tributary
            import TributaryTesting

            /// The failure of a recorded lane, with the message it was recorded with.
            struct RecordedFailure: Error, Equatable {
                var message: String
            }

            /// The pipeline that turned lane "\(comment(input))" into lane "\(comment(output))": fill it in.
            func pipeline(
                _ input: AnyPublisher<String, RecordedFailure>,
                scheduler: AnySchedulerOf<DispatchQueue>
            ) -> AnyPublisher<String, RecordedFailure> {
                input.eraseToAnyPublisher()
            }

            @Test func recordedLanesReplay() {
                let test = MarbleTest(frame: \(frameLiteral))
                let input = \(made)
                test.expect(
                    \(expectation.joined(separator: ",\n        "))
                )
            }

            """
    }

    /// A lane as the marble printer takes it: each value as the text it was recorded with.
    static func timeline(_ lane: RecordingDocument.Lane) -> [Timeline.Event] {
        var events = lane.values.map {
            Timeline.Event(time: $0.t, lane: lane.name, kind: .value(.string($0.value)))
        }
        switch lane.end {
        case .some((let t, nil)): events.append(Timeline.Event(time: t, lane: lane.name, kind: .finished))
        case .some((let t, let error?)):
            events.append(Timeline.Event(time: t, lane: lane.name, kind: .failure(error)))
        case .none: break
        }
        return events
    }

    /// The entries of `values` that `marbles` use, as a Swift dictionary literal, in order.
    static func table(_ values: [Character: StreamValue], in marbles: String) -> String {
        let used = values.keys.filter { $0 != "#" && marbles.contains($0) }.sorted()
        guard !used.isEmpty else { return "" }
        return "["
            + used.map { "\(literal(String($0))): \(literal(values[$0]!.description))" }.joined(
                separator: ", "
            ) + "]"
    }

    /// `seconds` as the `Duration` a `MarbleTest` takes: whole milliseconds where it is, else
    /// microseconds.
    static func duration(_ seconds: Double) -> String {
        let microseconds = Int((seconds * 1e6).rounded())
        return microseconds % 1000 == 0
            ? ".milliseconds(\(microseconds / 1000))" : ".microseconds(\(microseconds))"
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }

    /// `text` made safe for a line comment: on one line.
    static func comment(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    }
}
