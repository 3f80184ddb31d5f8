import Foundation
import Testing
import Tributary
import TributaryStreams

/// The one pass over JSON's bytes that bounds its nesting before a decoder recurses into it.
@Suite struct JSONNestingTests {
    @Test func countsLevelsOutsideStringsOnly() {
        #expect(!JSONNesting.exceeds(Array(#"{"a": [[1]]}"#.utf8), limit: 3))
        #expect(JSONNesting.exceeds(Array(#"{"a": [[1]]}"#.utf8), limit: 2))
        #expect(!JSONNesting.exceeds(Array(#"{"a": "[[[[\"[["}"#.utf8), limit: 1))
    }

    /// Bytes in `Data`, in an array, or in a sequence that holds none of them contiguously are
    /// judged the same.
    @Test func judgesEveryKindOfSequenceAlike() {
        for (text, limit, exceeds) in [
            (#"{"a": [[1]]}"#, 2, true), (#"{"a": [[1]]}"#, 3, false), (#"["]]]", [[]]]"#, 3, false),
            (#"["]]]", [[]]]"#, 2, true),
            ("[\u{0}]", 5, true),
        ] {
            let bytes = Array(text.utf8)
            #expect(JSONNesting.exceeds(Data(bytes), limit: limit) == exceeds, "\(text)")
            #expect(JSONNesting.exceeds(bytes, limit: limit) == exceeds, "\(text)")
            #expect(JSONNesting.exceeds(bytes.lazy.map { $0 }, limit: limit) == exceeds, "\(text)")
        }
    }

    /// UTF-16 text, which a decoder that detects the encoding reads, is never taken as shallow:
    /// here a character whose bytes hold a quote would hide a thousand levels from the pass.
    @Test func textThatIsNotUTF8IsTooDeep() throws {
        let nested =
            "{\"a\":\"\u{2200}\"," + String(repeating: "[", count: 1_000)
            + String(repeating: "]", count: 1_000) + "}"
        let utf16 = try #require(nested.data(using: .utf16LittleEndian))
        #expect(JSONNesting.exceeds(utf16, limit: 48))
        #expect(
            JSONNesting.exceeds(Array("{}".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), limit: 48)
        )
        #expect(throws: StreamError.self) {
            _ = try StreamDocument.decode(
                try #require(#"{"schemaVersion":1,"streams":[]}"#.data(using: .utf16))
            )
        }
    }
}
