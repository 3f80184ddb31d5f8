import Benchmark
import CombineSchedulers
import Dispatch
import Tributary
import TributaryStreams

// Running a 100,000-event document (delay, map, filter, scan, combineLatest) in virtual time,
// beside the same chain written by hand with the same operators on the same kind of
// scheduler.

private let eventsPerStream = 50_000

private func document() throws -> StreamDocument {
    let a = StreamDefinition(
        id: "a",
        items: (0..<eventsPerStream).map { StreamItem(.integer($0), delay: 0.01) }
    )
    let b = StreamDefinition(
        id: "b",
        items: (0..<eventsPerStream).map { StreamItem(.integer($0), delay: 0.01) }
    )
    return try StreamDocument(
        streams: [a, b],
        nodes: [
            StreamNode(id: "delayed", .delay(seconds: 0.5), inputs: ["a"]),
            StreamNode(id: "mapped", .map(try StreamExpression("$0 * 2")), inputs: ["delayed"]),
            StreamNode(id: "kept", .filter(try StreamExpression("$0 % 3 != 0")), inputs: ["mapped"]),
            StreamNode(id: "sum", .scan(initial: 0, try StreamExpression("acc + $0")), inputs: ["kept"]),
            StreamNode(id: "joined", .combineLatest, inputs: ["sum", "b"]),
        ]
    )
}

let runBenchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: 10,
        thresholds: [:]
    )
    Benchmark("DocumentRun/StreamRunner", configuration: configuration) { benchmark in
        let document = try document()
        benchmark.startMeasurement()
        let timeline = try StreamRunner().run(document, lanes: ["joined"])
        benchmark.stopMeasurement()
        precondition(!timeline.isTruncated && timeline.events.count > eventsPerStream)
        blackHole(timeline)
    }
    Benchmark("DocumentRun/HandWrittenCombine+TestScheduler", configuration: configuration) { benchmark in
        benchmark.startMeasurement()
        let count = handWritten(on: DispatchQueue.test) { $0.advance(by: .seconds(1_000)) }
        benchmark.stopMeasurement()
        blackHole(count)
    }
    Benchmark("DocumentRun/HandWrittenCombine+VirtualTimeScheduler", configuration: configuration) {
        benchmark in
        benchmark.startMeasurement()
        let count = handWritten(on: VirtualTimeScheduler()) { $0.advance(by: .seconds(1_000)) }
        benchmark.stopMeasurement()
        blackHole(count)
    }
}

/// The document's chain written with Combine's operators directly; returns how many values
/// the last one published.
private func handWritten<S: Scheduler>(on scheduler: S, run: (S) -> Void) -> Int
where S.SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    let values = Array(0..<eventsPerStream)
    func series() -> AnyPublisher<Int, Never> {
        Publishers.Sequence<[Int], Never>(sequence: values)
            .flatMap(maxPublishers: .max(1)) { Just($0).delay(for: .milliseconds(10), scheduler: scheduler) }
            .eraseToAnyPublisher()
    }
    var count = 0
    let cancellable = series()
        .delay(for: .milliseconds(500), scheduler: scheduler)
        .map { $0 * 2 }
        .filter { $0 % 3 != 0 }
        .scan(0, +)
        .combineLatest(series())
        .sink { _ in count += 1 }
    run(scheduler)
    cancellable.cancel()
    precondition(count > eventsPerStream)
    return count
}
