import Benchmark
import Foundation
import Tributary
import TributaryLab
import TributaryLabClient
import TributaryLabWire

// Lanes, each beside its floor in one run: 100,000 values through `map` bare, through a lane
// nobody records, into `LaneMemory`, and into a `LabLaneRecorder` sending to a running lab (the
// sending thread's cost); and how fast one lab stores what one recorder sends, with the two
// steps that take the lab's time apart: reading the batches (by hand, beside `JSONDecoder`) and
// storing them in SQLite.

private let laneValues = 100_000
private let ingestEvents = 200_000

/// The batches a recorder sends for `ingestEvents` events, as JSON.
private let ingestBatches: [Data] = stride(from: 0, to: ingestEvents, by: 1_000).map { first in
    let events = (first..<(first + 1_000)).map { index in
        RecordedLaneEvent(
            lane: "ingest",
            subscription: 1,
            kind: .value,
            value: String(index),
            t: Double(index) * 5e-6,
            source: "Bench.swift:1"
        )
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(RecordingIngestBatch(first: first, events: events, dropped: 0))) ?? Data()
}

private var laneConfiguration: Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 20,
        thresholds: [:]
    )
}

/// What the sink does with each value, kept from the optimiser.
private final class Total: @unchecked Sendable {
    // @unchecked: each benchmark owns its instance on one task.
    var value = 0
}

/// Sends `laneValues` values through `build(subject)` into a sink, measuring the sends.
private func pumpThroughMap<P: Publisher>(
    _ benchmark: Benchmark,
    _ build: (PassthroughSubject<Int, Never>) -> P
) where P.Output == Int, P.Failure == Never {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let cancellable = build(subject).map { $0 &+ 1 }.sink { total.value &+= $0 }
    benchmark.startMeasurement()
    for value in 0..<laneValues {
        subject.send(value)
    }
    benchmark.stopMeasurement()
    blackHole(total.value)
    cancellable.cancel()
}

/// `laneValues` integers waiting in an `AsyncStream`'s buffer: a loop over it suspends on none.
private func numbers() -> AsyncStream<Int> {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    for value in 0..<laneValues { continuation.yield(value) }
    continuation.finish()
    return stream
}

/// Iterates `sequence` with `for await`, measuring the loop.
private func iterate<S: AsyncSequence>(_ benchmark: Benchmark, _ sequence: S) async
where S.Element == Int, S.Failure == Never {
    var total = 0
    benchmark.startMeasurement()
    for await value in sequence {
        total &+= value
    }
    benchmark.stopMeasurement()
    blackHole(total)
}

/// A screen's state as a view model keeps it, for the structured lanes.
private struct ScreenState: Encodable {
    var query: String
    var count: Int
    var results: [String]
    var selected: Int?
}

/// Sends `laneValues` states through `build(subject)` into a sink, measuring the sends.
private func pumpStates<P: Publisher>(
    _ benchmark: Benchmark,
    _ build: (PassthroughSubject<ScreenState, Never>) -> P
) where P.Output == ScreenState, P.Failure == Never {
    let subject = PassthroughSubject<ScreenState, Never>()
    let total = Total()
    let cancellable = build(subject).map { $0.count &+ 1 }.sink { total.value &+= $0 }
    var state = ScreenState(
        query: "swift",
        count: 0,
        results: ["Swift 6", "Tributary", "Lanes"],
        selected: nil
    )
    benchmark.startMeasurement()
    for value in 0..<laneValues {
        state.count = value
        subject.send(state)
    }
    benchmark.stopMeasurement()
    blackHole(total.value)
    cancellable.cancel()
}

