public import Foundation
public import TributaryLabWire

/// Events of a recording read in one go, with the recording as it was when they were read.
public struct RecordingSlice: Sendable, Equatable {
    /// The recording, its event count and dropped total included.
    public var recording: RecordingSummary
    /// The number, in the recording, of the first of ``events``.
    public var first: Int
    /// The events, in the recording's order.
    public var events: [RecordedLaneEvent]

    /// A slice of `recording`: `events`, the first of them numbered `first`.
    public init(recording: RecordingSummary, first: Int, events: [RecordedLaneEvent]) {
        self.recording = recording
        self.first = first
        self.events = events
    }
}

/// What appending a recorder's batch came to.
public enum RecordingAppend: Sendable, Equatable {
    /// The events the recording did not hold yet were stored; `stored` has them, numbered from
    /// its `first`.
    case stored(RecordingGrowth)
    /// The recording reached its cap: what fitted was stored, the rest was not.
    case full(RecordingGrowth)
    /// The batch begins after `next`, the first event of this recorder the recording lacks:
    /// something between was never received, and nothing of the batch was stored.
    case gap(next: Int)
}

/// How a recording grew by one batch.
public struct RecordingGrowth: Sendable, Equatable {
    /// The recording, after the batch.
    public var recording: RecordingSummary
    /// The recorder's own number of the first event the recording does not hold yet.
    public var next: Int
    /// What the batch added, numbered in the recording from its ``RecordingSlice/first``.
    public var stored: RecordingSlice

    /// A growth of `recording` by `stored`, after which the recorder's next event is `next`.
    public init(recording: RecordingSummary, next: Int, stored: RecordingSlice) {
        self.recording = recording
        self.next = next
        self.stored = stored
    }
}

/// Why the recording store could not do what it was asked.
public enum RecordingStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no recording with the id.
    case notFound(id: String)
    /// Another recording has the name.
    case nameTaken(String)
    /// The database failed.
    case storage(String)

    public var description: String {
        switch self {
        case .notFound(let id): "There is no recording \(id)."
        case .nameTaken(let name): "There is a recording named \"\(name)\" already; choose another name."
        case .storage(let reason): "The lab's database failed: \(reason)."
        }
    }
}

/// Where the lab keeps recordings: the events of real pipelines that apps send through
/// `LabLaneRecorder`, append-only, numbered from 0 in each recording.
///
/// Each recorder — a UUID of its own — resends what it is not sure the lab holds after a
/// reconnection, so the store keeps, per recorder and recording, how far it has stored, and
/// stores every event once. A batch is appended in one transaction: all that fits, or nothing.
/// The store sits in the same database as the documents, in tables of its own; get it from
/// ``DocumentStore/recordings``.
public protocol RecordingStore: Sendable {
    /// Makes an empty recording named `name`; the name must be free.
    func create(name: String) async throws(RecordingStoreError) -> RecordingSummary
    /// The recording named `name`, made empty when there is none.
    func open(name: String) async throws(RecordingStoreError) -> RecordingSummary
    /// The recording with the id.
    func recording(_ id: String) async throws(RecordingStoreError) -> RecordingSummary
    /// The recordings, most recently grown first, at most `limit` of them.
    func list(limit: Int) async throws(RecordingStoreError) -> [RecordingSummary]
    /// At most `limit` events numbered from `first`, in order.
    func events(_ id: String, from first: Int, limit: Int) async throws(RecordingStoreError) -> RecordingSlice
    /// The latest `limit` events, in order.
    func latestEvents(_ id: String, limit: Int) async throws(RecordingStoreError) -> RecordingSlice
    /// Every event of the named lanes, in order.
    func events(_ id: String, lanes: Set<String>) async throws(RecordingStoreError) -> [RecordedLaneEvent]
    /// The bytes the events of the named lanes take as they are kept, counted without reading
    /// them: what reading them all would hold.
    func eventBytes(_ id: String, lanes: Set<String>) async throws(RecordingStoreError) -> Int
    /// The names of the recording's lanes, sorted.
    func lanes(_ id: String) async throws(RecordingStoreError) -> [String]
    /// The recorder's own number of its first event the recording does not hold yet; 0 for a
    /// recorder it has not heard from.
    func next(_ id: String, recorder: UUID) async throws(RecordingStoreError) -> Int
    /// Appends what of `batch` the recording does not hold yet, up to `cap` events in the
    /// recording, and takes the recorder's `dropped` total.
    func append(
        _ batch: RecordingIngestBatch,
        to id: String,
        recorder: UUID,
        cap: Int
    ) async throws(RecordingStoreError) -> RecordingAppend
    /// Deletes a recording and its events.
    func delete(_ id: String) async throws(RecordingStoreError)
    /// What any of the lab instances sharing the store records or deletes, for a store several
    /// share (``SharedRecordingStore``); nil for a store one instance has to itself.
    var sharedChanges: (@Sendable () -> AsyncStream<StoreChange>)? { get }
}

