extension StreamOperator {
    /// The operator as a person writes it: `map($0 * 2)`, `debounce(0.3s)`.
    public var label: String {
        func seconds(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value))s" : "\(value)s"
        }
        switch self {
        case .map(let expression): return "map(\(expression))"
        case .scan(let initial, let expression): return "scan(\(initial), \(expression))"
        case .filter(let expression): return "filter(\(expression))"
        case .dropFirst(let count): return "dropFirst(\(count))"
        case .prefix(let count): return "prefix(\(count))"
        case .removeDuplicates: return "removeDuplicates"
        case .delay(let value): return "delay(\(seconds(value)))"
        case .debounce(let value): return "debounce(\(seconds(value)))"
        case .throttle(let value, let latest): return "throttle(\(seconds(value)), latest: \(latest))"
        case .merge, .append, .zip, .combineLatest: return name.rawValue
        }
    }
}
