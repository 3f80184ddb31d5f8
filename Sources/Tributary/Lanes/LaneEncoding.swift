import Foundation

/// How a lane keeps a value's structure beside its description: as JSON, up to a size.
///
/// ```swift
/// Observed { model.state }
///     .lane("state", encoding: .json)            // each state as JSON, up to 16 KiB
/// results.lane("results", encoding: .json(limit: 4_096))
/// ```
///
/// A value is written as `JSONEncoder` writes it with its default strategies, keys in the order
/// the value encodes them, except where a debugger's reader is better served: a `Date` is its ISO
/// 8601 text (`"2026-11-27T09:41:00.250Z"`), `Data` its Base64 text, a `URL` its absolute text,
/// and a number that is not finite the text `"NaN"`, `"Infinity"` or `"-Infinity"`. A value whose
/// JSON takes more than `limit` bytes, nests more than ``maximumDepth`` levels (a cycle of
/// references does), or cannot be encoded is kept as its description alone and marked
/// ``LaneEvent/Structure/cut``.
public struct LaneEncoding: Sendable, Hashable {
    /// The most bytes of JSON a value may take.
    public var limit: Int

    /// The most levels of arrays and objects a value's JSON may nest.
    public static let maximumDepth = 32

    /// The most bytes the lab keeps of one value's JSON; ``json`` keeps as much.
    public static let labLimit = 16_384

    /// Values as JSON, up to ``labLimit`` bytes.
    public static let json = LaneEncoding(limit: labLimit)

    /// Values as JSON, up to `limit` bytes.
    public static func json(limit: Int) -> LaneEncoding {
        LaneEncoding(limit: max(limit, 0))
    }

    /// The structure of `value`: its JSON, or `cut` when it is over the limits.
    public func structure<Value: Encodable>(of value: Value) -> LaneEvent.Structure {
        // The values lanes carry most, written without an encoder: an integer's or a flag's
        // JSON is its description, a string's its quoted text.
        if let text = Self.scalarJSON(value) {
            return text.utf8.count <= limit ? .json(text) : .cut
        }
        let writer = LaneJSONWriter(limit: limit)
        do {
            try writer.encode(value)
        } catch {
            return .cut
        }
        return .json(String(decoding: writer.bytes, as: UTF8.self))
    }
}

extension LaneEncoding {
    /// Whether a value of `type` is written in JSON as its `description` is: an integer (at
    /// most 20 characters) or a flag.
    static func describesAsJSON(_ type: Any.Type) -> Bool {
        type == Int.self || type == Bool.self || type == Int64.self || type == Int32.self
            || type == Int16.self
            || type == Int8.self || type == UInt.self || type == UInt64.self || type == UInt32.self
            || type == UInt16.self || type == UInt8.self
    }

    /// The JSON of an `Int`, `Bool` or `String`; nil for any other type. The type is compared,
    /// not cast, so that other values pay one comparison a type.
    static func scalarJSON<Value>(_ value: Value) -> String? {
        if Value.self == Int.self {
            return withUnsafePointer(to: value) {
                $0.withMemoryRebound(to: Int.self, capacity: 1) { String($0.pointee) }
            }
        }
        if Value.self == Bool.self {
            return withUnsafePointer(to: value) {
                $0.withMemoryRebound(to: Bool.self, capacity: 1) { $0.pointee ? "true" : "false" }
            }
        }
        if Value.self == String.self {
            return withUnsafePointer(to: value) {
                $0.withMemoryRebound(to: String.self, capacity: 1) { pointer in
                    var bytes: [UInt8] = []
                    bytes.reserveCapacity(pointer.pointee.utf8.count + 2)
                    appendJSONString(pointer.pointee, to: &bytes)
                    return String(decoding: bytes, as: UTF8.self)
                }
            }
        }
        return nil
    }
}

