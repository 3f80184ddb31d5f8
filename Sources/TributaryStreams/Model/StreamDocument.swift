public import Foundation

/// Streams and a pipeline of operators over them, as data: JSON that a person can read and
/// edit, store and send, and that turns back into real publishers.
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "name": "Doubled",
///   "streams": [
///     {"id": "numbers", "items": [
///       {"value": 1, "operators": [{"operator": "delay", "seconds": 1}]},
///       {"value": 2, "operators": [{"operator": "delay", "seconds": 1}]}]}
///   ],
///   "nodes": [
///     {"id": "doubled", "operator": "map", "input": "numbers", "expression": "$0 * 2"}
///   ]
/// }
/// ```
///
/// Decoding checks everything: the schema version, operator names and their parameters,
/// expressions, that ids are unique, that every reference names a stream or node, and that
/// nodes do not refer to each other in a circle. Each problem is a ``StreamError`` with the
/// JSON path of its cause.
public struct StreamDocument: Sendable, Hashable, Codable {
    /// The schema version this library reads and writes.
    public static let schemaVersion = 1

    public var name: String?
    public var description: String?
    /// The input streams.
    public var streams: [StreamDefinition]
    /// The operators, each referring to streams and other nodes by id.
    public var nodes: [StreamNode]

    /// Creates a document, checking its references.
    public init(
        name: String? = nil,
        description: String? = nil,
        streams: [StreamDefinition],
        nodes: [StreamNode] = []
    ) throws(StreamError) {
        self.name = name
        self.description = description
        self.streams = streams
        self.nodes = nodes
        try validate()
    }

    /// Reads a document from JSON.
    public static func decode(_ data: Data) throws(StreamError) -> StreamDocument {
        do {
            return try JSONDecoder().decode(StreamDocument.self, from: data)
        } catch let error as StreamError {
            throw error
        } catch let DecodingError.dataCorrupted(context) {
            throw StreamError(.malformed(Self.reason(context)), path: StreamError.path(context.codingPath))
        } catch let DecodingError.keyNotFound(key, context) {
            throw StreamError(.missingField(key.stringValue), path: StreamError.path(context.codingPath))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw StreamError(.badValue(Self.reason(context)), path: StreamError.path(context.codingPath))
        } catch {
            throw StreamError(.malformed("\(error)"), path: "$")
        }
    }

    /// The document as indented JSON with sorted keys.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    private static func reason(_ context: DecodingError.Context) -> String {
        let text = context.debugDescription
        if let underlying = context.underlyingError as? StreamError { return underlying.description }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// The stream or node with `id`.
    public func element(_ id: String) -> Element? {
        if let stream = streams.first(where: { $0.id == id }) { return .stream(stream) }
        return nodes.first { $0.id == id }.map(Element.node)
    }

    /// A stream or a node.
    public enum Element: Sendable, Hashable {
        case stream(StreamDefinition)
        case node(StreamNode)
    }

    /// Every id, streams first, in document order.
    public var ids: [String] { streams.map(\.id) + nodes.map(\.id) }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, name, description, streams, nodes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .schemaVersion)
        guard version == Self.schemaVersion else {
            throw StreamError(
                .unsupportedSchemaVersion(version),
                path: StreamError.path(container.codingPath + [CodingKeys.schemaVersion])
            )
        }
        name = try container.decodeIfPresent(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        streams = try container.decode([StreamDefinition].self, forKey: .streams)
        nodes = try container.decodeIfPresent([StreamNode].self, forKey: .nodes) ?? []
        try validate()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schemaVersion, forKey: .schemaVersion)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode(streams, forKey: .streams)
        try container.encode(nodes, forKey: .nodes)
    }

    // MARK: Validation

    private func validate() throws(StreamError) {
        var seen: [String: String] = [:]
        let places =
            streams.indices.map { ("$.streams[\($0)].id", streams[$0].id) }
            + nodes.indices.map { ("$.nodes[\($0)].id", nodes[$0].id) }
        for (path, id) in places {
            guard seen[id] == nil else { throw StreamError(.duplicateID(id), path: path) }
            seen[id] = path
        }
        let nodeIndex = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1.id, $0) })
        for (index, node) in nodes.enumerated() {
            for (position, input) in node.inputs.enumerated() where seen[input] == nil {
                let field = node.operator.joins ? "inputs[\(position)]" : "input"
                throw StreamError(.danglingReference(input), path: "$.nodes[\(index)].\(field)")
            }
        }
        // Depth-first search for a node that leads back to itself.
        var state = [Int](repeating: 0, count: nodes.count)  // 0 new, 1 on the path, 2 done
        var path: [Int] = []
        func visit(_ index: Int) throws(StreamError) {
            state[index] = 1
            path.append(index)
            for input in nodes[index].inputs {
                guard let next = nodeIndex[input] else { continue }
                if state[next] == 1 {
                    let circle = path.drop { $0 != next }.map { nodes[$0].id } + [input]
                    throw StreamError(.cycle(circle), path: "$.nodes[\(next)]")
                }
                if state[next] == 0 { try visit(next) }
            }
            path.removeLast()
            state[index] = 2
        }
        for index in nodes.indices where state[index] == 0 {
            try visit(index)
        }
    }
}

