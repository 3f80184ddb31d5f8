import Foundation
import NIOCore
import Tributary
import TributaryLabWire

/// The one way recordings are made, grown and deleted, for the REST API and the ingest
/// connections alike: checked before they reach the store, stored in one transaction per batch,
/// then sent to every live viewer.
struct RecordingService: Sendable {
    let store: any RecordingStore
    let hub: RecordingHub
    /// The most events a recording holds.
    let cap: Int
    /// The replays under way (``replaying(_:in:_:)``).
    let replays: Admission
    /// The downloads being written: each holds a page of events at a time.
    let downloads = Admission(most: 4)

    init(store: any RecordingStore, hub: RecordingHub, cap: Int, replaysAtOnce: Int = 2) {
        self.store = store
        self.hub = hub
        self.cap = cap
        replays = Admission(most: replaysAtOnce)
    }

    /// How many events a live viewer's snapshot holds at the most, newest first; fewer when
    /// they would take more than half of the viewer's buffer.
    static let snapshotEvents = 50_000

    /// How many events are read from the store at a time to bring viewers up to date.
    static let catchUpEvents = 10_000

    func create(name: String) async throws -> RecordingSummary {
        try await store.create(name: try Self.checked(name))
    }

    /// The recording that `segment` of a path names: its id, or else its name, made when missing.
    func open(_ segment: String) async throws -> RecordingSummary {
        if DocumentID(segment) != nil {
            do throws(RecordingStoreError) {
                return try await store.recording(segment)
            } catch {
                guard case .notFound = error else { throw error }
            }
        }
        return try await store.open(name: try Self.checked(segment))
    }

    /// Brings this instance's viewers a change made through another instance that shares the
    /// store.
    func follow(_ change: StoreChange) async {
        switch change {
        case .changed(let id, let events):
            // Events stored through this instance have reached its viewers already.
            guard let behind = hub.behind(id.description, events: events) else { return }
            await catchUp(id.description, from: behind)
        case .deleted(let id):
            hub.publishDeletion(of: id.description)
        case .missed:
            for id in hub.viewedRecordings() {
                do throws(RecordingStoreError) {
                    let recording = try await store.recording(id)
                    if let behind = hub.behind(id, events: recording.events) {
                        await catchUp(id, from: behind)
                    }
                } catch {
                    if case .notFound = error { hub.publishDeletion(of: id) }
                }
            }
        }
    }

    func delete(_ id: String) async throws(RecordingStoreError) {
        try await store.delete(id)
        hub.publishDeletion(of: id)
    }

    /// Appends a recorder's batch and sends what it added to the live viewers.
    func append(
        _ batch: RecordingIngestBatch,
        to id: String,
        recorder: UUID
    ) async throws(RecordingStoreError) -> RecordingAppend {
        let outcome = try await store.append(batch, to: id, recorder: recorder, cap: cap)
        switch outcome {
        case .stored(let growth), .full(let growth):
            if let behind = hub.publish(growth.stored) { await catchUp(id, from: behind) }
        case .gap: break
        }
        return outcome
    }

    /// Sends viewers of `id` the events from `first` on that they have not been sent, read from
    /// the store; one that is deleted meanwhile is told so.
    func catchUp(_ id: String, from first: Int) async {
        var from = first
        while true {
            let slice: RecordingSlice
            do throws(RecordingStoreError) {
                slice = try await store.events(id, from: from, limit: Self.catchUpEvents)
            } catch {
                if case .notFound = error { hub.publishDeletion(of: id) }
                return
            }
            hub.publish(slice)
            guard let next = hub.behind(id, events: slice.recording.events), next > from else { return }
            from = next
        }
    }

    /// Sends a new viewer its snapshot: the latest events that fit half its buffer. False when
    /// there is no such recording.
    func showSnapshot(of id: String, to viewer: Int, bufferBytes: Int) async -> Bool {
        // Read newest first, a thousand events at a time, until the snapshot's count or half the
        // viewer's buffer is reached: 50,000 events of 16 KiB values would be 800 MB at once.
        guard let newest = try? await store.latestEvents(id, limit: Self.readSize) else { return false }
        var chunks: [[RecordedLaneEvent]] = []
        var count = 0
        var room = bufferBytes / 2
        var first = newest.first + newest.events.count
        var pending = newest
        while true {
            let (kept, bytes) = Self.latest(of: pending.events, fitting: room, atLeastOne: chunks.isEmpty)
            if kept > 0 {
                chunks.append(Array(pending.events.suffix(kept)))
                count += kept
                room -= bytes
                first = pending.first + pending.events.count - kept
            }
            guard kept == pending.events.count, first > 0, count < Self.snapshotEvents else { break }
            let from = max(0, first - min(Self.readSize, Self.snapshotEvents - count))
            guard let older = try? await store.events(id, from: from, limit: first - from),
                !older.events.isEmpty
            else { break }
            pending = older
        }
        let slice = RecordingSlice(
            recording: newest.recording,
            first: first,
            events: chunks.reversed().flatMap { $0 }
        )
        if hub.show(slice, truncated: slice.first, to: viewer) {
            await catchUp(id, from: slice.first + slice.events.count)
        }
        return true
    }

    /// How many of the latest `events` take at most `bytes` as JSON (at least one, when
    /// `atLeastOne`), and the bytes they take: each measured as it is written, newest first,
    /// until the next would not fit.
    static func latest(
        of events: [RecordedLaneEvent],
        fitting bytes: Int,
        atLeastOne: Bool = true
    ) -> (count: Int, bytes: Int) {
        var total = 0
        var kept = 0
        var scratch: [UInt8] = []
        for event in events.reversed() {
            scratch.removeAll(keepingCapacity: true)
            event.appendJSON(to: &scratch)
            guard total + scratch.count + 1 <= bytes || (kept == 0 && atLeastOne) else { break }
            total += scratch.count + 1
            kept += 1
        }
        return (kept, total)
    }

    /// How many events are read from the store at a time for a snapshot.
    static let readSize = 1_000

    /// `name`, when it is one a recording may have; else a `400` that says why.
    static func checked(_ name: String) throws(LabError) -> String {
        if let problem = Recordings.problem(withName: name) { throw .badRequest("badName", problem) }
        return name
    }
}
