import Foundation
import TributaryLabWire
import TributaryStreams

/// A recording turned into a Swift Testing source: lane `input` replayed, as recorded, into a
/// `pipeline` function the reader fills in, in virtual time on combine-schedulers' test
/// scheduler, expecting lane `output` as recorded.
///
/// Values are the recorded descriptions, so the pipeline works on strings; a failure is a
/// `RecordedFailure` with the recorded message. Times are milliseconds from the earliest event
/// of the two lanes, rounded to `frame`; a comment shows both lanes as marbles.
enum RecordingTestSource {
    static func make(
        recording: RecordingSummary,
        input: String,
        output: String,
        events: [RecordedLaneEvent],
        frame: Double
    ) -> String {
        let lanes = RecordingDocument.lanes([input, output], of: events, frame: frame)
        let (given, expected) = (lanes[0], lanes[1])
        let end = max(
            0,
            (given.values.map(\.t) + expected.values.map(\.t)
                + [given.end?.t, expected.end?.t].compactMap { $0 }).max() ?? 0
        )
        var source = """
            // Made by the Tributary lab from recording "\(comment(recording.name))" (\(recording.id)).
            // Lane "\(comment(input))" goes into `pipeline`; lane "\(comment(output))" is what came out.
            //
            //   \(comment(input)): \(marbles(given, frame: frame))
            //   \(comment(output)): \(marbles(expected, frame: frame))
            //   (one frame is \(milliseconds(frame)) ms)

            import CombineSchedulers
            import Foundation
            import Testing
            import Tributary

            /// The failure of a recorded lane, with the message it was recorded with.
            struct RecordedFailure: Error, Equatable {
                var message: String
            }

            /// What a lane did, and when, in milliseconds of virtual time.
            enum LaneEvent: Equatable {
                case value(Int, String)
                case finished(Int)
                case failed(Int, String)
            }

            /// The pipeline that turned lane "\(comment(input))" into lane "\(comment(output))": fill it in.
            func pipeline(
                _ input: AnyPublisher<String, RecordedFailure>,
                scheduler: TestSchedulerOf<DispatchQueue>
            ) -> AnyPublisher<String, RecordedFailure> {
                input.eraseToAnyPublisher()
            }

            @Test func recordedLanesReplay() {
                let scheduler = DispatchQueue.test
                let input = PassthroughSubject<String, RecordedFailure>()
                var received: [LaneEvent] = []
                let start = scheduler.now
                func now() -> Int { start.distance(to: scheduler.now).magnitude / 1_000_000 }
                func at(_ milliseconds: Int, _ action: @escaping () -> Void) {
                    scheduler.schedule(after: start.advanced(by: .milliseconds(milliseconds)), action)
                }
                let subscription = pipeline(input.eraseToAnyPublisher(), scheduler: scheduler).sink(
                    receiveCompletion: { completion in
                        switch completion {
                        case .finished: received.append(.finished(now()))
                        case .failure(let failure): received.append(.failed(now(), failure.message))
                        }
                    },
                    receiveValue: { received.append(.value(now(), $0)) }
                )

            """
        for (t, value) in given.values {
            source += "    at(\(milliseconds(t))) { input.send(\(literal(value))) }\n"
        }
        switch given.end {
        case .some((let t, nil)):
            source += "    at(\(milliseconds(t))) { input.send(completion: .finished) }\n"
        case .some((let t, let error?)):
            source +=
                "    at(\(milliseconds(t))) { input.send(completion: .failure(RecordedFailure(message: \(literal(error))))) }\n"
        case .none: break
        }
        source += """
                scheduler.advance(by: .milliseconds(\(milliseconds(end))))
                subscription.cancel()

                #expect(
                    received == [

            """
        for (t, value) in expected.values {
            source += "            .value(\(milliseconds(t)), \(literal(value))),\n"
        }
        switch expected.end {
        case .some((let t, nil)): source += "            .finished(\(milliseconds(t))),\n"
        case .some((let t, let error?)):
            source += "            .failed(\(milliseconds(t)), \(literal(error))),\n"
        case .none: break
        }
        source += """
                    ]
                )
            }

            """
        return source
    }

    /// `seconds` as whole milliseconds; a time no recording holds, such as one stored before
    /// the lab bounded them, is held to the largest a test can wait rather than trapping.
    static func milliseconds(_ seconds: Double) -> Int {
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds.isFinite else { return 0 }
        return Int(min(max(milliseconds, 0), Double(Int32.max) * 1_000_000))
    }

    /// A lane as marbles, or why it cannot be drawn at this frame.
    static func marbles(_ lane: RecordingDocument.Lane, frame: Double) -> String {
        var events = lane.values.map {
            Timeline.Event(time: $0.t, lane: lane.name, kind: .value(RecordingDocument.value($0.value)))
        }
        switch lane.end {
        case .some((let t, nil)): events.append(Timeline.Event(time: t, lane: lane.name, kind: .finished))
        case .some((let t, let error?)):
            events.append(Timeline.Event(time: t, lane: lane.name, kind: .failure(error)))
        case .none: break
        }
        do throws(StreamError) {
            let printed = try Marbles.print(events, frame: frame)
            let table = printed.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return comment(printed.marbles + (table.isEmpty ? "" : "  " + table.joined(separator: " ")))
        } catch {
            return comment("(not drawn: \(error))")
        }
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
