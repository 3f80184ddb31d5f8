public import Foundation
import Tributary

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
/// nodes do not refer to each other in a circle, and that no node is deeper or runs more than
/// the limits allow. Each problem is a ``StreamError`` with the JSON path of its cause.
public struct StreamDocument: Sendable, Hashable, Codable {
    /// The schema version this library reads and writes.
    public static let schemaVersion = 1

    /// The most weight on a path from a node back to a stream, each node weighing what its
    /// operator takes of the stack (``StreamOperator/stackWeight(inputs:)``: a `map` 1, a `zip`
    /// 13). Values pass through each node as a nested call, so this bounds how deep the stack
    /// grows: the deepest document allowed runs on a 512 KiB stack, a secondary thread's on
    /// Apple platforms, in a debug build.
    public static let maximumDepth = 240

    /// The most levels of arrays and objects the JSON of a document, or of a message that
    /// carries one, may nest: a document's own structure and its values' lists
    /// (``StreamValue/maximumDepth``) with room to spare. Deeper text is refused before it is
    /// decoded.
    public static let maximumNesting = 48

    /// The longest wait a document may state, in seconds: a day.
    public static let maximumSeconds = 86_400.0

    /// The most operators and streams one subscription may run. A subscription runs its inputs
    /// afresh along every path to them, so nodes that branch and join again multiply: forty
    /// nodes, each merging the two before it, would run a hundred million.
    public static let maximumOperators = 10_000

