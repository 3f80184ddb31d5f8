public import Foundation

/// A recording as `GET /api/recordings` lists it.
///
/// ```json
/// {"id":"r3f2…","name":"search screen","events":1200,"dropped":0,"updatedAt":"2026-11-25T19:56:48.120Z"}
/// ```
public struct RecordingSummary: Sendable, Hashable, Codable {
    /// The lab's id for the recording: 22 URL-safe characters.
    public var id: String
    /// The recording's name, unique in the lab.
    public var name: String
    /// How many events it holds.
    public var events: Int
    /// How many events its recorders reported they could not keep: the sum of each recorder's
    /// latest running total.
    public var dropped: Int
    /// When an event was last stored, or when it was made.
    public var updatedAt: Date

    /// Makes a recording's summary.
    ///
    /// - Parameters:
    ///   - id: The lab's id for the recording.
    ///   - name: The recording's name.
    ///   - events: How many events it holds.
    ///   - dropped: How many events its recorders could not keep.
    ///   - updatedAt: When an event was last stored, or when it was made.
    public init(id: String, name: String, events: Int, dropped: Int, updatedAt: Date) {
        self.id = id
        self.name = name
        self.events = events
        self.dropped = dropped
        self.updatedAt = updatedAt
    }
}

/// A page of a recording's events, as `GET /api/recordings/{id}?after=N&limit=M` answers.
///
/// ```json
/// {"id":"r3f2…","name":"search screen","dropped":0,"events":[…],"next":9999}
/// ```
///
/// Events are numbered from 0 in the order they were stored; `next`, when there are more, is the
/// number of the page's last event, to pass as `after` for the page that follows.
public struct RecordingPage: Sendable, Equatable, Codable {
    /// The lab's id for the recording.
    public var id: String
    /// The recording's name.
    public var name: String
    /// How many events its recorders reported they could not keep.
    public var dropped: Int
    /// The page's events, in the order they were stored.
    public var events: [RecordedLaneEvent]
    /// The `after` of the next page; nil on the last.
    public var next: Int?

    /// Makes a page of a recording's events.
    ///
    /// - Parameters:
    ///   - id: The lab's id for the recording.
    ///   - name: The recording's name.
    ///   - dropped: How many events its recorders could not keep.
    ///   - events: The page's events, in the order they were stored.
    ///   - next: The `after` of the next page, or nil on the last.
    public init(id: String, name: String, dropped: Int, events: [RecordedLaneEvent], next: Int?) {
        self.id = id
        self.name = name
        self.dropped = dropped
        self.events = events
        self.next = next
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, dropped, events, next
    }

    /// Writes `next` as `null` on the last page, so that a reader sees the end said.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(dropped, forKey: .dropped)
        try container.encode(events, forKey: .events)
        try container.encode(next, forKey: .next)
    }
}

/// What the lab sends a viewer of `GET /api/recordings/{id}/live`, as JSON text with a `type`.
///
/// ```json
/// {"type":"snapshot","recording":"r3f2…","name":"search screen","dropped":0,"first":0,"truncated":0,"events":[…]}
/// {"type":"events","first":1200,"events":[…],"dropped":0}
/// {"type":"deleted"}
/// ```
///
/// A snapshot of a long recording holds only its latest events; `truncated` says how many older
/// ones it leaves out, which `GET /api/recordings/{id}` pages through. `first` numbers a
/// message's first event in the recording, so that a viewer can tell that nothing was skipped.
public enum RecordingLiveMessage: Sendable, Equatable {
    /// The recording as it is when the viewer joins.
    case snapshot(
        recording: String,
        name: String,
        dropped: Int,
        first: Int,
        events: [RecordedLaneEvent],
        truncated: Int
    )
    /// Events stored since the last message, and the recording's dropped count now.
    case events(first: Int, events: [RecordedLaneEvent], dropped: Int)
    /// The recording was deleted; the connection ends.
    case deleted
    /// There is no such recording; the connection ends.
    case notFound
}

extension RecordingLiveMessage: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, recording, name, dropped, first, events, truncated
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "snapshot":
            self = .snapshot(
                recording: try container.decode(String.self, forKey: .recording),
                name: try container.decode(String.self, forKey: .name),
                dropped: try container.decode(Int.self, forKey: .dropped),
                first: try container.decode(Int.self, forKey: .first),
                events: try container.decode([RecordedLaneEvent].self, forKey: .events),
                truncated: try container.decode(Int.self, forKey: .truncated)
            )
        case "events":
            self = .events(
                first: try container.decode(Int.self, forKey: .first),
                events: try container.decode([RecordedLaneEvent].self, forKey: .events),
                dropped: try container.decode(Int.self, forKey: .dropped)
            )
        case "deleted": self = .deleted
        case "notFound": self = .notFound
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
        case .snapshot(let recording, let name, let dropped, let first, let events, let truncated):
            try container.encode("snapshot", forKey: .type)
            try container.encode(recording, forKey: .recording)
            try container.encode(name, forKey: .name)
            try container.encode(dropped, forKey: .dropped)
            try container.encode(first, forKey: .first)
            try container.encode(truncated, forKey: .truncated)
            try container.encode(events, forKey: .events)
        case .events(let first, let events, let dropped):
            try container.encode("events", forKey: .type)
            try container.encode(first, forKey: .first)
            try container.encode(events, forKey: .events)
            try container.encode(dropped, forKey: .dropped)
        case .deleted: try container.encode("deleted", forKey: .type)
        case .notFound: try container.encode("notFound", forKey: .type)
        }
    }
}
