import Foundation
import HTTPTypes
import Tributary
import TributaryLabWire

/// Reading recordings, for the REST API, the files and the diagrams: the controllers read
/// through the service, never the store.
extension RecordingService {
    /// The most recently changed recordings, at most `limit`.
    func list(limit: Int) async throws(RecordingStoreError) -> [RecordingSummary] {
        try await store.list(limit: limit)
    }

    /// A recording.
    func recording(_ id: String) async throws(RecordingStoreError) -> RecordingSummary {
        try await store.recording(id)
    }

    /// Up to `limit` of a recording's events, from its event `first`.
    func events(_ id: String, from first: Int, limit: Int) async throws(RecordingStoreError) -> RecordingSlice
    {
        try await store.events(id, from: first, limit: limit)
    }

    /// The first event of `recorder`'s that the recording lacks.
    func next(_ id: String, recorder: UUID) async throws(RecordingStoreError) -> Int {
        try await store.next(id, recorder: recorder)
    }

    /// How many events ``pages(of:_:)`` reads at a time: events of long texts and structures
    /// take up to about 80 KB each, and a download of 10,000 at a time had held 800 MB.
    static let pageEvents = 256

    /// Reads the recording's first `recording.events` events a page at a time.
    func pages(
        of recording: RecordingSummary,
        _ body: ([RecordedLaneEvent]) async throws -> Void
    ) async throws {
        var next = 0
        while next < recording.events {
            let slice = try await store.events(
                recording.id,
                from: next,
                limit: min(Self.pageEvents, recording.events - next)
            )
            guard !slice.events.isEmpty else { return }
            try await body(slice.events)
            next += slice.events.count
        }
    }

    /// A recording's lanes and their events, read to be made into a diagram, a document or a
    /// test.
    struct Replay: Sendable {
        var recording: RecordingSummary
        var lanes: [String]
        var events: [RecordedLaneEvent]
    }

    /// What `body` makes of the recording's lanes named in `names` (all when nil or empty) and
    /// their events; `503 busy` when as many replays as the lab makes at once are under way,
    /// counted until `body` returns, for the events are held until then.
    func replaying<Value>(
        _ names: [String]?,
        in id: String,
        _ body: (Replay) async throws -> Value
    ) async throws -> Value {
        try await replays.run(refusing: Self.busy) { try await body(try await read(names, in: id)) }
    }

    /// `503 busy`: the lab is writing as many recordings' files as it does at once.
    static let downloadsBusy = LabError.busy("writing as many recordings' files as it can at once")

    /// `503 busy`: the lab is replaying as many recordings as it does at once.
    static let busy = LabError.busy("replaying as many recordings as it can at once")

    private func read(_ names: [String]?, in id: String) async throws -> Replay {
        let recording = try await store.recording(id)
        guard recording.events <= Self.largestReplay else {
            throw Self.tooLargeToReplay(
                "The recording holds \(recording.events) events; documents, diagrams and tests are made of recordings of at most \(Self.largestReplay). Record a shorter one."
            )
        }
        let lanes =
            names?.isEmpty == false
            ? try await lanes(names ?? [], in: id) : try await store.lanes(id)
        guard lanes.count <= Self.largestReplayLanes else {
            throw Self.tooLargeToReplay(
                "These are \(lanes.count) lanes; documents, diagrams and tests are made of at most \(Self.largestReplayLanes). Name the lanes, as ?lanes=a,b."
            )
        }
        // Counted before they are read: the count of events says nothing of their size.
        let stored = try await store.eventBytes(id, lanes: Set(lanes))
        guard stored <= Self.largestReplayBytes else {
            throw Self.tooLargeToReplay(
                "The lanes' events take \(stored) bytes; documents, diagrams and tests are made of at most \(Self.largestReplayBytes). Choose fewer lanes."
            )
        }
        let events = try await store.events(id, lanes: Set(lanes))
        let bytes = events.reduce(0) { $0 + ($1.value?.utf8.count ?? 0) + ($1.error?.utf8.count ?? 0) }
        guard bytes <= Self.largestReplayText else {
            throw Self.tooLargeToReplay(
                "The lanes' values take \(bytes) bytes; documents, diagrams and tests are made of at most \(Self.largestReplayText). Choose fewer lanes."
            )
        }
        return Replay(recording: recording, lanes: lanes, events: events)
    }

    /// `422 recordingTooLarge`: what was asked is more than a document, a diagram or a test is
    /// made of.
    static func tooLargeToReplay(_ message: String) -> LabError {
        LabError(status: .unprocessableContent, code: "recordingTooLarge", message: message)
    }

    /// The most events a recording may hold to be turned into a document, a diagram or a test.
    static let largestReplay = 100_000
    /// The most lanes turned into one: a diagram of more is of no use to read, and each lane is
    /// a stream of the document made of them.
    static let largestReplayLanes = 256
    /// The most bytes the lanes' events take as they are kept, read or not: lanes and sources,
    /// values, errors and structures.
    static let largestReplayBytes = 32 << 20
    /// The most bytes of values and errors in the lanes turned into one.
    static let largestReplayText = 1 << 20

    /// `names` without repetitions, once each is found to be a lane of the recording; else a
    /// `400` that names those that are not.
    private func lanes(_ names: [String], in id: String) async throws -> [String] {
        var seen: Set<String> = []
        let names = names.filter { seen.insert($0).inserted }
        let known = Set(try await store.lanes(id))
        let unknown = names.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw LabError.badRequest(
                "unknownLanes",
                "The recording has no lane \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); its lanes are \(known.sorted().joined(separator: ", "))."
            )
        }
        return names
    }

}
