import Foundation
import Testing
import TributaryLab
import TributaryLabWire
import TributaryTestSupport

/// `count` value events of lane `lane`, a tenth of a second apart from `start`.
func laneEvents(_ lane: String, _ count: Int, start: Int = 0) -> [RecordedLaneEvent] {
    (start..<(start + count)).map {
        RecordedLaneEvent(
            lane: lane,
            subscription: 1,
            kind: .value,
            value: "\($0)",
            t: Double($0) / 10,
            source: "App/Search.swift:14"
        )
    }
}

extension StorePlace {
    /// Opens the recordings of a store here, for the duration of `body`.
    func withRecordings<Result: Sendable>(
        _ body: @Sendable (any RecordingStore) async throws -> Result
    ) async throws -> Result {
        try await withStore { store in try await body(try #require(store.recordings)) }
    }
}

/// The recording store on both backends, in the document store's own database.
@Suite(.timeLimit(.minutes(5)))
struct RecordingStoreTests {
    let recorder = UUID()

    /// Events appended are there, numbered in order, when the store is opened again.
    @Test(arguments: StoreBackend.available)
    func keepsEventsInOrderAcrossReopening(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            let id = try await place.withRecordings { store in
                let made = try await store.create(name: "search screen")
                #expect(made.events == 0 && made.dropped == 0)
                let batch = RecordingIngestBatch(first: 0, events: laneEvents("search", 3), dropped: 2)
                guard
                    case .stored(let growth) = try await store.append(
                        batch,
                        to: made.id,
                        recorder: recorder,
                        cap: 10
                    )
                else {
                    Issue.record("The batch was not stored.")
                    return made.id
                }
                #expect(growth.next == 3 && growth.stored.first == 0 && growth.stored.events.count == 3)
                let more = RecordingIngestBatch(
                    first: 3,
                    events: laneEvents("results", 2, start: 3),
                    dropped: 2
                )
                _ = try await store.append(more, to: made.id, recorder: recorder, cap: 10)
                return made.id
            }
            try await place.withRecordings { store in
                let recording = try await store.recording(id)
                #expect(recording.name == "search screen" && recording.events == 5 && recording.dropped == 2)
                let all = try await store.events(id, from: 0, limit: 100)
                #expect(all.events == laneEvents("search", 3) + laneEvents("results", 2, start: 3))
                let page = try await store.events(id, from: 2, limit: 2)
                #expect(page.first == 2 && page.events.map(\.value) == ["2", "3"])
                let latest = try await store.latestEvents(id, limit: 2)
                #expect(latest.first == 3 && latest.events.map(\.value) == ["3", "4"])
                #expect(try await store.events(id, lanes: ["results"]).map(\.value) == ["3", "4"])
                // Each event is kept as its JSON, of at least 60 bytes; the lanes' bytes add up.
                let results = try await store.eventBytes(id, lanes: ["results"])
                let search = try await store.eventBytes(id, lanes: ["search"])
                #expect(results >= 2 * 60 && search >= 3 * 60)
                #expect(try await store.eventBytes(id, lanes: ["results", "search"]) == results + search)
                #expect(try await store.eventBytes(id, lanes: []) == 0)
                await #expect(throws: RecordingStoreError.self) {
                    try await store.eventBytes("AAAAAAAAAAAAAAAAAAAAAA", lanes: ["results"])
                }
                #expect(try await store.lanes(id) == ["results", "search"])
                #expect(try await store.next(id, recorder: recorder) == 5)
                #expect(try await store.next(id, recorder: UUID()) == 0)
                #expect(try await store.list(limit: 10).map(\.id) == [id])
            }
        }
    }

