/// One event of a recorded lane, as a recorder sends it and the lab stores and serves it.
///
/// ```json
/// {"lane":"search","subscription":1,"kind":"value","value":"swift","t":0.312,"source":"App/Search.swift:14"}
/// {"lane":"search","subscription":1,"kind":"requested","demand":"unlimited","t":0.001,"source":"App/Search.swift:14"}
/// ```
///
/// `value` comes with `value` events, `error` with `failed` ones and `demand` with `requested`
/// ones; `t` is seconds since the recorder began. A value through a lane that keeps structure
/// (`lane(_:encoding:)`) also has `structure`, the value's JSON as a string, or `"cut": true`
/// when the JSON was over the limits:
///
/// ```json
/// {"lane":"state","subscription":1,"kind":"value","value":"State(query: \"sw\")","structure":"{\"query\":\"sw\"}","t":0.3,"source":"App/Model.swift:9"}
/// ```
public struct RecordedLaneEvent: Sendable, Equatable, Codable {
    /// What happened to the subscription.
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        /// A subscriber subscribed through the lane.
        case subscribed
        /// The subscriber asked for more values, as many as `demand` says.
        case requested
        /// A value passed, described in `value`.
        case value
        /// The upstream finished.
        case finished
        /// The upstream failed, with the error described in `error`.
        case failed
        /// The subscriber cancelled.
        case cancelled
    }

    /// The lane's name, as given to `lane(_:)`.
    public var lane: String
    /// Which subscription through the lane, numbered from 1 per lane.
    public var subscription: Int
    /// What happened, as `subscribed`, `requested`, `value`, `finished`, `failed` or `cancelled`.
    public var kind: Kind
    /// The value's description, for `value` events.
    public var value: String?
    /// The error's description, for `failed` events.
    public var error: String?
    /// The demand asked for, for `requested` events.
    public var demand: RecordedDemand?
    /// Seconds since the recorder began, on a monotonic clock.
    public var t: Double
    /// Where the lane was attached, as `file:line`.
    public var source: String
    /// For a value through a lane that keeps structure, the value as JSON text.
    public var structure: String?
    /// True for a value whose structure was over the limits, and so kept as its description only.
    public var cut: Bool?

    /// Makes an event; give `value`, `error` and `demand` for the kinds that carry them.
    ///
    /// - Parameters:
    ///   - lane: The lane's name.
    ///   - subscription: Which subscription through the lane, numbered from 1 per lane.
    ///   - kind: What happened.
    ///   - value: The value's description, for `value` events.
    ///   - error: The error's description, for `failed` events.
    ///   - demand: The demand asked for, for `requested` events.
    ///   - t: Seconds since the recorder began.
    ///   - source: Where the lane was attached, as `file:line`.
    ///   - structure: For a value through a lane that keeps structure, the value as JSON text.
    ///   - cut: True when the value's structure was over the limits.
    public init(
        lane: String,
        subscription: Int,
        kind: Kind,
        value: String? = nil,
        error: String? = nil,
        demand: RecordedDemand? = nil,
        t: Double,
        source: String,
        structure: String? = nil,
        cut: Bool? = nil
    ) {
        self.lane = lane
        self.subscription = subscription
        self.kind = kind
        self.value = value
        self.error = error
        self.demand = demand
        self.t = t
        self.source = source
        self.structure = structure
        self.cut = cut
    }
}

/// A demand as recorded: a number, or `"unlimited"` in JSON.
public enum RecordedDemand: Sendable, Equatable, Codable {
    /// A demand for this many more values, written as the number.
    case max(Int)
    /// A demand with no limit, written as `"unlimited"`.
    case unlimited

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let count = try? container.decode(Int.self) {
            guard count >= 0 else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "A demand is never negative."
                )
            }
            self = .max(count)
            return
        }
        let word = try container.decode(String.self)
        guard word == "unlimited" else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "A demand is a number or \"unlimited\", not \"\(word)\"."
            )
        }
        self = .unlimited
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .max(let count): try container.encode(count)
        case .unlimited: try container.encode("unlimited")
        }
    }
}

/// What a recorder sends on `/api/recordings/{id}/ingest?recorder=UUID`.
///
/// ```json
/// {"type":"events","first":1000,"events":[…],"dropped":0}
/// ```
///
/// `first` numbers the batch's first event in the recorder's own sequence (from 0), so a batch
/// sent again after a reconnection is stored once: the lab keeps, per recorder, how far it has
/// stored, and skips what it already holds. `dropped` is the recorder's running total of events
/// it could not keep.
public struct RecordingIngestBatch: Sendable, Equatable, Codable {
    /// The message's kind, `events`: the lab refuses any other.
    public var type: String = "events"
    /// The number of the batch's first event in the recorder's own sequence, from 0.
    public var first: Int
    /// The batch's events, in order, the first of them numbered `first`.
    public var events: [RecordedLaneEvent]
    /// The recorder's running total of events it could not keep.
    public var dropped: Int

    /// Makes a batch of type `events`.
    ///
    /// - Parameters:
    ///   - first: The number of the batch's first event in the recorder's own sequence, from 0.
    ///   - events: The batch's events, in order.
    ///   - dropped: The recorder's running total of events it could not keep.
    public init(first: Int, events: [RecordedLaneEvent], dropped: Int) {
        self.first = first
        self.events = events
        self.dropped = dropped
    }
}

/// What the lab answers a recorder with.
///
/// ```json
/// {"type":"stored","recording":"r-3f2a…","next":2000}
/// {"type":"invalid","error":{"code":"invalidBatch","message":"…"}}
/// {"type":"full","recording":"r-3f2a…","next":1000000,"error":{"code":"recordingFull","message":"…"}}
/// ```
public enum RecordingIngestReply: Sendable, Equatable {
    /// The lab holds this recorder's events numbered below `next`; sent when the recorder connects
    /// and after each batch is stored.
    case stored(recording: String, next: Int)
    /// The batch was refused and nothing of it stored.
    case invalid(LabProblem)
    /// The recording is at its cap; it holds this recorder's events below `next` and takes no more.
    case full(recording: String, next: Int, problem: LabProblem)
}

extension RecordingIngestReply: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, recording, next, error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "stored":
            self = .stored(
                recording: try container.decode(String.self, forKey: .recording),
                next: try container.decode(Int.self, forKey: .next)
            )
        case "invalid": self = .invalid(try container.decode(LabProblem.self, forKey: .error))
        case "full":
            self = .full(
                recording: try container.decode(String.self, forKey: .recording),
                next: try container.decode(Int.self, forKey: .next),
                problem: try container.decode(LabProblem.self, forKey: .error)
            )
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type,
                in: container,
                debugDescription: "There is no message of type \"\(type)\"."
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .stored(let recording, let next):
            try container.encode("stored", forKey: .type)
            try container.encode(recording, forKey: .recording)
            try container.encode(next, forKey: .next)
        case .invalid(let problem):
            try container.encode("invalid", forKey: .type)
            try container.encode(problem, forKey: .error)
        case .full(let recording, let next, let problem):
            try container.encode("full", forKey: .type)
            try container.encode(recording, forKey: .recording)
            try container.encode(next, forKey: .next)
            try container.encode(problem, forKey: .error)
        }
    }
}
