/// Whether bytes are one JSON text as RFC 8259 writes its grammar, read in one pass without
/// recursion: no trailing commas, no byte-order mark, no comments, no `NaN`, nothing after the
/// value but whitespace, and arrays and objects nested at most a given depth.
///
/// `JSONSerialization` reads some texts the grammar does not allow (`[1,]`), which a browser's
/// `JSON.parse` refuses; text that a lab stores as JSON is checked against the grammar first.
package enum JSONGrammar {
    private enum Expect {
        case value, firstInArray, firstInObject, key, colon, commaOrClose, end
    }

    package static func isValid(_ text: some Collection<UInt8>, maximumDepth: Int) -> Bool {
        let bytes = Array(text)
        var at = 0
        var open: [UInt8] = []
        var expect = Expect.value

        func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }
        func digits() -> Int {
            let start = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - start
        }
        func string() -> Bool {
            at += 1
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard at < bytes.count else { return false }
                    let escaped = bytes[at]
                    at += 1
                    if escaped == UInt8(ascii: "u") {
                        guard at + 4 <= bytes.count,
                            bytes[at..<(at + 4)].allSatisfy(isHexDigit)
                        else { return false }
                        at += 4
                    } else if !Array(#""\/bfnrt"#.utf8).contains(escaped) {
                        return false
                    }
                case ..<0x20: return false
                default: continue
                }
            }
            return false
        }
        func number() -> Bool {
            if bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard at < bytes.count else { return false }
            if bytes[at] == UInt8(ascii: "0") {
                at += 1
            } else if digits() == 0 {
                return false
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { return false }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
                    at += 1
                }
                guard digits() > 0 else { return false }
            }
            return true
        }
        func literal(_ word: String) -> Bool {
            let spelled = Array(word.utf8)
            guard at + spelled.count <= bytes.count, bytes[at..<(at + spelled.count)].elementsEqual(spelled)
            else {
                return false
            }
            at += spelled.count
            return true
        }
        func afterValue() { expect = open.isEmpty ? .end : .commaOrClose }
        func isHexDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }

        while true {
            skipSpace()
            guard at < bytes.count else { return expect == .end }
            let byte = bytes[at]
            switch expect {
            case .end:
                return false
            case .colon:
                guard byte == UInt8(ascii: ":") else { return false }
                at += 1
                expect = .value
            case .firstInObject where byte == UInt8(ascii: "}"),
                .firstInArray where byte == UInt8(ascii: "]"):
                open.removeLast()
                at += 1
                afterValue()
            case .firstInObject, .key:
                guard byte == UInt8(ascii: "\""), string() else { return false }
                expect = .colon
            case .commaOrClose:
                let inObject = open.last == UInt8(ascii: "{")
                if byte == UInt8(ascii: ",") {
                    at += 1
                    expect = inObject ? .key : .value
                } else if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    open.removeLast()
                    at += 1
                    afterValue()
                } else {
                    return false
                }
            case .value, .firstInArray:
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard open.count < maximumDepth else { return false }
                    open.append(byte)
                    at += 1
                    expect = byte == UInt8(ascii: "{") ? .firstInObject : .firstInArray
                case UInt8(ascii: "\""):
                    guard string() else { return false }
                    afterValue()
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    guard literal("true") || literal("false") || literal("null") else { return false }
                    afterValue()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard number() else { return false }
                    afterValue()
                default:
                    return false
                }
            }
        }
    }
}
