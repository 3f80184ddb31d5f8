/// What a run of a document produced: each event with its time and the stream or node
/// ("lane") that produced it.
public struct Timeline: Sendable, Hashable, Codable {
    /// One event.
    public struct Event: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Seconds since the run began.
        public var time: Double
        /// The stream or node.
        public var lane: String
        /// The value, or how the lane ended.
        public var kind: Kind

        /// Makes an event.
        ///
        /// - Parameters:
        ///   - time: Seconds since the run began.
        ///   - lane: The id of the stream or node.
        ///   - kind: The value, or how the lane ended.
        public init(time: Double, lane: String, kind: Kind) {
            self.time = time
            self.lane = lane
            self.kind = kind
        }

        public var description: String { "\(time)s \(lane): \(kind)" }
    }

    /// A value, or how the lane ended.
    public enum Kind: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The lane published a value.
        case value(StreamValue)
        /// The lane finished.
        case finished
        /// The lane failed, with the failure's message.
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

    /// A guard of ``StreamRunner`` that stops a run before it ends.
    public enum Guard: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The run recorded as many events as it may.
        case events(limit: Int)
        /// The run recorded as many bytes of values as it may.
        case bytes(limit: Int)
        /// The run took as long as it may, in seconds of real time.
        case time(limit: Double)
        /// The run reached the end of the virtual time it covers, in seconds, with lanes open.
        case duration(limit: Double)

        public var description: String {
            switch self {
            case .events(let limit): "the limit of \(limit) events"
            case .bytes(let limit): "the limit of \(limit) bytes of values"
            case .time(let limit): "the limit of \(limit) s of running time"
            case .duration(let limit): "the end of the \(limit) s a run covers"
            }
        }
    }

    /// The lanes, in document order.
    public var lanes: [String]
    /// Every event, in time order; events at the same time keep the order they happened in.
    public var events: [Event]
    /// Whether a guard stopped the run before it ended.
    public var isTruncated: Bool
    /// The guard that stopped the run, when one did.
    public var stoppedBy: Guard?

    /// Makes a timeline; one with `stoppedBy` set is always truncated.
    ///
    /// - Parameters:
    ///   - lanes: The lanes, in document order.
    ///   - events: Every event, in time order.
    ///   - isTruncated: Whether the run stopped before it ended.
    ///   - stoppedBy: The guard that stopped the run, if one did.
    public init(lanes: [String], events: [Event], isTruncated: Bool = false, stoppedBy: Guard? = nil) {
        self.lanes = lanes
        self.events = events
        self.isTruncated = isTruncated || stoppedBy != nil
        self.stoppedBy = stoppedBy
    }

    /// The events of `lane`.
    public func events(in lane: String) -> [Event] {
        events.filter { $0.lane == lane }
    }

    /// The time of the last event.
    public var duration: Double { events.map(\.time).max() ?? 0 }
}