/// A recording store that several lab instances share, which tells each of them what any of
/// them stored, so that an ingest through one instance reaches the live viewers of every instance.
public protocol SharedRecordingStore: RecordingStore {
    /// Every growth and deletion by any instance, this one's included; it begins with
    /// ``StoreChange/missed`` once the store listens, and again after each reconnection.
    func changes() -> AsyncStream<StoreChange>
}

extension DocumentStore {
    public var recordings: (any RecordingStore)? { nil }
}

/// The rules every store applies to recordings.
enum Recordings {
    /// A name: 1 to 100 characters, none of them control characters; nil when it is one, else
    /// why it is not.
    static func problem(withName name: String) -> String? {
        guard (1...100).contains(name.count) else {
            return "A recording's name has 1 to 100 characters; this one has \(name.count)."
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "A recording's name has no control characters, such as line breaks or tabs."
        }
        return nil
    }

    /// An empty recording named `name`, under a new id.
    static func new(named name: String) -> RecordingSummary {
        RecordingSummary(
            id: DocumentID.random().description,
            name: name,
            events: 0,
            dropped: 0,
            updatedAt: DocumentCursor.now()
        )
    }

    /// How an event is kept: its JSON text.
    static func body(of event: RecordedLaneEvent) -> String {
        event.json
    }

    /// A recording's dropped count after one recorder's running total grows by `growth`: each
    /// recorder's total is checked on the way in, and the sum saturates all the same.
    static func dropped(_ total: Int, adding growth: Int) -> Int {
        let (sum, overflow) = total.addingReportingOverflow(growth)
        return overflow ? Int.max : sum
    }

    /// An event as a store reads it back.
    static func event(from body: String) throws(RecordingStoreError) -> RecordedLaneEvent {
        do {
            return try RecordedLaneEvent(json: Data(body.utf8))
        } catch {
            throw .storage("a stored event no longer reads: \(error)")
        }
    }

    /// What appending `batch` means, for every backend: given the recording as it is and what
    /// it holds of this recorder (`next`, the recorder's first event it lacks, and the
    /// recorder's `dropped` total), the events to store, the recorder's and the recording's
    /// rows after them, and the answer. A batch that begins after `next` changes nothing and
    /// answers the gap.
    static func append(
        _ batch: RecordingIngestBatch,
        to before: RecordingSummary,
        recorder: (next: Int, dropped: Int),
        cap: Int
    ) -> RecordingAppendPlan {
        guard batch.first <= recorder.next else {
            return RecordingAppendPlan(
                fresh: [],
                first: before.events,
                recorder: recorder,
                recorderChanged: false,
                recording: nil,
                outcome: .gap(next: recorder.next)
            )
        }
        let unseen = batch.events.dropFirst(min(recorder.next - batch.first, batch.events.count))
        let fresh = unseen.prefix(max(0, cap - before.events))
        let recorderAfter = (next: recorder.next + fresh.count, dropped: max(recorder.dropped, batch.dropped))
        var after = before
        after.events += fresh.count
        after.dropped = dropped(after.dropped, adding: recorderAfter.dropped - recorder.dropped)
        let changed = after != before
        if changed { after.updatedAt = DocumentCursor.now() }
        let growth = RecordingGrowth(
            recording: after,
            next: recorderAfter.next,
            stored: RecordingSlice(recording: after, first: before.events, events: Array(fresh))
        )
        return RecordingAppendPlan(
            fresh: fresh,
            first: before.events,
            recorder: recorderAfter,
            recorderChanged: recorderAfter != recorder,
            recording: changed ? after : nil,
            outcome: fresh.count < unseen.count ? .full(growth) : .stored(growth)
        )
    }
}

/// What one batch does to a recording, decided by ``Recordings/append(_:to:recorder:cap:)``
/// and carried out by a backend: rows are written only where something changed.
struct RecordingAppendPlan {
    /// The events to store, of the batch's, numbered in the recording from ``first``.
    var fresh: ArraySlice<RecordedLaneEvent>
    var first: Int
    /// The recorder's row after the batch, and whether it differs from before.
    var recorder: (next: Int, dropped: Int)
    var recorderChanged: Bool
    /// The recording's row after the batch, when it changed; nil when it is as it was.
    var recording: RecordingSummary?
    /// The answer.
    var outcome: RecordingAppend

    /// The numbers ``fresh`` are stored at.
    var numbers: Range<Int> { first..<(first + fresh.count) }
}

extension RecordingStore {
    public var sharedChanges: (@Sendable () -> AsyncStream<StoreChange>)? { nil }
}

extension SharedRecordingStore {
    public var sharedChanges: (@Sendable () -> AsyncStream<StoreChange>)? { { self.changes() } }
}