/// An input stream: items emitted one after another, then an ending.
public struct StreamDefinition: Sendable, Hashable, Codable {
    public var id: String
    public var name: String?
    public var description: String?
    public var items: [StreamItem]
    /// What follows the last item.
    public var ending: Ending

    /// How a stream ends, after its last item.
    public enum Ending: Sendable, Hashable, Codable {
        /// Finishes `after` seconds.
        case finished(after: Double)
        /// Fails `after` seconds, with `message`.
        case failed(after: Double, message: String)
        /// Never ends.
        case never

        private enum CodingKeys: String, CodingKey {
            case kind, after, message
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let kind = try container.decode(String.self, forKey: .kind)
            switch kind {
            case "finished":
                self = .finished(after: try container.decodeIfPresent(Double.self, forKey: .after) ?? 0)
            case "failed":
                self = .failed(
                    after: try container.decodeIfPresent(Double.self, forKey: .after) ?? 0,
                    message: try container.decodeIfPresent(String.self, forKey: .message) ?? "failed"
                )
            case "never": self = .never
            default:
                throw StreamError(
                    .badValue("an ending is finished, failed or never, not \"\(kind)\""),
                    path: StreamError.path(container.codingPath + [CodingKeys.kind])
                )
            }
            if case .finished(let after) = self, !(after.isFinite && after >= 0) {
                throw StreamError(
                    .badValue("a wait cannot be \(after)"),
                    path: StreamError.path(container.codingPath)
                )
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .finished(let after):
                try container.encode("finished", forKey: .kind)
                try container.encode(after, forKey: .after)
            case .failed(let after, let message):
                try container.encode("failed", forKey: .kind)
                try container.encode(after, forKey: .after)
                try container.encode(message, forKey: .message)
            case .never:
                try container.encode("never", forKey: .kind)
            }
        }
    }

    public init(
        id: String,
        name: String? = nil,
        description: String? = nil,
        items: [StreamItem],
        ending: Ending = .finished(after: 0)
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.items = items
        self.ending = ending
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, description, items, ending
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        items = try container.decode([StreamItem].self, forKey: .items)
        ending = try container.decodeIfPresent(Ending.self, forKey: .ending) ?? .finished(after: 0)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode(items, forKey: .items)
        if ending != .finished(after: 0) { try container.encode(ending, forKey: .ending) }
    }

    /// `values`, `spacing` seconds apart, the first after `spacing` too: "1, 2, 3, 4, one
    /// second apart".
    public static func series(_ id: String, _ values: [StreamValue], spacing: Double = 1) -> StreamDefinition
    {
        StreamDefinition(id: id, items: values.map { StreamItem($0, delay: spacing) })
    }
}

/// One value of a stream and the item operators that decide when it is emitted.
public struct StreamItem: Sendable, Hashable, Codable {
    public var value: StreamValue
    public var operators: [ItemOperator]

    public init(_ value: StreamValue, delay: Double = 0) {
        self.value = value
        operators = delay > 0 ? [.delay(seconds: delay)] : []
    }

    /// The wait before this item, after the one before it.
    public var delay: Double {
        operators.reduce(0) { total, item in
            switch item {
            case .delay(let seconds): total + seconds
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case value, operators
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(StreamValue.self, forKey: .value)
        operators = try container.decodeIfPresent([ItemOperator].self, forKey: .operators) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        if !operators.isEmpty { try container.encode(operators, forKey: .operators) }
    }
}

/// What decides when an item is emitted.
public enum ItemOperator: Sendable, Hashable, Codable {
    /// Waits `seconds` after the item before.
    case delay(seconds: Double)

    private enum CodingKeys: String, CodingKey {
        case `operator`, seconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .operator)
        guard name == "delay" else {
            throw StreamError(
                .unknownOperator(name),
                path: StreamError.path(container.codingPath + [CodingKeys.operator])
            )
        }
        self = .delay(seconds: try container.seconds(.seconds))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .delay(let seconds):
            try container.encode("delay", forKey: .operator)
            try container.encode(seconds, forKey: .seconds)
        }
    }
}

