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
}
