import Foundation
import TributaryLabWire

/// What a backend of the ``RecordingStore`` provides: a handful of statements, each its own
/// transaction. What a missing recording, a taken name, a slice and a recorder's next event mean
/// is written once, in this protocol's extension; what an append means is written once in
/// ``Recordings/append(_:to:recorder:cap:)``.
protocol RecordingTables: RecordingStore {
    /// Inserts `made` unless its name is taken; whether it did.
    func insert(_ made: RecordingSummary) async throws(RecordingStoreError) -> Bool
    /// The recording named `name`, or nil when there is none.
    func summary(named name: String) async throws(RecordingStoreError) -> RecordingSummary?
    /// The recording `id`, or nil when there is none.
    func summary(_ id: String) async throws(RecordingStoreError) -> RecordingSummary?
    /// Up to `count` recordings, most recently changed first.
    func summaries(count: Int) async throws(RecordingStoreError) -> [RecordingSummary]
    /// In one transaction: the recording `id`, where its slice starts (`start` of it), and the
    /// bodies of up to `count` events from there; nil when there is no such recording.
    func bodies(
        _ id: String,
        from start: @escaping @Sendable (RecordingSummary) -> Int,
        count: Int
    ) async throws(RecordingStoreError) -> (recording: RecordingSummary, first: Int, bodies: [String])?
    /// The bodies of the recording's events in `lanes`, in order; nil when there is no such
    /// recording.
    func bodies(_ id: String, lanes: [String]) async throws(RecordingStoreError) -> [String]?
    /// The bytes of the bodies of the recording's events in `lanes`; nil when there is no such
    /// recording.
    func bodyBytes(_ id: String, lanes: [String]) async throws(RecordingStoreError) -> Int?
    /// The recording's lane names, sorted; nil when there is no such recording.
    func laneNames(_ id: String) async throws(RecordingStoreError) -> [String]?
    /// The recording's next event from `recorder`, nil when the recording holds none of its
    /// events; nil for the whole when there is no such recording.
    func recorderNext(_ id: String, recorder: String) async throws(RecordingStoreError) -> Int??
    /// In one transaction: reads the recording and what it holds of the recorder, and carries
    /// out ``Recordings/append(_:to:recorder:cap:)``'s plan for the batch; nil when there is no
    /// such recording.
    func store(_ pending: PendingAppend) async throws(RecordingStoreError) -> RecordingAppend?
    /// Deletes a recording and its events; false when there was none.
    func remove(_ id: String) async throws(RecordingStoreError) -> Bool
}

extension RecordingTables {
    public func create(name: String) async throws(RecordingStoreError) -> RecordingSummary {
        let made = Recordings.new(named: name)
        guard try await insert(made) else { throw .nameTaken(name) }
        return made
    }

    public func open(name: String) async throws(RecordingStoreError) -> RecordingSummary {
        _ = try await insert(Recordings.new(named: name))
        guard let found = try await summary(named: name) else {
            throw .storage("the recording named \(name) vanished as it was made")
        }
        return found
    }

    public func recording(_ id: String) async throws(RecordingStoreError) -> RecordingSummary {
        guard let found = try await summary(id) else { throw .notFound(id: id) }
        return found
    }

    public func list(limit: Int) async throws(RecordingStoreError) -> [RecordingSummary] {
        try await summaries(count: max(1, limit))
    }

    public func events(
        _ id: String,
        from first: Int,
        limit: Int
    ) async throws(RecordingStoreError) -> RecordingSlice {
        try await slice(id, limit: limit) { _ in max(0, first) }
    }

    public func latestEvents(_ id: String, limit: Int) async throws(RecordingStoreError) -> RecordingSlice {
        try await slice(id, limit: limit) { max(0, $0.events - limit) }
    }

    public func events(
        _ id: String,
        lanes: Set<String>
    ) async throws(RecordingStoreError) -> [RecordedLaneEvent] {
        guard let bodies = try await bodies(id, lanes: Array(lanes)) else { throw .notFound(id: id) }
        return try Self.events(bodies)
    }

    public func eventBytes(_ id: String, lanes: Set<String>) async throws(RecordingStoreError) -> Int {
        guard let bytes = try await bodyBytes(id, lanes: Array(lanes)) else { throw .notFound(id: id) }
        return bytes
    }

    public func lanes(_ id: String) async throws(RecordingStoreError) -> [String] {
        guard let lanes = try await laneNames(id) else { throw .notFound(id: id) }
        return lanes
    }

    /// A recorder the recording has heard nothing from starts at its event 0.
    public func next(_ id: String, recorder: UUID) async throws(RecordingStoreError) -> Int {
        guard let next = try await recorderNext(id, recorder: recorder.uuidString.lowercased()) else {
            throw .notFound(id: id)
        }
        return next ?? 0
    }

    public func append(
        _ batch: RecordingIngestBatch,
        to id: String,
        recorder: UUID,
        cap: Int
    ) async throws(RecordingStoreError) -> RecordingAppend {
        let pending = PendingAppend(
            batch: batch,
            bodies: batch.events.map(Recordings.body(of:)),
            id: id,
            recorder: recorder.uuidString.lowercased(),
            cap: cap
        )
        guard let outcome = try await store(pending) else { throw .notFound(id: id) }
        return outcome
    }

    public func delete(_ id: String) async throws(RecordingStoreError) {
        guard try await remove(id) else { throw .notFound(id: id) }
    }

    private func slice(
        _ id: String,
        limit: Int,
        from start: @escaping @Sendable (RecordingSummary) -> Int
    ) async throws(RecordingStoreError) -> RecordingSlice {
        guard let found = try await bodies(id, from: start, count: max(0, limit)) else {
            throw .notFound(id: id)
        }
        return RecordingSlice(
            recording: found.recording,
            first: found.first,
            events: try Self.events(found.bodies)
        )
    }

    private static func events(_ bodies: [String]) throws(RecordingStoreError) -> [RecordedLaneEvent] {
        var events: [RecordedLaneEvent] = []
        events.reserveCapacity(bodies.count)
        for body in bodies { events.append(try Recordings.event(from: body)) }
        return events
    }
}

/// A batch on its way into a recording, as ``RecordingTables/store(_:)`` is given it.
struct PendingAppend: Sendable {
    var batch: RecordingIngestBatch
    /// The batch's events as they are kept, in order.
    var bodies: [String]
    /// The recording's id.
    var id: String
    /// The recorder's id, in lowercase.
    var recorder: String
    /// The most events the recording may hold.
    var cap: Int
}
