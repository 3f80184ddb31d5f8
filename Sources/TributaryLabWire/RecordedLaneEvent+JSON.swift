extension RecordedLaneEvent {
    /// The most Unicode scalars in an event's lane, source, value or error: what a recorder
    /// sends (it cuts longer texts) and what the lab stores, so that everything made from a
    /// recording stays bounded.
    package static let longestText = 4_096

    /// The event as JSON text, with its keys sorted as the lab's encoder sorts them.
    ///
    /// Written by hand because a recorder writes every event it sends and the lab every event it
    /// stores: at hundreds of thousands a second, `JSONEncoder`'s reflection is most of the cost.
    /// `JSONDecoder` reads it back.
    package func appendJSON(to text: inout String) {
        text += "{"
        if let demand {
            text += #""demand":"#
            switch demand {
            case .max(let count): text += String(count)
            case .unlimited: text += #""unlimited""#
            }
            text += ","
        }
        if let error {
            text += #""error":"#
            appendJSONString(error, to: &text)
            text += ","
        }
        text += #""kind":""#
        text += kind.rawValue
        text += #"","lane":"#
        appendJSONString(lane, to: &text)
        text += #","source":"#
        appendJSONString(source, to: &text)
        text += #","subscription":"#
        text += String(subscription)
        // Swift writes a finite Double as the shortest text that reads back the same, which JSON takes.
        text += #","t":"#
        text += t.isFinite ? "\(t)" : "0"
        if let value {
            text += #","value":"#
            appendJSONString(value, to: &text)
        }
        text += "}"
    }

    /// The event as JSON text; see ``appendJSON(to:)``.
    package var json: String {
        var text = ""
        appendJSON(to: &text)
        return text
    }
}

extension RecordingIngestBatch {
    /// The batch as JSON text, written by hand for the reason ``RecordedLaneEvent/appendJSON(to:)`` is.
    package var json: String {
        var text = #"{"dropped":"#
        text.reserveCapacity(64 + events.count * 128)
        text += String(dropped)
        text += #","events":["#
        for (index, event) in events.enumerated() {
            if index > 0 { text += "," }
            event.appendJSON(to: &text)
        }
        text += #"],"first":"#
        text += String(first)
        text += #","type":"#
        appendJSONString(type, to: &text)
        text += "}"
        return text
    }
}

/// `string` as a JSON string literal: quoted, with quotes, backslashes and control characters
/// escaped; everything else as it is, since JSON text is UTF-8.
package func appendJSONString(_ string: String, to text: inout String) {
    text += "\""
    var plain = string.utf8.startIndex
    let utf8 = string.utf8
    var index = plain
    while index != utf8.endIndex {
        let byte = utf8[index]
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
            text += String(string[plain..<index])
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            default:
                let hex = String(byte, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            plain = utf8.index(after: index)
        }
        index = utf8.index(after: index)
    }
    text += String(string[plain..<utf8.endIndex])
    text += "\""
}
