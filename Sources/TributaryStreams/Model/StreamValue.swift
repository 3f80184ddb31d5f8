/// A value that flows through a stream document: an integer, a decimal, a string, a boolean,
/// or the list `zip` and `combineLatest` make of their inputs' values.
///
/// Values are dynamic so that an operator such as `map` may change their type. In JSON they
/// are the plain literals: `3`, `2.5`, `"text"`, `true`.
public enum StreamValue: Sendable, Hashable {
    /// A whole number, `3` in JSON.
    case integer(Int)
    /// A decimal number, `2.5` in JSON.
    case decimal(Double)
    /// Text, `"text"` in JSON.
    case string(String)
    /// A truth value, `true` or `false` in JSON.
    case boolean(Bool)
    /// A list of values, as `zip` and `combineLatest` make of their inputs' values; an array in JSON.
    case list([StreamValue])

    /// The name of the value's type, as errors show it.
    public var typeName: String {
        switch self {
        case .integer: "integer"
        case .decimal: "decimal"
        case .string: "string"
        case .boolean: "boolean"
        case .list: "list"
        }
    }

    /// ``typeName`` with its article, for messages: `an integer`, `a string`.
    public var typeNameWithArticle: String {
        (typeName.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + typeName
    }
}

extension StreamValue {
    /// The most lists a value may nest, one in another: `[[1]]` nests two. Decoding refuses a
    /// deeper value, and a `zip` or `combineLatest` that would make one fails, so that nothing
    /// that walks a value — printing, encoding, comparing it — recurses deeper than this.
    public static let maximumDepth = 32

    /// How many lists the value nests, one in another: 0 for a value that is not a list, 1 for
    /// `[1, 2]`, 2 for `[[1], 2]`; worked out without recursion.
    public var depth: Int {
        var deepest = 0
        var waiting: [(value: StreamValue, level: Int)] = [(self, 0)]
        while let (value, level) = waiting.popLast() {
            guard case .list(let values) = value else { continue }
            deepest = max(deepest, level + 1)
            for element in values { waiting.append((element, level + 1)) }
        }
        return deepest
    }

    /// `values` as a list, unless it would nest more than ``maximumDepth`` lists.
    static func joined(_ values: [StreamValue], node: String) throws(StreamFailure) -> StreamValue {
        let list = StreamValue.list(values)
        guard values.allSatisfy({ $0.depth < maximumDepth }) else {
            throw StreamFailure(
                origin: node,
                message: "the list would nest more than \(maximumDepth) lists, one in another"
            )
        }
        return list
    }

    /// The UTF-8 length of ``description``, worked out without writing a list or a string
    /// out: what holding the value as text costs.
    public var byteCount: Int {
        switch self {
        case .integer, .decimal, .boolean: description.utf8.count
        case .string(let value): value.utf8.count
        case .list(let values): values.reduce(2 + 2 * max(values.count - 1, 0)) { $0 + $1.byteCount }
        }
    }
}

extension StreamValue: CustomStringConvertible {
    /// The value as marbles and expressions write it: strings without quotes.
    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .decimal(let value): Self.format(value)
        case .string(let value): value
        case .boolean(let value): String(value)
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        }
    }

    private static func format(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int(value)) + ".0"
        }
        return String(value)
    }
}

extension StreamValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Whether it is a list is asked first, without reading its elements: a failed attempt
        // to read a scalar costs as much as the value it describes, so trying scalars first on
        // a nested list would cost its size at every level of it.
        if (try? container.decode([ListProbe].self)) != nil {
            let depth = decoder.codingPath.reversed().prefix { $0.intValue != nil }.count
            guard depth < Self.maximumDepth else { throw ListProbe.tooDeep(in: container) }
            self = .list(try container.decode([StreamValue].self))
            return
        }
        if let boolean = try? container.decode(Bool.self) {
            self = .boolean(boolean)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let decimal = try? container.decode(Double.self) {
            self = .decimal(decimal)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected an integer, a decimal, a string, a boolean or a list."
            )
        }
    }

    /// What stands in for the elements of a list nested too deep: it reads nothing, so that a
    /// list is told from a scalar without anything inside it being read.
    private struct ListProbe: Decodable {
        init(from decoder: any Decoder) {}

        static func tooDeep(in container: any SingleValueDecodingContainer) -> DecodingError {
            DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "A value nests more than \(StreamValue.maximumDepth) lists, one in another."
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        case .list(let values): try container.encode(values)
        }
    }
}

extension StreamValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .decimal(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}
