public import Foundation

extension RecordingIngestBatch {
    /// Reads a batch from JSON text, as `JSONDecoder` does: the same texts are read, to the same
    /// batch, and the same are refused, with `JSONDecoder`'s errors.
    ///
    /// A lab reads every batch every recorder sends, so the forms a batch takes in practice —
    /// any order of keys, any whitespace, any escapes — are read by hand, several times faster;
    /// anything else (unknown keys, `null`, a key given twice, a number written as `1.0`) goes to
    /// `JSONDecoder`, which reads it or says what is wrong.
    public init(json: Data) throws {
        self = try LaneJSONReader.decode(json, byHand: Self.readByHand)
    }

    /// The batch in `json` when the reader by hand takes it; nil for `JSONDecoder` to decide.
    package static func readByHand(_ json: Data) -> Self? {
        LaneJSONReader.read(json) { reader throws(LaneJSONReader.Unread) in try reader.batch() }
    }
}

extension RecordedLaneEvent {
    /// Reads an event from JSON text, as `JSONDecoder` does; see
    /// ``RecordingIngestBatch/init(json:)``.
    public init(json: Data) throws {
        self = try LaneJSONReader.decode(json, byHand: Self.readByHand)
    }

    /// The event in `json` when the reader by hand takes it; nil for `JSONDecoder` to decide.
    package static func readByHand(_ json: Data) -> Self? {
        LaneJSONReader.read(json) { reader throws(LaneJSONReader.Unread) in try reader.event() }
    }
}