/// Writes an `Encodable` value's JSON as it encodes, straight into bytes.
///
/// `JSONEncoder` builds a tree of the value and then writes it; a lane writes values as they
/// pass, so this writer skips the tree. A container is closed when the encoding moves on past
/// it: when a container of its parent is written to again, or when the `encode(to:)` that opened
/// it returns. A value that writes to a container after that (which synthesised and ordinary
/// hand-written conformances never do) cannot be written this way, and is handed whole to
/// `JSONEncoder` instead.
final class LaneJSONWriter {
    /// Why a value's JSON was not written.
    enum Stop: Error {
        /// Over the byte limit or the depth limit, or not encodable at all: a value that throws,
        /// or one that writes two values in one place, which `JSONEncoder` stops the process for.
        case cut
        /// Written out of order; `JSONEncoder` is to write it.
        case outOfOrder
    }

    /// An open array or object.
    struct Frame {
        var closer: UInt8
        var isEmpty: Bool
        var serial: Int
    }

    var bytes: [UInt8] = []
    let limit: Int
    /// What went wrong where a container could not say so, as `nestedContainer` cannot throw.
    var failure: Stop?
    private(set) var frames: [Frame] = []
    /// Whether the place being written has its value: after a value, a container's opening or
    /// closing, until a key or a comma begins the next place.
    private var filled = false
    private var calls = 0
    private var serials = 0

    init(limit: Int) {
        self.limit = limit
        bytes.reserveCapacity(min(limit, 256))
    }

    func encode(_ value: some Encodable) throws(Stop) {
        do {
            try encodeRethrowing(value)
        } catch Stop.outOfOrder {
            try encodeWithFoundation(value)
        }
    }

    private func encodeRethrowing(_ value: some Encodable) throws(Stop) {
        do {
            try write(value, depth: 0)
            close(above: 0)
        } catch {
            // A value found cut where a container could not throw is cut, whatever followed.
            throw failure == .cut ? .cut : (error as? Stop ?? .cut)
        }
        if let failure { throw failure }
    }