/// A node of the pipeline: an operator and what it reads.
public struct StreamNode: Sendable, Hashable, Codable {
    public var id: String
    public var name: String?
    public var `operator`: StreamOperator
    /// The ids of the streams or nodes the operator reads, in order.
    public var inputs: [String]

    public init(id: String, name: String? = nil, _ operator: StreamOperator, inputs: [String]) {
        self.id = id
        self.name = name
        self.operator = `operator`
        self.inputs = inputs
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, `operator`, input, inputs, expression, initial, count, seconds, latest
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        let rawName = try container.decode(String.self, forKey: .operator)
        guard let name = StreamOperator.Name(rawValue: rawName) else {
            throw StreamError(
                .unknownOperator(rawName),
                path: StreamError.path(container.codingPath + [CodingKeys.operator])
            )
        }
        func expression() throws -> StreamExpression {
            let text = try container.decode(String.self, forKey: .expression)
            do {
                return try StreamExpression(text)
            } catch {
                throw StreamError(
                    .badExpression(error),
                    path: StreamError.path(container.codingPath + [CodingKeys.expression])
                )
            }
        }
        func count() throws -> Int {
            let count = try container.decode(Int.self, forKey: .count)
            guard count >= 0 else {
                throw StreamError(
                    .badValue("a count cannot be negative, and \(count) is"),
                    path: StreamError.path(container.codingPath + [CodingKeys.count])
                )
            }
            return count
        }
        switch name {
        case .map: self.operator = .map(try expression())
        case .scan:
            self.operator = .scan(
                initial: try container.decode(StreamValue.self, forKey: .initial),
                try expression()
            )
        case .filter: self.operator = .filter(try expression())
        case .dropFirst: self.operator = .dropFirst(try count())
        case .prefix: self.operator = .prefix(try count())
        case .removeDuplicates: self.operator = .removeDuplicates
        case .delay: self.operator = .delay(seconds: try container.seconds(.seconds))
        case .debounce: self.operator = .debounce(seconds: try container.seconds(.seconds))
        case .throttle:
            self.operator = .throttle(
                seconds: try container.seconds(.seconds),
                latest: try container.decodeIfPresent(Bool.self, forKey: .latest) ?? false
            )
        case .merge: self.operator = .merge
        case .append: self.operator = .append
        case .zip: self.operator = .zip
        case .combineLatest: self.operator = .combineLatest
        }
        if self.operator.joins {
            inputs = try container.decode([String].self, forKey: .inputs)
            guard !inputs.isEmpty else {
                throw StreamError(
                    .badValue("\(rawName) needs at least one input"),
                    path: StreamError.path(container.codingPath + [CodingKeys.inputs])
                )
            }
        } else {
            inputs = [try container.decode(String.self, forKey: .input)]
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encode(self.operator.name, forKey: .operator)
        if self.operator.joins {
            try container.encode(inputs, forKey: .inputs)
        } else {
            try container.encode(inputs[0], forKey: .input)
        }
        switch self.operator {
        case .map(let expression), .filter(let expression):
            try container.encode(expression.source, forKey: .expression)
        case .scan(let initial, let expression):
            try container.encode(initial, forKey: .initial)
            try container.encode(expression.source, forKey: .expression)
        case .dropFirst(let count), .prefix(let count):
            try container.encode(count, forKey: .count)
        case .delay(let seconds), .debounce(let seconds):
            try container.encode(seconds, forKey: .seconds)
        case .throttle(let seconds, let latest):
            try container.encode(seconds, forKey: .seconds)
            try container.encode(latest, forKey: .latest)
        case .removeDuplicates, .merge, .append, .zip, .combineLatest:
            break
        }
    }
}

extension KeyedDecodingContainer {
    /// A duration in seconds: finite, not negative, at most a day.
    fileprivate func seconds(_ key: Key) throws -> Double {
        let seconds = try decode(Double.self, forKey: key)
        guard seconds.isFinite, (0...86_400).contains(seconds) else {
            throw StreamError(
                .badValue("a duration must be from 0 to 86400 seconds, not \(seconds)"),
                path: StreamError.path(codingPath + [key])
            )
        }
        return seconds
    }
}
