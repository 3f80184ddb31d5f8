/// What a run of a document produced: each event with its time and the stream or node
/// ("lane") that produced it.
public struct Timeline: Sendable, Hashable, Codable {
    /// One event.
    public struct Event: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Seconds since the run began.
        public var time: Double
        /// The stream or node.
        public var lane: String
        public var kind: Kind

        public init(time: Double, lane: String, kind: Kind) {
            self.time = time
            self.lane = lane
            self.kind = kind
        }

        public var description: String { "\(time)s \(lane): \(kind)" }
    }

    /// A value, or how the lane ended.
    public enum Kind: Sendable, Hashable, Codable, CustomStringConvertible {
        case value(StreamValue)
        case finished
        case failure(String)

        /// Whether the event ends its lane.
        public var isEnd: Bool {
            if case .value = self { return false }
            return true
        }

        public var description: String {
            switch self {
            case .value(let value): "\(value)"
            case .finished: "finished"
            case .failure(let message): "failure(\(message))"
            }
        }
    }

    /// The lanes, in document order.
    public var lanes: [String]
    /// Every event, in time order; events at the same time keep the order they happened in.
    public var events: [Event]
    /// Whether a guard stopped the run before it ended.
    public var isTruncated: Bool

    public init(lanes: [String], events: [Event], isTruncated: Bool = false) {
        self.lanes = lanes
        self.events = events
        self.isTruncated = isTruncated
    }

    /// The events of `lane`.
    public func events(in lane: String) -> [Event] {
        events.filter { $0.lane == lane }
    }

    /// The time of the last event.
    public var duration: Double { events.map(\.time).max() ?? 0 }
}
