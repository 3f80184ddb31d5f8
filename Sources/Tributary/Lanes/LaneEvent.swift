#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// Something that happened to one subscription through a `Publisher.lane(_:filter:recorder:file:line:describe:)`.
///
/// ```swift
/// LaneEvent(lane: "search", subscription: 1, kind: .value("swift"), time: .milliseconds(312),
///           source: "App/Search.swift:14")
/// ```
public struct LaneEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A subscriber subscribed through the lane.
        case subscribed
        /// The subscriber asked for more values.
        case requested(Subscribers.Demand)
        /// A value passed, as the lane's `describe` printed it.
        case value(String)
        /// The upstream finished.
        case finished
        /// The upstream failed; the error's description.
        case failed(String)
        /// The subscriber cancelled.
        case cancelled

        /// Whether the subscription ends with this event.
        public var isEnd: Bool {
            switch self {
            case .finished, .failed, .cancelled: true
            case .subscribed, .requested, .value: false
            }
        }
    }

    /// A value's structure, kept beside its description by a lane with a ``LaneEncoding``.
    public enum Structure: Sendable, Equatable {
        /// The value as JSON text.
        case json(String)
        /// The value's JSON was over the encoding's limits, or could not be written: only its
        /// description is kept.
        case cut
    }

    /// The lane's name, as given to `lane(_:)`.
    public var lane: String
    /// Which subscription through lanes of this name, numbered from 1 in this process.
    public var subscription: Int
    /// What happened.
    public var kind: Kind
    /// When it happened, on a monotonic clock, since the recorder began.
    public var time: Duration
    /// Where the lane was attached, as `file:line`.
    public var source: String
    /// For a value through a lane that keeps structure, the value as JSON (or `cut`); nil
    /// otherwise.
    public var structure: Structure?

    /// Creates an event.
    public init(
        lane: String,
        subscription: Int,
        kind: Kind,
        time: Duration,
        source: String,
        structure: Structure? = nil
    ) {
        self.lane = lane
        self.subscription = subscription
        self.kind = kind
        self.time = time
        self.source = source
        self.structure = structure
    }
}

/// Which events a lane records, as Timelane's lane types do.
///
/// ```swift
/// results.lane("results", filter: .subscriptions)   // only when subscriptions begin and end
/// ```
public struct LaneFilter: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Each subscription's beginning and its end: subscribed, finished, failed and cancelled.
    public static let subscriptions = LaneFilter(rawValue: 1 << 0)
    /// What flows through a subscription: values, demand, and how it completes.
    public static let events = LaneFilter(rawValue: 1 << 1)
    /// Everything.
    public static let all: LaneFilter = [.subscriptions, .events]

    func admits(_ kind: LaneEvent.Kind) -> Bool {
        switch kind {
        case .subscribed, .cancelled: contains(.subscriptions)
        case .requested, .value: contains(.events)
        case .finished, .failed: !isDisjoint(with: .all)
        }
    }
}