func laneBenchmarks() {
    Benchmark("Lane.map.structured.LaneMemory", configuration: laneConfiguration) { benchmark in
        let memory = LaneMemory()
        pumpThroughMap(benchmark) { $0.lane("bench", encoding: .json, recorder: memory) }
        blackHole(memory.events.count)
    }
    Benchmark("Lane.state.bare", configuration: laneConfiguration) { benchmark in
        pumpStates(benchmark) { $0 }
    }
    Benchmark("Lane.state.LaneMemory", configuration: laneConfiguration) { benchmark in
        let memory = LaneMemory()
        pumpStates(benchmark) { $0.lane("state", recorder: memory) }
        blackHole(memory.events.count)
    }
    Benchmark("Lane.state.structured.LaneMemory", configuration: laneConfiguration) { benchmark in
        let memory = LaneMemory()
        pumpStates(benchmark) { $0.lane("state", encoding: .json, recorder: memory) }
        blackHole(memory.events.count)
    }
    // The alternative: each state written by JSONEncoder as the lane's description.
    Benchmark("Lane.state.JSONEncoder.LaneMemory", configuration: laneConfiguration) { benchmark in
        let memory = LaneMemory()
        let encoder = JSONEncoder()
        pumpStates(benchmark) {
            $0.lane("state", recorder: memory) { state in
                String(decoding: (try? encoder.encode(state)) ?? Data(), as: UTF8.self)
            }
        }
        blackHole(memory.events.count)
    }
    Benchmark("Lane.async.bare", configuration: laneConfiguration) { benchmark in
        await iterate(benchmark, numbers())
    }
    Benchmark("Lane.async.nobodyRecording", configuration: laneConfiguration) { benchmark in
        await iterate(benchmark, numbers().lane("bench"))
    }
    Benchmark("Lane.async.LaneMemory", configuration: laneConfiguration) { benchmark in
        let memory = LaneMemory()
        await iterate(benchmark, numbers().lane("bench", recorder: memory))
        blackHole(memory.events.count)
    }
    Benchmark("Lane.map.bare", configuration: laneConfiguration) { benchmark in
        pumpThroughMap(benchmark) { $0 }
    }
    Benchmark("Lane.map.nobodyRecording", configuration: laneConfiguration) { benchmark in
        pumpThroughMap(benchmark) { $0.lane("bench") }
    }
    Benchmark("Lane.map.LaneMemory", configuration: laneConfiguration) { benchmark in
        let memory = LaneMemory()
        pumpThroughMap(benchmark) { $0.lane("bench", recorder: memory) }
        blackHole(memory.events.count)
    }
    Benchmark("Lane.map.LabLaneRecorder", configuration: laneConfiguration) { benchmark in
        let lab = try await RunningLab()
        let recorder = LabLaneRecorder(
            lab: lab.url,
            token: lab.token,
            recording: "bench-\(UUID().uuidString)",
            capacity: laneValues * 2
        )
        pumpThroughMap(benchmark) { $0.lane("bench", recorder: recorder) }
        try await recorder.flush(timeout: .seconds(60))
        guard recorder.dropped == 0 else {
            throw LabBenchmarkError("the recorder dropped \(recorder.dropped)")
        }
        await lab.stop()
    }
    // The time from the first event recorded to the lab's word that it stored the last.
    Benchmark("Lane.ingest.200k", configuration: laneConfiguration) { benchmark in
        let lab = try await RunningLab()
        let recorder = LabLaneRecorder(
            lab: lab.url,
            token: lab.token,
            recording: "ingest-\(UUID().uuidString)",
            capacity: ingestEvents
        )
        try await recorder.flush(timeout: .seconds(10))
        let events = (0..<ingestEvents).map { index in
            LaneEvent(
                lane: "ingest",
                subscription: 1,
                kind: .value(String(index)),
                time: .microseconds(index * 5),
                source: "Bench.swift:1"
            )
        }
        benchmark.startMeasurement()
        for event in events {
            recorder.record(event)
        }
        try await recorder.flush(timeout: .seconds(120))
        benchmark.stopMeasurement()
        guard recorder.dropped == 0 else {
            throw LabBenchmarkError("the recorder dropped \(recorder.dropped)")
        }
        await lab.stop()
    }
    Benchmark("Lane.read.JSONDecoder", configuration: laneConfiguration) { benchmark in
        var events = 0
        for batch in ingestBatches {
            events += try JSONDecoder().decode(RecordingIngestBatch.self, from: batch).events.count
        }
        blackHole(events)
    }
    Benchmark("Lane.read.byHand", configuration: laneConfiguration) { benchmark in
        var events = 0
        for batch in ingestBatches {
            events += try RecordingIngestBatch(json: batch).events.count
        }
        blackHole(events)
    }
    // The same batches appended straight to a recording in a new SQLite file.
    Benchmark("Lane.store.SQLite", configuration: laneConfiguration) { benchmark in
        let folder = FileManager.default.temporaryDirectory.appending(path: "lane-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let store = try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path).recordings
        else {
            throw LabBenchmarkError("the SQLite store keeps no recordings")
        }
        let batches = try ingestBatches.map { try RecordingIngestBatch(json: $0) }
        let recording = try await store.create(name: "store")
        let recorder = UUID()
        benchmark.startMeasurement()
        for batch in batches {
            _ = try await store.append(batch, to: recording.id, recorder: recorder, cap: 1_000_000)
        }
        benchmark.stopMeasurement()
    }
}
