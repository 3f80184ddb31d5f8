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
    public static func exceeds(_ bytes: some Sequence<UInt8>, limit: Int) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
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
