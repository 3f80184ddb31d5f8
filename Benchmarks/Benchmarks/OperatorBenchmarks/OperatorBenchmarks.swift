import AsyncAlgorithms
import Benchmark
import Tributary

// Each scenario runs the same work three or four ways in one run: through Tributary's
// operators on OpenCombine, through the reference it is measured against, through
// swift-async-algorithms, and as a plain Swift loop (the floor).

private let subjectSends = 1_000_000
private let pipelineValues = 100_000
private let joinValues = 100_000
private let subscriptions = 10_000

private func configuration(_ values: Int) -> Benchmark.Configuration {
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

@Sendable private func increment(_ value: Int) -> Int { value &+ 1 }

private func above(_ bound: Int) -> @Sendable (Int) -> Bool { { $0 > bound } }

/// What the plain loops do with each value: an opaque call, as a subscriber's would be, so
/// the optimiser can neither fold the loop away nor vectorise it.
@inline(never)
private func record(_ value: Int, in sum: Sum) {
    sum.total &+= value
}

/// A sink whose work the optimiser cannot remove.
private final class Sum: @unchecked Sendable {
    // @unchecked: each benchmark owns its instance on one task.
    var total = 0
}

/// Sends `count` values, round robin, into `subjects` while `publisher`, built from them,
/// feeds a sink; measures the sending.
private func pump<P: Publisher>(
    _ benchmark: Benchmark,
    _ count: Int,
    into subjects: [PassthroughSubject<Int, Never>],
    through publisher: P,
    _ value: @escaping (P.Output) -> Int
) where P.Failure == Never {
    let sum = Sum()
    let cancellable = publisher.sink { sum.total &+= value($0) }
    benchmark.startMeasurement()
    for index in 0..<count {
        subjects[index % subjects.count].send(index)
    }
    benchmark.stopMeasurement()
    blackHole(sum.total)
    cancellable.cancel()
}

/// Sends `count` values, round robin, into `channels` while one task consumes `sequence`,
/// built from them; measures until the consumer has seen every value.
private func pump<S: AsyncSequence & Sendable>(
    _ benchmark: Benchmark,
    _ count: Int,
    into channels: [AsyncChannel<Int>],
    through sequence: S,
    _ value: @escaping @Sendable (S.Element) -> Int
) async {
    benchmark.startMeasurement()
    await withTaskGroup(of: Int.self) { group in
        group.addTask {
            var total = 0
            do {
                for try await element in sequence { total &+= value(element) }
            } catch {
                preconditionFailure("the benchmark's channels do not fail")
            }
            return total
        }
        for index in 0..<count {
            await channels[index % channels.count].send(index)
        }
        for channel in channels { channel.finish() }
        for await total in group { blackHole(total) }
    }
    benchmark.stopMeasurement()
}

/// Subscribes to a join of two subjects and cancels, `subscriptions` times; measures it all.
private func subscribeAndCancel(
    _ benchmark: Benchmark,
    _ subscribe: (PassthroughSubject<Int, Never>, PassthroughSubject<Int, Never>) -> AnyCancellable
) {
    let left = PassthroughSubject<Int, Never>()
    let right = PassthroughSubject<Int, Never>()
    benchmark.startMeasurement()
    for _ in 0..<subscriptions {
        subscribe(left, right).cancel()
    }
    benchmark.stopMeasurement()
}

/// Runs `body` for each value as a plain loop: the floor of every scenario.
private func loop(_ benchmark: Benchmark, _ count: Int, _ body: (Int, Sum) -> Void) {
    let sum = Sum()
    benchmark.startMeasurement()
    for index in 0..<count {
        body(index, sum)
    }
    benchmark.stopMeasurement()
    blackHole(sum.total)
}

let benchmarks: @Sendable () -> Void = {
    publishSubjectPumping()
    mapFilterPumping()
    combineLatestPumping()
    mergePumping()
    combineLatestCreating()
}

// MARK: PublishSubjectPumping

private func publishSubjectPumping() {
    let config = configuration(subjectSends)
    Benchmark("PublishSubjectPumping/Tributary", configuration: config) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        pump(benchmark, subjectSends, into: [subject], through: subject) { $0 }
    }
    Benchmark("PublishSubjectPumping/AsyncAlgorithms", configuration: config) { benchmark in
        let channel = AsyncChannel<Int>()
        await pump(benchmark, subjectSends, into: [channel], through: channel) { $0 }
    }
    Benchmark("PublishSubjectPumping/PlainLoop", configuration: config) { benchmark in
        loop(benchmark, subjectSends) { value, sum in record(value, in: sum) }
    }
}

// MARK: MapFilterPumping

