import Tributary

extension RecordedLaneEvent {
    /// The most Unicode scalars in an event's lane, source, value or error: what a recorder
    /// sends (it cuts longer texts) and what the lab stores, so that everything made from a
    /// recording stays bounded.
    package static let longestText = 4_096

    /// The event as JSON text, with its keys sorted as the lab's encoder sorts them.
    ///
    /// Written by hand, as bytes, because a recorder writes every event it sends and the lab
    /// every event it stores: at hundreds of thousands a second, `JSONEncoder`'s reflection, and
    /// even appending to a `String` piece by piece, were most of the cost. Read back by
    /// ``init(json:)`` (or `JSONDecoder`).
    package func appendJSON(to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        if cut == true { bytes.append(contentsOf: #""cut":true,"#.utf8) }
        if let demand {
            bytes.append(contentsOf: #""demand":"#.utf8)
            switch demand {
            case .max(let count): bytes.append(contentsOf: String(count).utf8)
            case .unlimited: bytes.append(contentsOf: #""unlimited""#.utf8)
            }
            bytes.append(UInt8(ascii: ","))
        }
        if let error {
            bytes.append(contentsOf: #""error":"#.utf8)
            appendJSONString(error, to: &bytes)
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(contentsOf: #""kind":""#.utf8)
        bytes.append(contentsOf: kind.rawValue.utf8)
        bytes.append(contentsOf: #"","lane":"#.utf8)
        appendJSONString(lane, to: &bytes)
        bytes.append(contentsOf: #","source":"#.utf8)
        appendJSONString(source, to: &bytes)
        if let structure {
            bytes.append(contentsOf: #","structure":"#.utf8)
            appendJSONString(structure, to: &bytes)
        }
        bytes.append(contentsOf: #","subscription":"#.utf8)
        bytes.append(contentsOf: String(subscription).utf8)
        // Swift writes a finite Double as the shortest text that reads back the same, which JSON takes.
        bytes.append(contentsOf: #","t":"#.utf8)
        bytes.append(contentsOf: (t.isFinite ? t.description : "0").utf8)
        if let value {
            bytes.append(contentsOf: #","value":"#.utf8)
            appendJSONString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The event as JSON text; see ``appendJSON(to:)``.
    package var json: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + (value?.utf8.count ?? 0) + (structure?.utf8.count ?? 0))
        appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension RecordingIngestBatch {
    /// The batch as JSON text, written by hand for the reason ``RecordedLaneEvent/appendJSON(to:)`` is.
    package var json: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + events.count * 128)
        bytes.append(contentsOf: #"{"dropped":"#.utf8)
        bytes.append(contentsOf: String(dropped).utf8)
        bytes.append(contentsOf: #","events":["#.utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            event.appendJSON(to: &bytes)
        }
        bytes.append(contentsOf: #"],"first":"#.utf8)
        bytes.append(contentsOf: String(first).utf8)
        bytes.append(contentsOf: #","type":"#.utf8)
        appendJSONString(type, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