    /// `value` by `JSONEncoder`, for the rare value this writer cannot write in order.
    private func encodeWithFoundation(_ value: some Encodable) throws(Stop) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity",
            negativeInfinity: "-Infinity",
            nan: "NaN"
        )
        guard let data = try? encoder.encode(value), data.count <= limit,
            !JSONNesting.exceeds(data, limit: LaneEncoding.maximumDepth)
        else { throw .cut }
        bytes = Array(data)
        frames = []
        filled = true
        failure = nil
    }

    // MARK: Writing

    /// Writes `value` as the value at `depth` (the number of containers around it).
    func write<T: Encodable>(_ value: T, depth: Int) throws {
        // A value may hand itself on through single-value containers without going deeper, so
        // the calls are counted as well as the levels.
        calls += 1
        defer { calls -= 1 }
        guard depth <= LaneEncoding.maximumDepth, calls <= 4 * LaneEncoding.maximumDepth else {
            throw Stop.cut
        }
        // Compared as types first: a cast is tried only where it will succeed.
        if T.self == Date.self, let date = value as? Date {
            try string(Self.iso8601(date))
        } else if T.self == Data.self, let data = value as? Data {
            try string(data.base64EncodedString())
        } else if T.self == URL.self, let url = value as? URL {
            try string(url.absoluteString)
        } else if T.self == Decimal.self, let decimal = value as? Decimal {
            try decimal.isNaN ? string("NaN") : raw(decimal.description)
        } else {
            let start = bytes.count
            try value.encode(to: LaneJSONEncoder(writer: self, depth: depth))
            close(above: depth)
            // A value that encoded nothing is an empty object, as `JSONEncoder` writes it.
            if bytes.count == start { try raw("{}") }
        }
    }

    private static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Closes every container opened at `depth` or deeper.
    func close(above depth: Int) {
        while frames.count > depth {
            bytes.append(frames.removeLast().closer)
            filled = true
        }
    }

    /// Opens an array or object as the value at `depth`; answers its serial, by which its
    /// container checks that it is still open.
    func open(_ opener: UInt8, _ closer: UInt8, depth: Int) throws -> Int {
        guard depth >= 0 else { throw Stop.outOfOrder }
        if frames.count > depth {
            // The value asked again for the container it has: the same one, continued (as a
            // subclass's encoding and its superclass's share one). A container of another kind
            // in the same place is two values in one.
            guard frames[depth].closer == closer else { throw Stop.cut }
            return frames[depth].serial
        }
        guard frames.count == depth else { throw Stop.outOfOrder }
        guard depth < LaneEncoding.maximumDepth, !filled else { throw Stop.cut }
        try append(opener)
        filled = true
        serials += 1
        frames.append(Frame(closer: closer, isEmpty: true, serial: serials))
        return serials
    }

    /// Readies the container at `depth` (serial `serial`) for its next member: closes what is
    /// open inside it, and writes the comma.
    func member(depth: Int, serial: Int) throws {
        guard frames.count > depth, frames[depth].serial == serial else { throw Stop.outOfOrder }
        close(above: depth + 1)
        if frames[depth].isEmpty {
            frames[depth].isEmpty = false
        } else {
            try append(UInt8(ascii: ","))
        }
        filled = false
    }

    func key(_ key: some CodingKey) throws {
        appendJSONString(key.stringValue, to: &bytes)
        try append(UInt8(ascii: ":"))
    }

    func append(_ byte: UInt8) throws {
        guard bytes.count < limit else { throw Stop.cut }
        bytes.append(byte)
    }

    /// Writes a value's JSON text as it is.
    func raw(_ text: String) throws {
        guard !filled else { throw Stop.cut }
        var text = text
        try text.withUTF8 { utf8 in
            guard bytes.count + utf8.count <= limit else { throw Stop.cut }
            bytes.append(contentsOf: utf8)
        }
        filled = true
    }

    func string(_ text: String) throws {
        guard !filled else { throw Stop.cut }
        appendJSONString(text, to: &bytes)
        guard bytes.count <= limit else { throw Stop.cut }
        filled = true
    }

    func number(_ value: some BinaryFloatingPoint & LosslessStringConvertible) throws {
        guard value.isFinite else {
            return try string(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity")
        }
        try raw(value.description)
    }

    func number(_ value: some BinaryInteger & LosslessStringConvertible) throws {
        try raw(value.description)
    }

    func bool(_ value: Bool) throws {
        try raw(value ? "true" : "false")
    }
}