    /// The document's name, for people, which titles its diagram; optional.
    public var name: String?
    /// What the document shows, for people, which describes its diagram; optional.
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
        try decode(StreamDocument.self, from: data)
    }

    /// Reads a value that holds documents — a message that carries one, say — from JSON, with
    /// what is wrong as a ``StreamError`` whose path leads from the top of `data`.
    public static func decode<Value: Decodable>(
        _ type: Value.Type,
        from data: Data
    ) throws(StreamError) -> Value {
        guard !JSONNesting.exceeds(data, limit: maximumNesting) else {
            throw StreamError(
                .malformed("the JSON nests arrays and objects more than \(maximumNesting) levels deep"),
                path: "$"
            )
        }
        do {
            return try JSONDecoder().decode(type, from: data)
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

    /// Every stream and node by id, for looking up many; the first of an id wins, as in
    /// ``element(_:)``.
    var elements: [String: Element] {
        var elements: [String: Element] = [:]
        for node in nodes.reversed() { elements[node.id] = .node(node) }
        for stream in streams.reversed() { elements[stream.id] = .stream(stream) }
        return elements
    }

    /// A stream or a node.
    public enum Element: Sendable, Hashable {
        /// An input stream.
        case stream(StreamDefinition)
        /// A node of the pipeline.
        case node(StreamNode)
    }

    /// Every id, streams first, in document order.
    public var ids: [String] { streams.map(\.id) + nodes.map(\.id) }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey, CaseIterable {
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
        // "lab" is where `tributary streams pull` notes the id and version a file came from.
        try decoder.refuseUnknownFields(CodingKeys.self, ignoring: ["lab"])
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
        _ = try operatorCounts()
    }

    /// Checks the document as decoding does, and counts the operators and streams a
    /// subscription to each node runs (a stream, 1), by id. The properties can change after
    /// decoding, so whatever builds publishers checks again.
    func operatorCounts() throws(StreamError) -> [String: Int] {
        try checkValues()
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
        // Each node's inputs come before it in `order`, and are counted first.
        let order = try Self.inputsFirst(nodes, nodeIndex: nodeIndex)
        var counts = Dictionary(uniqueKeysWithValues: streams.map { ($0.id, 1) })
        var depths = [Int](repeating: 0, count: nodes.count)
        for index in order {
            var count = 1
            let inputs = nodes[index].inputs
            let weight = nodes[index].operator.stackWeight(inputs: inputs.count)
            var depth = weight
            for input in inputs {
                count += counts[input] ?? 1
                if let node = nodeIndex[input] { depth = max(depth, depths[node] + weight) }
            }
            let id = nodes[index].id
            guard depth <= Self.maximumDepth else {
                throw StreamError(.tooDeep(id, limit: Self.maximumDepth), path: "$.nodes[\(index)]")
            }
            guard count <= Self.maximumOperators else {
                throw StreamError(.tooLarge(id, limit: Self.maximumOperators), path: "$.nodes[\(index)]")
            }
            depths[index] = depth
            counts[id] = count
        }
        return counts
    }

    /// Checks that every wait is from 0 to ``maximumSeconds`` and every count is not negative.
    private func checkValues() throws(StreamError) {
        func check(seconds: Double, _ path: @autoclosure () -> String) throws(StreamError) {
            guard seconds.isFinite, (0...Self.maximumSeconds).contains(seconds) else {
                let reason =
                    "a duration must be from 0 to \(Int(Self.maximumSeconds)) seconds, not \(seconds)"
                throw StreamError(.badValue(reason), path: path())
            }
        }
        for (index, stream) in streams.enumerated() {
            for (position, item) in stream.items.enumerated() {
                for (place, itemOperator) in item.operators.enumerated() {
                    guard case .delay(let seconds) = itemOperator else { continue }
                    try check(
                        seconds: seconds,
                        "$.streams[\(index)].items[\(position)].operators[\(place)].seconds"
                    )
                }
            }
            switch stream.ending {
            case .finished(let after), .failed(let after, _):
                try check(seconds: after, "$.streams[\(index)].ending.after")
            case .never:
                break
            }
        }
        for (index, node) in nodes.enumerated() {
            switch node.operator {
            case .delay(let seconds), .debounce(let seconds), .throttle(let seconds, _):
                try check(seconds: seconds, "$.nodes[\(index)].seconds")
            case .dropFirst(let count), .prefix(let count):
                guard count >= 0 else {
                    throw StreamError(
                        .badValue("a count cannot be negative, and \(count) is"),
                        path: "$.nodes[\(index)].count"
                    )
                }
            default:
                break
            }
        }
    }

    /// The indices of `nodes` with every node's inputs before it, found by a depth-first search
    /// that throws at the first node found to lead back to itself. The search keeps its path
    /// in an array, so that a long chain of nodes cannot exhaust the stack.
    private static func inputsFirst(
        _ nodes: [StreamNode],
        nodeIndex: [String: Int]
    ) throws(StreamError) -> [Int] {
        var state = [UInt8](repeating: 0, count: nodes.count)  // 0 new, 1 on the path, 2 done
        var order: [Int] = []
        order.reserveCapacity(nodes.count)
        for root in nodes.indices where state[root] == 0 {
            // Each step of the path: a node, and the position of its next input to look at.
            var path = [(node: root, next: 0)]
            state[root] = 1
            while let (index, position) = path.last {
                let inputs = nodes[index].inputs
                guard position < inputs.count else {
                    path.removeLast()
                    state[index] = 2
                    order.append(index)
                    continue
                }
                path[path.count - 1].next += 1
                guard let next = nodeIndex[inputs[position]] else { continue }
                if state[next] == 1 {
                    let circle =
                        path.map(\.node).drop { $0 != next }.map { nodes[$0].id } + [inputs[position]]
                    throw StreamError(.cycle(circle), path: "$.nodes[\(next)]")
                }
                if state[next] == 0 {
                    state[next] = 1
                    path.append((next, 0))
                }
            }
        }
        return order
    }
}

/// An input stream: items emitted one after another, then an ending.
public struct StreamDefinition: Sendable, Hashable, Codable {
    /// The id that nodes refer to the stream by, unique among the document's streams and nodes.
    public var id: String
    /// The stream's name, for people; optional.
    public var name: String?
    /// What the stream stands for; optional.
    public var description: String?
    /// The values the stream emits, in order.
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

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case kind, after, message
        }

        public init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownFields(CodingKeys.self)
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

    /// Makes a stream.
    ///
    /// - Parameters:
    ///   - id: The id that nodes refer to the stream by.
    ///   - name: The stream's name, for people.
    ///   - description: What the stream stands for.
    ///   - items: The values the stream emits, in order.
    ///   - ending: What follows the last item; by default the stream finishes at once.
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

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, description, items, ending
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownFields(CodingKeys.self)
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
    /// The value emitted.
    public var value: StreamValue
    /// The item operators that decide when the value is emitted, in order.
    public var operators: [ItemOperator]

    /// Makes an item of `value`, emitted `delay` seconds after the item before.
    ///
    /// - Parameters:
    ///   - value: The value emitted.
    ///   - delay: The wait in seconds after the item before; 0, the default, adds no operator.
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

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case value, operators
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownFields(CodingKeys.self)
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

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case `operator`, seconds
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownFields(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .operator)
        guard name == "delay" else {
            throw StreamError(
                .unknownOperator(name),
                path: StreamError.path(container.codingPath + [CodingKeys.operator])
            )
        }
        self = .delay(seconds: try container.decode(Double.self, forKey: .seconds))
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
    /// The id that other nodes refer to the node by, unique among the document's streams and
    /// nodes.
    public var id: String
    /// The node's name, for people; optional.
    public var name: String?
    /// What the node does to its inputs.
    public var `operator`: StreamOperator
    /// The ids of the streams or nodes the operator reads, in order.
    public var inputs: [String]

    /// Makes a node.
    ///
    /// - Parameters:
    ///   - id: The id that other nodes refer to the node by.
    ///   - name: The node's name, for people.
    ///   - operator: What the node does to its inputs.
    ///   - inputs: The ids of the streams or nodes the operator reads, in order: one, unless the
    ///     operator joins several.
    public init(id: String, name: String? = nil, _ operator: StreamOperator, inputs: [String]) {
        self.id = id
        self.name = name
        self.operator = `operator`
        self.inputs = inputs
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, `operator`, input, inputs, expression, initial, count, seconds, latest
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownFields(CodingKeys.self)
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
        func count() throws -> Int { try container.decode(Int.self, forKey: .count) }
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
        case .delay: self.operator = .delay(seconds: try container.decode(Double.self, forKey: .seconds))
        case .debounce:
            self.operator = .debounce(seconds: try container.decode(Double.self, forKey: .seconds))
        case .throttle:
            self.operator = .throttle(
                seconds: try container.decode(Double.self, forKey: .seconds),
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