    /// A batch sent again, whole or overlapping, stores only what was not stored; one that
    /// leaves a gap stores nothing.
    @Test(arguments: StoreBackend.available)
    func storesAResentBatchOnceAndRefusesAGap(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withRecordings { store in
                let id = try await store.create(name: "resent").id
                let batch = RecordingIngestBatch(first: 0, events: laneEvents("a", 4), dropped: 0)
                _ = try await store.append(batch, to: id, recorder: recorder, cap: 100)
                let before = try await store.recording(id)
                // Once the clock has moved on, a resent batch changes nothing: not even the time.
                try await waitUntil { Date().timeIntervalSince(before.updatedAt) > 0.01 }
                let again = try await store.append(batch, to: id, recorder: recorder, cap: 100)
                guard case .stored(let growth) = again else {
                    Issue.record("A resent batch was not taken: \(again)")
                    return
                }
                #expect(growth.next == 4 && growth.stored.events.isEmpty)
                #expect(growth.recording == before)
                #expect(try await store.recording(id) == before)
                let overlapping = RecordingIngestBatch(
                    first: 2,
                    events: laneEvents("a", 4, start: 2),
                    dropped: 1
                )
                _ = try await store.append(overlapping, to: id, recorder: recorder, cap: 100)
                let gap = RecordingIngestBatch(first: 9, events: laneEvents("a", 1, start: 9), dropped: 1)
                #expect(try await store.append(gap, to: id, recorder: recorder, cap: 100) == .gap(next: 6))
                let events = try await store.events(id, from: 0, limit: 100).events
                #expect(events.map(\.value) == (0..<6).map { "\($0)" })
                #expect(try await store.recording(id).dropped == 1)
                // Another recorder numbers its own events from 0, and its dropped total adds up.
                let other = RecordingIngestBatch(first: 0, events: laneEvents("b", 1), dropped: 3)
                _ = try await store.append(other, to: id, recorder: UUID(), cap: 100)
                let recording = try await store.recording(id)
                #expect(recording.events == 7 && recording.dropped == 4)
            }
        }
    }

    /// A batch past the cap stores what fits and says the recording is full.
    @Test(arguments: StoreBackend.available)
    func storesWhatFitsUnderTheCap(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withRecordings { store in
                let id = try await store.create(name: "capped").id
                let batch = RecordingIngestBatch(first: 0, events: laneEvents("a", 5), dropped: 0)
                guard
                    case .full(let growth) = try await store.append(batch, to: id, recorder: recorder, cap: 3)
                else {
                    Issue.record("A batch past the cap was not full.")
                    return
                }
                #expect(growth.next == 3 && growth.recording.events == 3)
                let rest = RecordingIngestBatch(first: 3, events: laneEvents("a", 2, start: 3), dropped: 0)
                guard case .full = try await store.append(rest, to: id, recorder: recorder, cap: 3) else {
                    Issue.record("A full recording took more.")
                    return
                }
                #expect(try await store.recording(id).events == 3)
            }
        }
    }

    /// Names are unique; opening by name makes the recording once; deleting takes its events.
    @Test(arguments: StoreBackend.available)
    func namesAreUniqueAndDeletingTakesEverything(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withRecordings { store in
                let made = try await store.create(name: "one")
                await #expect(throws: RecordingStoreError.nameTaken("one")) {
                    try await store.create(name: "one")
                }
                #expect(try await store.open(name: "one").id == made.id)
                let opened = try await store.open(name: "two")
                #expect(try await store.open(name: "two").id == opened.id)
                let batch = RecordingIngestBatch(first: 0, events: laneEvents("a", 2), dropped: 0)
                _ = try await store.append(batch, to: made.id, recorder: recorder, cap: 10)
                try await store.delete(made.id)
                await #expect(throws: RecordingStoreError.notFound(id: made.id)) {
                    try await store.recording(made.id)
                }
                await #expect(throws: RecordingStoreError.notFound(id: made.id)) {
                    try await store.append(batch, to: made.id, recorder: recorder, cap: 10)
                }
                await #expect(throws: RecordingStoreError.notFound(id: made.id)) {
                    try await store.delete(made.id)
                }
                #expect(try await store.list(limit: 10).map(\.name) == ["two"])
            }
        }
    }

    /// Recorders appending to one recording at once each get their events stored once, and the
    /// recording's numbers stay consecutive.
    @Test(arguments: StoreBackend.available)
    func racingRecordersKeepTheNumbersConsecutive(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withRecordings { store in
                let id = try await store.create(name: "busy").id
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for lane in ["a", "b", "c", "d"] {
                        group.addTask {
                            let recorder = UUID()
                            for first in stride(from: 0, to: 20, by: 5) {
                                let batch = RecordingIngestBatch(
                                    first: first,
                                    events: laneEvents(lane, 5, start: first),
                                    dropped: 0
                                )
                                _ = try await store.append(batch, to: id, recorder: recorder, cap: 1_000)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let events = try await store.events(id, from: 0, limit: 1_000).events
                #expect(events.count == 80)
                for lane in ["a", "b", "c", "d"] {
                    #expect(events.filter { $0.lane == lane }.map(\.value) == (0..<20).map { "\($0)" })
                }
            }
        }
    }
}
