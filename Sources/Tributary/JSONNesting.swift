/// How deep JSON text nests its arrays and objects, read in one pass over the bytes before
/// anything is decoded, so that a decoder — which recurses once per level — is never handed
/// text nested deeper than the reader means to take.
///
/// ```swift
/// JSONNesting.exceeds(#"{"a": [[1]]}"#.utf8, limit: 2)   // true: three levels
/// ```
public enum JSONNesting {
    /// Whether `bytes` nest arrays and objects more than `limit` levels deep; the pass stops at
    /// the first level past it. Brackets inside strings do not count.
    ///
    /// The bytes are read as UTF-8, as RFC 8259 says JSON is exchanged. A NUL byte, which no
    /// UTF-8 JSON holds and UTF-16 and UTF-32 put in every ASCII character, counts as too
    /// deep: in those encodings a character's bytes can look like a quote and hide brackets
    /// from the pass, while a decoder that detects the encoding would still read them.
    public static func exceeds(_ bytes: some Sequence<UInt8>, limit: Int) -> Bool {
        // The pass runs over a buffer: read a byte at a time through a generic iterator, as
        // `Data`'s, it had taken 2% of the time a small run's request takes.
        if let exceeds = bytes.withContiguousStorageIfAvailable({ scan($0, limit: limit) }) { return exceeds }
        return Array(bytes).withUnsafeBufferPointer { scan($0, limit: limit) }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if byte == 0 { return true }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return false
    }
}
