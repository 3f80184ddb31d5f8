/// What a node of a pipeline does to the streams and nodes it refers to.
public enum StreamOperator: Sendable, Hashable {
    case map(StreamExpression)
    case scan(initial: StreamValue, StreamExpression)
    case filter(StreamExpression)
    case dropFirst(Int)
    case prefix(Int)
    case removeDuplicates
    /// Shifts every event later by `seconds`.
    case delay(seconds: Double)
    /// Publishes a value once no other has followed for `seconds`.
    case debounce(seconds: Double)
    /// Publishes at most one value per `seconds`: the first or the latest of each window.
    case throttle(seconds: Double, latest: Bool)
    case merge
    case append
    case zip
    case combineLatest

    /// The names operators have in JSON.
    public enum Name: String, Sendable, CaseIterable, Codable {
        case map, scan, filter, dropFirst, prefix, removeDuplicates, delay, debounce, throttle
        case merge, append, zip, combineLatest
    }

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