private func mapFilterPumping() {
    let config = configuration(pipelineValues)
    Benchmark("MapFilterPumping/Tributary", configuration: config) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let pipeline =
            subject
            .map(increment).filter(above(0))
            .map(increment).filter(above(1))
            .map(increment).filter(above(2))
            .map(increment).filter(above(3))
            .map(increment).filter(above(4))
            .map(increment).filter(above(5))
        pump(benchmark, pipelineValues, into: [subject], through: pipeline) { $0 }
    }
    Benchmark("MapFilterPumping/AsyncAlgorithms", configuration: config) { benchmark in
        let channel = AsyncChannel<Int>()
        let pipeline =
            channel
            .map(increment).filter(above(0))
            .map(increment).filter(above(1))
            .map(increment).filter(above(2))
            .map(increment).filter(above(3))
            .map(increment).filter(above(4))
            .map(increment).filter(above(5))
        await pump(benchmark, pipelineValues, into: [channel], through: pipeline) { $0 }
    }
    Benchmark("MapFilterPumping/PlainLoop", configuration: config) { benchmark in
        let maps: [(Int) -> Int] = Array(repeating: increment, count: 6)
        let filters: [(Int) -> Bool] = (0..<6).map(above)
        loop(benchmark, pipelineValues) { value, sum in
            var current = value
            for stage in 0..<6 {
                current = maps[stage](current)
                guard filters[stage](current) else { return }
            }
            record(current, in: sum)
        }
    }
}

// MARK: CombineLatestPumping

private func combineLatestPumping() {
    let config = configuration(joinValues)
    Benchmark("CombineLatestPumping/Tributary", configuration: config) { benchmark in
        let subjects = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
        let combined = subjects[0].combineLatest(subjects[1])
        pump(benchmark, joinValues, into: subjects, through: combined) { $0.0 &+ $0.1 }
    }
    Benchmark("CombineLatestPumping/OpenCombine.zip", configuration: config) { benchmark in
        let subjects = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
        let zipped = subjects[0].zip(subjects[1])
        pump(benchmark, joinValues, into: subjects, through: zipped) { $0.0 &+ $0.1 }
    }
    Benchmark("CombineLatestPumping/AsyncAlgorithms", configuration: config) { benchmark in
        let channels = (0..<2).map { _ in AsyncChannel<Int>() }
        let combined = combineLatest(channels[0], channels[1])
        await pump(benchmark, joinValues, into: channels, through: combined) { $0.0 &+ $0.1 }
    }
    Benchmark("CombineLatestPumping/PlainLoop", configuration: config) { benchmark in
        var latest: [Int?] = [nil, nil]
        loop(benchmark, joinValues) { value, sum in
            latest[value % 2] = value
            if let left = latest[0], let right = latest[1] {
                record(left &+ right, in: sum)
            }
        }
    }
}

// MARK: MergePumping

private func mergePumping() {
    let config = configuration(joinValues)
    Benchmark("MergePumping/Tributary", configuration: config) { benchmark in
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let merged = subjects[0].merge(with: subjects[1], subjects[2], subjects[3])
        pump(benchmark, joinValues, into: subjects, through: merged) { $0 }
    }
    Benchmark("MergePumping/SubjectToSink", configuration: config) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        pump(benchmark, joinValues, into: Array(repeating: subject, count: 4), through: subject) { $0 }
    }
    Benchmark("MergePumping/AsyncAlgorithms", configuration: config) { benchmark in
        let channels = (0..<4).map { _ in AsyncChannel<Int>() }
        let merged = merge(merge(channels[0], channels[1]), merge(channels[2], channels[3]))
        await pump(benchmark, joinValues, into: channels, through: merged) { $0 }
    }
    Benchmark("MergePumping/PlainLoop", configuration: config) { benchmark in
        let sink: (Int, Sum) -> Void = { record($0, in: $1) }
        let sinks = Array(repeating: sink, count: 4)
        loop(benchmark, joinValues) { value, sum in sinks[value % 4](value, sum) }
    }
}

// MARK: CombineLatestCreating

private func combineLatestCreating() {
    let config = configuration(subscriptions)
    Benchmark("CombineLatestCreating/Tributary", configuration: config) { benchmark in
        subscribeAndCancel(benchmark) { $0.combineLatest($1).sink { blackHole($0) } }
    }
    Benchmark("CombineLatestCreating/OpenCombine.zip", configuration: config) { benchmark in
        subscribeAndCancel(benchmark) { $0.zip($1).sink { blackHole($0) } }
    }
    Benchmark("CombineLatestCreating/AsyncAlgorithms", configuration: config) { benchmark in
        let left = AsyncChannel<Int>()
        let right = AsyncChannel<Int>()
        benchmark.startMeasurement()
        for _ in 0..<subscriptions {
            let task = Task {
                for await pair in combineLatest(left, right) { blackHole(pair) }
            }
            task.cancel()
            await task.value
        }
        benchmark.stopMeasurement()
    }
    Benchmark("CombineLatestCreating/PlainLoop", configuration: config) { benchmark in
        benchmark.startMeasurement()
        for index in 0..<subscriptions {
            let sink: (Int) -> Void = { blackHole($0 &+ index) }
            blackHole(sink)
        }
        benchmark.stopMeasurement()
    }
}
