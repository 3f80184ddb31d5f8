import Benchmark
import Dispatch
import Observation
import Testing
import Tributary
import TributaryTesting

// Observation and async sequences read as publishers, each beside what it stands in for, and
// marble tests at scale:
// - Observed, per change of one property to a sink, beside a @Published property's $value
//   sink, synchronous and delivered on the same scheduler;
// - AsyncSequence.publisher, per element, beside iterating the same AsyncStream with for await;
// - MarbleTest, 10,000 expectations of 20-frame marbles.

private let changes = 100_000
private let manyChanges = 1_000_000
private let elements = 100_000
private let expectations = 10_000

private func configuration(maxIterations: Int = 20) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: maxIterations,
        thresholds: [:]
    )
}

/// A scheduler whose actions run when it is drained, on the caller's thread: the work of a
/// main queue without its wait.
private final class DrainScheduler: Scheduler, @unchecked Sendable {
    // @unchecked: each benchmark drives its own on one thread.
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    private var actions: [() -> Void] = []
    var now: SchedulerTimeType { SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)) }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        actions.append(action)
    }

    func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        actions.append(action)
    }

    func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        actions.append(action)
        return AnyCancellable {}
    }

    func drain() {
        while !actions.isEmpty {
            let due = actions
            actions.removeAll(keepingCapacity: true)
            for action in due { action() }
        }
    }
}

@Observable private final class Counter: @unchecked Sendable {
    // @unchecked: each benchmark changes its own on one thread.
    var value = 0
}

private final class PublishedCounter: ObservableObject, @unchecked Sendable {
    // @unchecked: each benchmark changes its own on one thread.
    @Published var value = 0
}

/// Keeps a subscription alive until its stream has ended.
private final class Kept: @unchecked Sendable {
    // @unchecked: each benchmark owns its instance on one task.
    var cancellable: AnyCancellable?
}

/// A sink whose work the optimiser cannot remove.
private final class Sum: @unchecked Sendable {
    // @unchecked: each benchmark owns its instance on one task.
    var total = 0
}

let benchmarks: @Sendable () -> Void = {
    observedChanges()
    asyncSequencePublisher()
    marbleTests()
}

private func observedChanges() {
    for count in [changes, manyChanges] {
        let config = configuration(maxIterations: count == changes ? 20 : 3)
        Benchmark("ObservedChanges/\(count)/Observed", configuration: config) { benchmark in
            let model = Counter()
            let scheduler = DrainScheduler()
            let sum = Sum()
            let cancellable = Observed(on: scheduler) { model.value }.sink { sum.total &+= $0 }
            benchmark.startMeasurement()
            for index in 0..<count {
                model.value = index
                scheduler.drain()
            }
            benchmark.stopMeasurement()
            blackHole(sum.total)
            cancellable.cancel()
        }
        // The floor: Observation's own work for a change, tracking the property again each
        // time, with nothing scheduled or delivered.
        Benchmark("ObservedChanges/\(count)/TrackingAlone", configuration: config) { benchmark in
            let model = Counter()
            let sum = Sum()
            benchmark.startMeasurement()
            for index in 0..<count {
                sum.total &+= withObservationTracking {
                    model.value
                } onChange: {
                }
                model.value = index
            }
            benchmark.stopMeasurement()
            blackHole(sum.total)
        }
        Benchmark("ObservedChanges/\(count)/PublishedSink", configuration: config) { benchmark in
            let model = PublishedCounter()
            let sum = Sum()
            let cancellable = model.$value.sink { sum.total &+= $0 }
            benchmark.startMeasurement()
            for index in 0..<count {
                model.value = index
            }
            benchmark.stopMeasurement()
            blackHole(sum.total)
            cancellable.cancel()
        }
        Benchmark("ObservedChanges/\(count)/PublishedOnScheduler", configuration: config) { benchmark in
            let model = PublishedCounter()
            let scheduler = DrainScheduler()
            let sum = Sum()
            let cancellable = model.$value.receive(on: scheduler).sink { sum.total &+= $0 }
            benchmark.startMeasurement()
            for index in 0..<count {
                model.value = index
                scheduler.drain()
            }
            benchmark.stopMeasurement()
            blackHole(sum.total)
            cancellable.cancel()
        }
    }
}

/// A stream holding `elements` values and its end, buffered before anyone reads it.
private func filledStream() -> AsyncStream<Int> {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
    for index in 0..<elements { continuation.yield(index) }
    continuation.finish()
    return stream
}

private func asyncSequencePublisher() {
    let config = configuration()
    Benchmark("AsyncSequencePublisher/publisher", configuration: config) { benchmark in
        let stream = filledStream()
        let sum = Sum()
        let kept = Kept()
        benchmark.startMeasurement()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            kept.cancellable = stream.publisher.sink(
                receiveCompletion: { _ in done.resume() },
                receiveValue: { sum.total &+= $0 }
            )
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
        kept.cancellable = nil
    }
    Benchmark("AsyncSequencePublisher/forAwait", configuration: config) { benchmark in
        let stream = filledStream()
        benchmark.startMeasurement()
        let total = await Task {
            var total = 0
            for await value in stream { total &+= value }
            return total
        }.value
        benchmark.stopMeasurement()
        blackHole(total)
    }
}

private func marbleTests() {
    Benchmark("MarbleTest/10000 expectations", configuration: configuration(maxIterations: 5)) { benchmark in
        benchmark.startMeasurement()
        for _ in 0..<expectations {
            let test = MarbleTest()
            let source = test.cold(
                "-a-b-c-d-e-f-g-h-i-|",
                values: ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9]
            )
            test.expect(
                source.map { $0 * 2 }.filter { $0 > 4 },
                toBe: "-----c-d-e-f-g-h-i-|",
                values: ["c": 6, "d": 8, "e": 10, "f": 12, "g": 14, "h": 16, "i": 18]
            )
        }
        benchmark.stopMeasurement()
    }
}
