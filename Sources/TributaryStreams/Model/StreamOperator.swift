/// What a node of a pipeline does to the streams and nodes it refers to.
public enum StreamOperator: Sendable, Hashable {
    /// Publishes the expression of each value (`$0`).
    case map(StreamExpression)
    /// Publishes a running result: the expression of `acc`, the last result (`initial` at
    /// first), and `$0`.
    case scan(initial: StreamValue, StreamExpression)
    /// Publishes the values for which the expression is true; a result that is not a boolean
    /// fails the stream.
    case filter(StreamExpression)
    /// Leaves out the first values, as many as given (`count` in JSON).
    case dropFirst(Int)
    /// Publishes the first values, as many as given (`count` in JSON), then finishes.
    case prefix(Int)
    /// Leaves out a value equal to the one before.
    case removeDuplicates
    /// Shifts every event later by `seconds`.
    case delay(seconds: Double)
    /// Publishes a value once no other has followed for `seconds`.
    case debounce(seconds: Double)
    /// Publishes at most one value per `seconds`: the first or the latest of each window.
    case throttle(seconds: Double, latest: Bool)
    /// Publishes the values of every input as they come.
    case merge
    /// Publishes each input's values after the one before it finishes.
    case append
    /// Publishes lists of the inputs' values, pairing the first of each, then the second.
    case zip
    /// Publishes a list of every input's latest value whenever one publishes.
    case combineLatest

    /// The names operators have in JSON.
    public enum Name: String, Sendable, CaseIterable, Codable {
        /// `map`, for ``StreamOperator/map(_:)``.
        case map
        /// `scan`, for ``StreamOperator/scan(initial:_:)``.
        case scan
        /// `filter`, for ``StreamOperator/filter(_:)``.
        case filter
        /// `dropFirst`, for ``StreamOperator/dropFirst(_:)``.
        case dropFirst
        /// `prefix`, for ``StreamOperator/prefix(_:)``.
        case prefix
        /// `removeDuplicates`, for ``StreamOperator/removeDuplicates``.
        case removeDuplicates
        /// `delay`, for ``StreamOperator/delay(seconds:)``.
        case delay
        /// `debounce`, for ``StreamOperator/debounce(seconds:)``.
        case debounce
        /// `throttle`, for ``StreamOperator/throttle(seconds:latest:)``.
        case throttle
        /// `merge`, for ``StreamOperator/merge``.
        case merge
        /// `append`, for ``StreamOperator/append``.
        case append
        /// `zip`, for ``StreamOperator/zip``.
        case zip
        /// `combineLatest`, for ``StreamOperator/combineLatest``.
        case combineLatest
    }

    /// The operator's name in JSON, without its parameters.
    public var name: Name {
        switch self {
        case .map: .map
        case .scan: .scan
        case .filter: .filter
        case .dropFirst: .dropFirst
        case .prefix: .prefix
        case .removeDuplicates: .removeDuplicates
        case .delay: .delay
        case .debounce: .debounce
        case .throttle: .throttle
        case .merge: .merge
        case .append: .append
        case .zip: .zip
        case .combineLatest: .combineLatest
        }
    }

    /// Whether the operator joins several inputs.
    public var joins: Bool {
        switch self {
        case .merge, .append, .zip, .combineLatest: true
        default: false
        }
    }

    /// How much stack a value passing through the operator takes, in units of what a `map`
    /// takes, with `inputs` inputs: the weight a node adds to its depth, which
    /// ``StreamDocument/maximumDepth`` bounds. Measured in a debug build, where frames are
    /// largest (`StackDepthTests` checks each against a chain of the operator run on a
    /// 512 KiB stack): `zip` is made of a merge, a flat map and two filters; `combineLatest`
    /// of more than two inputs combines them pairwise.
    public func stackWeight(inputs: Int) -> Int {
        switch self {
        case .merge: 3
        case .append: 4
        case .combineLatest: max(3, 2 * inputs)
        case .zip: 13
        default: 1
        }
    }
}
