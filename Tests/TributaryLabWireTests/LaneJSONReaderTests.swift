import Foundation
import Testing
import TributaryLabWire
import TributaryTestSupport

/// Batches and events are read by hand exactly as `JSONDecoder` reads them: every text the
/// reader takes gives `JSONDecoder`'s value, and everything else is left to `JSONDecoder`.
@Suite(.unsanitized("CPU-bound; runs in the plain pass")) struct LaneJSONReaderTests {
    /// A generator with a seed, so a failure repeats.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let scalars: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{8}", "\u{C}", "\u{1F}",
        "\u{7F}", "é", "日", "🇺", "👩", "\u{200D}", "\u{2028}", "\u{FEFF}", "\u{10FFFF}", "<",
    ]

    static func text(_ random: inout Seeded, longest: Int = 12) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...longest, using: &random) {
            text.append(scalars.randomElement(using: &random) ?? "a")
        }
        return String(text)
    }

    static func time(_ random: inout Seeded) -> Double {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: 0
        case 1: Double.random(in: 0..<1, using: &random)
        case 2: Double.random(in: 0..<1e9, using: &random)
        case 3: Double(Int.random(in: 0..<100_000, using: &random)) / 1_000_000
        case 4:
            [Double.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 1e-300, 2.5e-308]
                .randomElement(using: &random) ?? 0
        default: Double(bitPattern: UInt64.random(in: 0..<0x7FF0_0000_0000_0000, using: &random))
        }
    }

    static func event(_ random: inout Seeded) -> RecordedLaneEvent {
        let kind = RecordedLaneEvent.Kind.allCases.randomElement(using: &random) ?? .value
        return RecordedLaneEvent(
            lane: text(&random),
            subscription: Bool.random(using: &random)
                ? Int.random(in: 1...9, using: &random) : .random(in: 0...Int.max, using: &random),
            kind: kind,
            value: kind == .value ? text(&random, longest: 40) : nil,
            error: kind == .failed ? text(&random) : nil,
            demand: kind == .requested
                ? (Bool.random(using: &random) ? .unlimited : .max(.random(in: 0...Int.max, using: &random)))
                : nil,
            t: time(&random),
            source: text(&random)
        )
    }

    static func batch(_ random: inout Seeded) -> RecordingIngestBatch {
        RecordingIngestBatch(
            first: .random(in: 0...1_000_000, using: &random),
            events: (0..<Int.random(in: 0...6, using: &random)).map { _ in event(&random) },
            dropped: .random(in: 0...1_000, using: &random)
        )
    }

    @Test func readsEveryBatchARecorderWritesAsJSONDecoderDoes() throws {
        var random = Seeded(state: 1)
        for _ in 0..<2_000 {
            let batch = Self.batch(&random)
            let json = Data(batch.json.utf8)
            let byHand = try #require(RecordingIngestBatch.readByHand(json), "\(batch.json)")
            #expect(byHand == batch)
            #expect(byHand == (try JSONDecoder().decode(RecordingIngestBatch.self, from: json)))
            for event in batch.events {
                let one = Data(event.json.utf8)
                #expect(RecordedLaneEvent.readByHand(one) == event)
                #expect(
                    try RecordedLaneEvent(json: one)
                        == JSONDecoder().decode(RecordedLaneEvent.self, from: one)
                )
            }
        }
    }

    @Test(arguments: [
        // Whitespace of every kind, keys in any order, and every escape.
        #" { "type" : "events" ,"first":0, "dropped" :0,"events" : [ ] } "#,
        "{\"events\":[\r\n\t{\"t\":1E2,\"source\":\"\\/s\\u00e9\\ud83d\\ude00\",\"kind\":\"value\",\"value\":\"\\b\\f\\n\\r\\t\\\"\\\\\",\"subscription\":2,\"lane\":\"x\"}],\"first\":-0,\"dropped\":3,\"type\":\"other\"}",
        #"{"type":"events","first":5,"dropped":0,"events":[{"lane":"l","subscription":1,"kind":"requested","demand":"unlimited","t":0.5e-3,"source":""},{"lane":"l","subscription":1,"kind":"requested","demand":0,"t":-1.5,"source":""}]}"#,
    ])
    func readsOtherFormsByHandAsJSONDecoderDoes(text: String) throws {
        let json = Data(text.utf8)
        let byHand = try #require(RecordingIngestBatch.readByHand(json))
        #expect(byHand == (try JSONDecoder().decode(RecordingIngestBatch.self, from: json)))
    }

    @Test(arguments: [
        #"{"type":"events","first":0,"dropped":0,"events":[],"extra":1}"#,
        #"{"type":"events","first":0,"dropped":0,"events":[],"first":1}"#,
        #"{"type":"events","first":1.0,"dropped":0,"events":[]}"#,
        #"{"type":"events","first":1e3,"dropped":0,"events":[]}"#,
        #"{"type":"events","first":0,"dropped":0,"events":null}"#,
        #"{"type":"events","first":0,"dropped":0}"#,
        #"{"type":"events","first":01,"dropped":0,"events":[]}"#,
        #"{"type":"events","first":99999999999999999999,"dropped":0,"events":[]}"#,
        #"{"type":"ev\ud800ents","first":0,"dropped":0,"events":[]}"#,
        #"{"type":"events","first":0,"dropped":0,"events":[{"lane":"l","subscription":1,"kind":"value","value":null,"t":0,"source":""}]}"#,
        #"{"type":"events","first":0,"dropped":0,"events":[{"lane":"l","subscription":1,"kind":"requested","demand":-1,"t":0,"source":""}]}"#,
        #"{"type":"events","first":0,"dropped":0,"events":[{"lane":"l","subscription":1,"kind":"tick","t":0,"source":""}]}"#,
        #"{"type":"events","first":0,"dropped":0,"events":[{"lane":"l","subscription":1,"kind":"value","value":"v","t":1e999,"source":""}]}"#,
        #"{"type":"events","first":0,"dropped":0,"events":[]} x"#,
        #"["events"]"#,
        "",
    ])
    func leavesEverythingElseToJSONDecoder(text: String) {
        let json = Data(text.utf8)
        #expect(RecordingIngestBatch.readByHand(json) == nil)
        let decoded = try? JSONDecoder().decode(RecordingIngestBatch.self, from: json)
        #expect((try? RecordingIngestBatch(json: json)) == decoded)
    }

    /// Damaged texts: whatever the reader takes by hand, `JSONDecoder` reads to the same batch.
    @Test func neverTakesATextJSONDecoderWouldReadOtherwise() throws {
        var random = Seeded(state: 7)
        let pieces =
            Array(#"{}[],:"\ u0123456789abcdefABCDEF.eE+-ntrlsy"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        var takenByHand = 0
        var damaged = 0
        for _ in 0..<20_000 {
            var bytes = Array(Self.batch(&random).json.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(pieces.randomElement(using: &random) ?? 0, at: at)
                default: bytes[at] = pieces.randomElement(using: &random) ?? 0
                }
            }
            let json = Data(bytes)
            let decoded = try? JSONDecoder().decode(RecordingIngestBatch.self, from: json)
            if decoded == nil { damaged += 1 }
            if let byHand = RecordingIngestBatch.readByHand(json) {
                takenByHand += 1
                #expect(byHand == decoded, "\(String(decoding: bytes, as: UTF8.self))")
            }
            #expect((try? RecordingIngestBatch(json: json)) == decoded)
        }
        // Both kinds of damage were met: texts that still read, and texts that no longer do.
        #expect(takenByHand > 1_000)
        #expect(damaged > 1_000)
    }
}
