extension StreamOperator {
    /// One field of a node that an operator reads from JSON, besides its id and inputs.
    public struct Parameter: Sendable, Hashable, Codable {
        /// What a field holds, which says how a form asks for it.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// An expression of the expression language, as text.
            case expression
            /// Any JSON value.
            case value
            /// A whole number from 0.
            case count
            /// A number of seconds, above 0.
            case seconds
            /// true or false.
            case flag
        }

        /// The field's key in the node's JSON.
        public var key: String
        /// What the field holds.
        public var kind: Kind
        /// A few words that say what the field does, for a form's label.
        public var summary: String
        /// Whether a node without the field is refused.
        public var isRequired: Bool
        /// The value a new node starts with.
        public var initial: StreamValue
    }

    /// What the catalogue says about one operator.
    public struct Entry: Sendable, Hashable, Codable {
        /// The operator's name in JSON.
        public var name: Name
        /// One sentence on what the operator does.
        public var summary: String
        /// Whether the node names several inputs (`inputs`) rather than one (`input`).
        public var joins: Bool
        /// The fields the node reads besides its id and inputs, in the order a form shows them.
        public var parameters: [Parameter]
    }

    /// Every operator a document may use, with the fields each reads: what an editor's form
    /// offers, in the order of ``Name``.
    ///
    /// ```swift
    /// StreamOperator.catalogue.first { $0.name == .debounce }?.parameters.map(\.key)  // ["seconds"]
    /// ```
    public static let catalogue: [Entry] = Name.allCases.map(entry)

    private static func entry(_ name: Name) -> Entry {
        func parameter(
            _ key: String,
            _ kind: Parameter.Kind,
            _ summary: String,
            _ initial: StreamValue,
            required: Bool = true
        ) -> Parameter {
            Parameter(key: key, kind: kind, summary: summary, isRequired: required, initial: initial)
        }
        let seconds = parameter("seconds", .seconds, "Seconds", .decimal(0.5))
        switch name {
        case .map:
            return Entry(
                name: name,
                summary: "Publishes the expression of each value ($0).",
                joins: false,
                parameters: [parameter("expression", .expression, "Expression", .string("$0"))]
            )
        case .scan:
            return Entry(
                name: name,
                summary: "Publishes a running result: the expression of acc, the last result, and $0.",
                joins: false,
                parameters: [
                    parameter("initial", .value, "Initial value", .integer(0)),
                    parameter("expression", .expression, "Expression", .string("acc + $0")),
                ]
            )
        case .filter:
            return Entry(
                name: name,
                summary: "Publishes the values for which the expression is true.",
                joins: false,
                parameters: [parameter("expression", .expression, "Expression", .string("$0 > 0"))]
            )
        case .dropFirst:
            return Entry(
                name: name,
                summary: "Leaves out the first values.",
                joins: false,
                parameters: [parameter("count", .count, "Values left out", .integer(1))]
            )
        case .prefix:
            return Entry(
                name: name,
                summary: "Publishes the first values, then finishes.",
                joins: false,
                parameters: [parameter("count", .count, "Values kept", .integer(3))]
            )
        case .removeDuplicates:
            return Entry(
                name: name,
                summary: "Leaves out a value equal to the one before.",
                joins: false,
                parameters: []
            )
        case .delay:
            return Entry(
                name: name,
                summary: "Shifts every event later.",
                joins: false,
                parameters: [seconds]
            )
        case .debounce:
            return Entry(
                name: name,
                summary: "Publishes a value once no other has followed for the seconds given.",
                joins: false,
                parameters: [seconds]
            )
        case .throttle:
            return Entry(
                name: name,
                summary: "Publishes at most one value in each window of seconds.",
                joins: false,
                parameters: [
                    seconds,
                    parameter(
                        "latest",
                        .flag,
                        "The latest of a window, not the first",
                        .boolean(false),
                        required: false
                    ),
                ]
            )
        case .merge:
            return Entry(
                name: name,
                summary: "Publishes the values of every input as they come.",
                joins: true,
                parameters: []
            )
        case .append:
            return Entry(
                name: name,
                summary: "Publishes each input's values after the one before it finishes.",
                joins: true,
                parameters: []
            )
        case .zip:
            return Entry(
                name: name,
                summary: "Publishes lists of the inputs' values, pairing the first of each, then the second.",
                joins: true,
                parameters: []
            )
        case .combineLatest:
            return Entry(
                name: name,
                summary: "Publishes a list of every input's latest value whenever one publishes.",
                joins: true,
                parameters: []
            )
        }
    }
}
