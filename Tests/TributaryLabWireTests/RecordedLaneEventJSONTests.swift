import Foundation
import Testing
import TributaryLabWire
import TributaryTestSupport

/// The hand-written JSON of events and batches reads back as the same values.
@Suite(.unsanitized("CPU-bound; runs in the plain pass")) struct RecordedLaneEventJSONTests {
    static let texts = [
        "", "plain", "quote \" and backslash \\", "line\nfeed\rreturn\ttab", "\u{0}\u{1}\u{1F}\u{7F}",
        "é日本語🇺🇳👩‍👩‍👧", "\u{2028}\u{2029}", "</script>", String(repeating: "x", count: 10_000),
    ]

    @Test(arguments: texts)
    func readsBackWhatItWrites(text: String) throws {
        let events = [
            RecordedLaneEvent(lane: text, subscription: 3, kind: .value, value: text, t: 0.1, source: text),
            RecordedLaneEvent(lane: "l", subscription: 1, kind: .failed, error: text, t: 1e-7, source: "s"),
            RecordedLaneEvent(
                lane: "l",
                subscription: 9,
                kind: .requested,
                demand: .max(5),
                t: 12_345.678,
                source: ""
            ),
            RecordedLaneEvent(
                lane: "l",
                subscription: 9,
                kind: .requested,
                demand: .unlimited,
                t: 0,
                source: ""
            ),
            RecordedLaneEvent(lane: "l", subscription: 1, kind: .cancelled, t: 3, source: "x"),
        ]
        for event in events {
            #expect(try JSONDecoder().decode(RecordedLaneEvent.self, from: Data(event.json.utf8)) == event)
        }
        let batch = RecordingIngestBatch(first: 42, events: events, dropped: 7)
        #expect(try JSONDecoder().decode(RecordingIngestBatch.self, from: Data(batch.json.utf8)) == batch)
    }

    @Test func writesTheKeysSortedAsTheLabsEncoderDoes() throws {
        let event = RecordedLaneEvent(
            lane: "a",
            subscription: 1,
            kind: .value,
            value: "v",
            t: 0.5,
            source: "F:1"
        )
        #expect(
            event.json == #"{"kind":"value","lane":"a","source":"F:1","subscription":1,"t":0.5,"value":"v"}"#
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(event.json == String(decoding: try encoder.encode(event), as: UTF8.self))
    }
}