/// Reads the JSON of lane events and batches from bytes, for the forms whose reading is certain;
/// anything else is left unread (``Unread``), for `JSONDecoder`.
package struct LaneJSONReader: ~Copyable {
    /// The text is not one this reader takes; `JSONDecoder` is to read it.
    package struct Unread: Error {}

    private let bytes: UnsafeRawBufferPointer
    private var at = 0

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// What `read` makes of all of `json`; nil when it leaves it unread.
    static func read<Value>(_ json: Data, _ read: (inout LaneJSONReader) throws(Unread) -> Value) -> Value? {
        json.withUnsafeBytes { bytes in
            var reader = LaneJSONReader(bytes)
            return try? reader.whole(read)
        }
    }

    /// `json` read by hand, or else by `JSONDecoder`.
    static func decode<Value: Decodable>(_ json: Data, byHand: (Data) -> Value?) throws -> Value {
        if let value = byHand(json) { return value }
        return try JSONDecoder().decode(Value.self, from: json)
    }

    /// `read`'s value, when only whitespace follows it.
    package mutating func whole<Value>(
        _ read: (inout LaneJSONReader) throws(Unread) -> Value
    ) throws(Unread) -> Value {
        let value = try read(&self)
        skipSpace()
        guard at == bytes.count else { throw Unread() }
        return value
    }

    package mutating func batch() throws(Unread) -> RecordingIngestBatch {
        var type: String?
        var first: Int?
        var events: [RecordedLaneEvent]?
        var dropped: Int?
        try object { reader, key throws(Unread) in
            switch key {
            case .type where type == nil: type = try reader.string()
            case .first where first == nil: first = try reader.integer()
            case .dropped where dropped == nil: dropped = try reader.integer()
            case .events where events == nil:
                var read: [RecordedLaneEvent] = []
                try reader.array { reader throws(Unread) in read.append(try reader.event()) }
                events = read
            default: throw Unread()
            }
        }
        guard let type, let first, let events, let dropped else { throw Unread() }
        var batch = RecordingIngestBatch(first: first, events: events, dropped: dropped)
        batch.type = type
        return batch
    }

    package mutating func event() throws(Unread) -> RecordedLaneEvent {
        var lane: String?
        var subscription: Int?
        var kind: RecordedLaneEvent.Kind?
        var value: String?
        var error: String?
        var demand: RecordedDemand?
        var t: Double?
        var source: String?
        var structure: String?
        var cut: Bool?
        try object { reader, key throws(Unread) in
            switch key {
            case .lane where lane == nil: lane = try reader.string()
            case .subscription where subscription == nil: subscription = try reader.integer()
            case .kind where kind == nil:
                guard let read = RecordedLaneEvent.Kind(rawValue: try reader.string()) else { throw Unread() }
                kind = read
            case .value where value == nil: value = try reader.string()
            case .error where error == nil: error = try reader.string()
            case .demand where demand == nil: demand = try reader.demand()
            case .t where t == nil: t = try reader.double()
            case .source where source == nil: source = try reader.string()
            case .structure where structure == nil: structure = try reader.string()
            case .cut where cut == nil: cut = try reader.boolean()
            default: throw Unread()
            }
        }
        guard let lane, let subscription, let kind, let t, let source else { throw Unread() }
        return RecordedLaneEvent(
            lane: lane,
            subscription: subscription,
            kind: kind,
            value: value,
            error: error,
            demand: demand,
            t: t,
            source: source,
            structure: structure,
            cut: cut
        )
    }

    // MARK: Keys

    /// The keys of events and batches; any other key is left to `JSONDecoder`.
    package enum Key {
        case lane, subscription, kind, value, error, demand, t, source, structure, cut
        case type, first, events, dropped

        private static let spelled: [([UInt8], Key)] = [
            (Array("lane".utf8), .lane), (Array("subscription".utf8), .subscription),
            (Array("kind".utf8), .kind), (Array("value".utf8), .value), (Array("error".utf8), .error),
            (Array("demand".utf8), .demand), (Array("t".utf8), .t), (Array("source".utf8), .source),
            (Array("type".utf8), .type), (Array("first".utf8), .first), (Array("events".utf8), .events),
            (Array("dropped".utf8), .dropped), (Array("structure".utf8), .structure),
            (Array("cut".utf8), .cut),
        ]

        static func named(_ name: UnsafeRawBufferPointer) -> Key? {
            for (spelling, key) in spelled where spelling.elementsEqual(name) { return key }
            return nil
        }
    }

    // MARK: Values

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    /// Skips whitespace, then takes `byte` when it comes next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }

    private mutating func expect(_ byte: UInt8) throws(Unread) {
        guard take(byte) else { throw Unread() }
    }

    /// An object's members, each key read and its value left to `member`.
    private mutating func object(
        _ member: (inout LaneJSONReader, Key) throws(Unread) -> Void
    ) throws(Unread) {
        try expect(UInt8(ascii: "{"))
        if take(UInt8(ascii: "}")) { return }
        repeat {
            try expect(Self.quote)
            let start = at
            // A key with an escape in it is left to JSONDecoder.
            while at < bytes.count, bytes[at] != Self.quote, bytes[at] != Self.backslash { at += 1 }
            guard at < bytes.count, bytes[at] == Self.quote,
                let key = Key.named(UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
            else { throw Unread() }
            at += 1
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    private mutating func array(_ element: (inout LaneJSONReader) throws(Unread) -> Void) throws(Unread) {
        try expect(UInt8(ascii: "["))
        if take(UInt8(ascii: "]")) { return }
        repeat {
            try element(&self)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    private mutating func boolean() throws(Unread) -> Bool {
        skipSpace()
        for (spelling, value) in [(Array("true".utf8), true), (Array("false".utf8), false)]
        where bytes.count - at >= spelling.count
            && spelling.elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + spelling.count)]))
        {
            at += spelling.count
            return value
        }
        throw Unread()
    }

    private mutating func string() throws(Unread) -> String {
        try expect(Self.quote)
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == Self.quote {
                let text = Self.text(UnsafeRawBufferPointer(rebasing: bytes[start..<at]))
                at += 1
                guard let text else { throw Unread() }
                return text
            }
            if byte == Self.backslash { break }
            guard byte >= 0x20 else { throw Unread() }
            at += 1
        }
        var text = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case Self.quote:
                guard let read = text.withUnsafeBytes(Self.text) else { throw Unread() }
                return read
            case Self.backslash:
                guard at < bytes.count else { throw Unread() }
                let escaped = bytes[at]
                at += 1
                switch escaped {
                case Self.quote, Self.backslash, UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"): text.append(contentsOf: try escapedScalar())
                default: throw Unread()
                }
            default:
                guard byte >= 0x20 else { throw Unread() }
                text.append(byte)
            }
        }
        throw Unread()
    }

    /// `utf8` as a string; nil when it is not valid UTF-8, which JSONDecoder refuses.
    private static func text(_ utf8: UnsafeRawBufferPointer) -> String? {
        let units = utf8.assumingMemoryBound(to: UInt8.self)
        // ASCII, most text by far, is valid as it is.
        guard units.contains(where: { $0 >= 0x80 }) else { return String(decoding: units, as: UTF8.self) }
        return String(validating: units, as: UTF8.self)
    }

    /// The scalar of a `\u` escape whose `\u` has been read: one unit, or a surrogate pair. A
    /// lone surrogate is left to JSONDecoder.
    private mutating func escapedScalar() throws(Unread) -> Unicode.Scalar.UTF8View {
        let unit = try hexUnit()
        var value = unit
        if (0xD800..<0xDC00).contains(unit) {
            guard at + 1 < bytes.count, bytes[at] == Self.backslash, bytes[at + 1] == UInt8(ascii: "u")
            else { throw Unread() }
            at += 2
            let low = try hexUnit()
            guard (0xDC00..<0xE000).contains(low) else { throw Unread() }
            value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw Unread() }
        return scalar.utf8
    }

    private mutating func hexUnit() throws(Unread) -> UInt32 {
        guard at + 4 <= bytes.count else { throw Unread() }
        var unit: UInt32 = 0
        for byte in bytes[at..<(at + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Unread()
            }
            unit = unit << 4 | UInt32(digit)
        }
        at += 4
        return unit
    }

    /// An integer written as one: `-`, then digits without a leading zero, fitting an `Int`.
    private mutating func integer() throws(Unread) -> Int {
        skipSpace()
        let negative = at < bytes.count && bytes[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        let start = at
        var magnitude: UInt64 = 0
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[at] - UInt8(ascii: "0")))
            guard !overflow, !carry else { throw Unread() }
            magnitude = sum
            at += 1
        }
        let digits = at - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { throw Unread() }
        // A fraction or an exponent is left to JSONDecoder.
        if at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): throw Unread()
            default: break
            }
        }
        guard magnitude <= UInt64(Int.max) else { throw Unread() }
        return negative ? -Int(magnitude) : Int(magnitude)
    }

    /// A number, as JSON writes them, that a `Double` holds without rounding to infinity.
    private mutating func double() throws(Unread) -> Double {
        skipSpace()
        let start = at
        func digits(_ at: inout Int, _ bytes: UnsafeRawBufferPointer) -> Int {
            let first = at
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
            return at - first
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        let whole = at
        guard digits(&at, bytes) > 0, at - whole == 1 || bytes[whole] != UInt8(ascii: "0") else {
            throw Unread()
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digits(&at, bytes) > 0 else { throw Unread() }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits(&at, bytes) > 0 else { throw Unread() }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Unread() }
        // JSONDecoder refuses numbers past a Double's range at either end, where Double(_:)
        // rounds to zero or to the largest; at the edges, only the text Swift writes is read here.
        if value == 0 {
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            guard mantissa.allSatisfy({ $0 == "0" || $0 == "." || $0 == "-" }) else { throw Unread() }
        } else if value.isSubnormal || value.magnitude == .greatestFiniteMagnitude {
            guard text == "\(value)" else { throw Unread() }
        }
        return value
    }

    private mutating func demand() throws(Unread) -> RecordedDemand {
        skipSpace()
        guard at < bytes.count else { throw Unread() }
        if bytes[at] == Self.quote {
            guard try string() == "unlimited" else { throw Unread() }
            return .unlimited
        }
        let count = try integer()
        guard count >= 0 else { throw Unread() }
        return .max(count)
    }
}
