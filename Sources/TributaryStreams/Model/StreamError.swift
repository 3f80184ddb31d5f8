/// Why a stream document cannot be used, with the JSON path of what is wrong.
///
/// ```
/// $.nodes[1].input: "numbrs" names no stream or node.
/// ```
public struct StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Equatable {
        /// The document is not JSON, or not shaped as a document.
        case malformed(String)
        /// The document's schema version is not one this library reads.
        case unsupportedSchemaVersion(Int)
        /// An operator name this library does not know.
        case unknownOperator(String)
        /// A required field is missing.
        case missingField(String)
        /// A field that this part of a document does not have — misspelt, or put in the wrong
        /// place — which would otherwise be left out without a word; `known` lists those it has.
        case unknownField(String, known: [String])
        /// A field holds a value of the wrong kind or out of range.
        case badValue(String)
        /// An expression does not parse.
        case badExpression(ExpressionError)
        /// Two streams or nodes share an id.
        case duplicateID(String)
        /// A reference names no stream or node.
        case danglingReference(String)
        /// Nodes refer to each other in a circle.
        case cycle([String])
        /// A node lies more than ``StreamDocument/maximumDepth`` nodes from a stream.
        case tooDeep(String, limit: Int)
        /// A subscription to a node would run more than ``StreamDocument/maximumOperators``
        /// operators and streams.
        case tooLarge(String, limit: Int)
        /// A run of these lanes would run more operators and streams than the runner allows.
        case runTooLarge(operators: Int, limit: Int)
        /// What a run would print or draw would take about `bytes`, more than `limit`.
        case outputTooLarge(bytes: Int, limit: Int)
    }

    /// What is wrong.
    public var kind: Kind
    /// Where in the document, as a JSON path such as `$.nodes[2].input`.
    public var path: String

    /// Makes an error of `kind` at `path`, a JSON path such as `$.nodes[2].input`.
    public init(_ kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    public var description: String {
        let problem: String
        switch kind {
        case .malformed(let reason): problem = "the document cannot be read: \(reason)"
        case .unsupportedSchemaVersion(let version):
            problem =
                "schema version \(version) is not supported; this library reads version \(StreamDocument.schemaVersion)"
        case .unknownOperator(let name):
            problem =
                "\"\(name)\" is not an operator; known: \(StreamOperator.Name.allCases.map(\.rawValue).joined(separator: ", "))"
        case .missingField(let name): problem = "the field \"\(name)\" is missing"
        case .unknownField(let name, let known):
            problem =
                "there is no field \"\(name)\" here; the fields here are \(known.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .badValue(let reason): problem = reason
        case .badExpression(let error):
            let reason = error.description
            problem =
                "the expression does not parse: \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason)"
        case .duplicateID(let id): problem = "the id \"\(id)\" is used twice"
        case .danglingReference(let id): problem = "\"\(id)\" names no stream or node"
        case .cycle(let ids): problem = "the nodes form a cycle: \(ids.joined(separator: " → "))"
        case .tooDeep(let id, let limit):
            problem =
                "\"\(id)\" lies too deep: the nodes between it and a stream weigh more than \(limit), "
                + "a map weighing 1, a merge 3, an append 4, a combineLatest 2 for each input (at least 3) and a zip 13"
        case .tooLarge(let id, let limit):
            problem =
                "a subscription to \"\(id)\" would run more than \(limit) operators and streams, "
                + "as it runs an input afresh for every path that leads to it"
        case .runTooLarge(let operators, let limit):
            problem =
                "running these lanes would run \(operators) operators and streams, more than the limit of \(limit); "
                + "run fewer lanes"
        case .outputTooLarge(let bytes, let limit):
            problem = "the output would take about \(bytes) bytes, more than the limit of \(limit)"
        }
        return "\(path): \(problem)."
    }

    /// The JSON path of a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)"
        }
    }
}

/// A failure inside a running document: a stream that ends in failure, or an expression that
/// fails on a value.
public struct StreamFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream or node that failed.
    public var origin: String
    /// What went wrong, in a sentence.
    public var message: String
    /// The expression's error, when an expression failed.
    public var expressionError: ExpressionError?

    /// Makes a failure.
    ///
    /// - Parameters:
    ///   - origin: The id of the stream or node that failed.
    ///   - message: What went wrong, in a sentence.
    ///   - expressionError: The expression's error, when an expression failed.
    public init(origin: String, message: String, expressionError: ExpressionError? = nil) {
        self.origin = origin
        self.message = message
        self.expressionError = expressionError
    }

    public var description: String { "\(origin): \(message)" }
}

/// Any key of a JSON object, to see every key an object holds.
private struct AnyCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Refuses a key of this object that `Keys` does not name, nor `ignored` does, as
    /// ``StreamError/Kind/unknownField(_:known:)`` at its path.
    func refuseUnknownFields<Keys: CodingKey & CaseIterable>(
        _ keys: Keys.Type,
        ignoring ignored: Set<String> = []
    ) throws {
        let known = keys.allCases.map(\.stringValue)
        let unknown = try container(keyedBy: AnyCodingKey.self).allKeys
            .filter { !known.contains($0.stringValue) && !ignored.contains($0.stringValue) }
            .min { $0.stringValue < $1.stringValue }
        if let unknown {
            throw StreamError(
                .unknownField(unknown.stringValue, known: known),
                path: StreamError.path(codingPath + [unknown])
            )
        }
    }
}