/// The `Encoder` a value writes itself to, at one depth of a ``LaneJSONWriter``.
struct LaneJSONEncoder: Encoder {
    let writer: LaneJSONWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(LaneJSONObject<Key>(writer: writer, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        LaneJSONArray(writer: writer, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        LaneJSONSingle(writer: writer, depth: depth)
    }
}

/// An object being written. It opens on its first member, so that a value asking for the
/// container and writing nothing is written `{}` by ``LaneJSONWriter/value(_:depth:)``.
struct LaneJSONObject<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: LaneJSONWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    private var serial: Int?

    /// An object that opens on its first member, or at once when `now` (a nested container,
    /// whose key is written already).
    init(writer: LaneJSONWriter, depth: Int, now: Bool = false) {
        self.writer = writer
        self.depth = depth
        if now {
            do {
                serial = try writer.open(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth)
            } catch {
                writer.failure = writer.failure ?? (error as? LaneJSONWriter.Stop ?? .outOfOrder)
            }
        }
    }

    private mutating func member(_ key: Key) throws {
        if serial == nil {
            serial = try writer.open(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth)
        }
        try writer.member(depth: depth, serial: serial ?? 0)
        try writer.key(key)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try member(key)
        try writer.raw("null")
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try member(key)
        try writer.bool(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try member(key)
        try writer.string(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try member(key)
        try writer.number(value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try member(key)
        try writer.write(value, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        nested(key)
        return KeyedEncodingContainer(LaneJSONObject<NestedKey>(writer: writer, depth: depth + 1, now: true))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nested(key)
        return LaneJSONArray(writer: writer, depth: depth + 1)
    }

    /// Writes `key` for a nested container, keeping what went wrong for the end.
    private mutating func nested(_ key: Key) {
        do {
            try member(key)
        } catch {
            writer.failure = writer.failure ?? (error as? LaneJSONWriter.Stop ?? .outOfOrder)
        }
    }

    mutating func superEncoder() -> any Encoder { LaneJSONEncoder(writer: writer, depth: -1) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { LaneJSONEncoder(writer: writer, depth: -1) }
}

/// An array being written; it opens when it is asked for.
struct LaneJSONArray: UnkeyedEncodingContainer {
    let writer: LaneJSONWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0
    private let serial: Int?

    init(writer: LaneJSONWriter, depth: Int) {
        self.writer = writer
        self.depth = depth
        do {
            serial = try writer.open(UInt8(ascii: "["), UInt8(ascii: "]"), depth: depth)
        } catch {
            serial = nil
            writer.failure = writer.failure ?? (error as? LaneJSONWriter.Stop ?? .outOfOrder)
        }
    }

    private mutating func element() throws {
        guard let serial else { throw LaneJSONWriter.Stop.outOfOrder }
        try writer.member(depth: depth, serial: serial)
        count += 1
    }

    mutating func encodeNil() throws {
        try element()
        try writer.raw("null")
    }
    mutating func encode(_ value: Bool) throws {
        try element()
        try writer.bool(value)
    }
    mutating func encode(_ value: String) throws {
        try element()
        try writer.string(value)
    }
    mutating func encode(_ value: Double) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: Float) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: Int) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: Int8) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: Int16) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: Int32) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: Int64) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt8) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt16) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt32) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt64) throws {
        try element()
        try writer.number(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try element()
        try writer.write(value, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        nested()
        return KeyedEncodingContainer(LaneJSONObject<NestedKey>(writer: writer, depth: depth + 1, now: true))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nested()
        return LaneJSONArray(writer: writer, depth: depth + 1)
    }

    /// Readies the place of a nested container, keeping what went wrong for the end.
    private mutating func nested() {
        do {
            try element()
        } catch {
            writer.failure = writer.failure ?? (error as? LaneJSONWriter.Stop ?? .outOfOrder)
        }
    }

    mutating func superEncoder() -> any Encoder { LaneJSONEncoder(writer: writer, depth: -1) }
}

/// A single value being written.
struct LaneJSONSingle: SingleValueEncodingContainer {
    let writer: LaneJSONWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    /// A single value is written once, where nothing is open inside its place: after a
    /// container in its place, it is a second value there.
    private func place() throws {
        guard writer.frames.count <= depth else { throw LaneJSONWriter.Stop.cut }
        guard depth >= 0, writer.frames.count == depth else { throw LaneJSONWriter.Stop.outOfOrder }
    }

    mutating func encodeNil() throws {
        try place()
        try writer.raw("null")
    }
    mutating func encode(_ value: Bool) throws {
        try place()
        try writer.bool(value)
    }
    mutating func encode(_ value: String) throws {
        try place()
        try writer.string(value)
    }
    mutating func encode(_ value: Double) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: Float) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: Int) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: Int8) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: Int16) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: Int32) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: Int64) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt8) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt16) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt32) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode(_ value: UInt64) throws {
        try place()
        try writer.number(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try place()
        try writer.write(value, depth: depth)
    }
}

/// `string` as a JSON string literal: quoted, with quotes, backslashes and control characters
/// escaped; everything else as it is, since JSON text is UTF-8.
package func appendJSONString(_ string: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
        var plain = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain..<index]))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            default:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0xF)])
            }
            plain = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain...]))
    }
    bytes.append(UInt8(ascii: "\""))
}
