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
        let sum = Sum()
        let cancellable = subject.sink { sum.total &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<subjectSends {
            subject.send(value)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
        cancellable.cancel()
    }
    Benchmark("PublishSubjectPumping/AsyncAlgorithms", configuration: config) { benchmark in
        let channel = AsyncChannel<Int>()
        benchmark.startMeasurement()
        await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var total = 0
                for await value in channel { total &+= value }
                return total
            }
            for value in 0..<subjectSends {
                await channel.send(value)
            }
            channel.finish()
            for await total in group { blackHole(total) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("PublishSubjectPumping/PlainLoop", configuration: config) { benchmark in
        let sum = Sum()
        benchmark.startMeasurement()
        for value in 0..<subjectSends {
            record(value, in: sum)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
    }
}

// MARK: MapFilterPumping

private func mapFilterPumping() {
    let config = configuration(pipelineValues)
    Benchmark("MapFilterPumping/Tributary", configuration: config) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let sum = Sum()
        let cancellable =
            subject
            .map(increment).filter(above(0))
            .map(increment).filter(above(1))
            .map(increment).filter(above(2))
            .map(increment).filter(above(3))
            .map(increment).filter(above(4))
            .map(increment).filter(above(5))
            .sink { sum.total &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<pipelineValues {
            subject.send(value)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
        cancellable.cancel()
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
        benchmark.startMeasurement()
        await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var total = 0
                for await value in pipeline { total &+= value }
                return total
            }
            for value in 0..<pipelineValues {
                await channel.send(value)
            }
            channel.finish()
            for await total in group { blackHole(total) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("MapFilterPumping/PlainLoop", configuration: config) { benchmark in
        let sum = Sum()
        let maps: [(Int) -> Int] = Array(repeating: increment, count: 6)
        let filters: [(Int) -> Bool] = (0..<6).map(above)
        benchmark.startMeasurement()
        values: for value in 0..<pipelineValues {
            var current = value
            for stage in 0..<6 {
                current = maps[stage](current)
                guard filters[stage](current) else { continue values }
            }
            record(current, in: sum)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
    }
}

// MARK: CombineLatestPumping

private func combineLatestPumping() {
    let config = configuration(joinValues)
    Benchmark("CombineLatestPumping/Tributary", configuration: config) { benchmark in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let sum = Sum()
        let cancellable = left.combineLatest(right).sink { sum.total &+= $0.0 &+ $0.1 }
        benchmark.startMeasurement()
        for value in 0..<joinValues {
            (value & 1 == 0 ? left : right).send(value)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
        cancellable.cancel()
    }
    Benchmark("CombineLatestPumping/OpenCombine.zip", configuration: config) { benchmark in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let sum = Sum()
        let cancellable = left.zip(right).sink { sum.total &+= $0.0 &+ $0.1 }
        benchmark.startMeasurement()
        for value in 0..<joinValues {
            (value & 1 == 0 ? left : right).send(value)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
        cancellable.cancel()
    }
    Benchmark("CombineLatestPumping/AsyncAlgorithms", configuration: config) { benchmark in
        let left = AsyncChannel<Int>()
        let right = AsyncChannel<Int>()
        benchmark.startMeasurement()
        await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var total = 0
                for await pair in combineLatest(left, right) { total &+= pair.0 &+ pair.1 }
                return total
            }
            for value in 0..<joinValues {
                await (value & 1 == 0 ? left : right).send(value)
            }
            left.finish()
            right.finish()
            for await total in group { blackHole(total) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("CombineLatestPumping/PlainLoop", configuration: config) { benchmark in
        let sum = Sum()
        let sink: ((Int, Int)) -> Void = { record($0.0 &+ $0.1, in: sum) }
        var latest: (left: Int?, right: Int?) = (nil, nil)
        benchmark.startMeasurement()
        for value in 0..<joinValues {
            if value & 1 == 0 { latest.left = value } else { latest.right = value }
            if let left = latest.left, let right = latest.right {
                sink((left, right))
            }
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
    }
}

// MARK: MergePumping

private func mergePumping() {
    let config = configuration(joinValues)
    Benchmark("MergePumping/Tributary", configuration: config) { benchmark in
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let sum = Sum()
        let cancellable = subjects[0].merge(with: subjects[1], subjects[2], subjects[3])
            .sink { sum.total &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<joinValues {
            subjects[value & 3].send(value)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
        cancellable.cancel()
    }
    Benchmark("MergePumping/SubjectToSink", configuration: config) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let subjects = Array(repeating: subject, count: 4)
        let sum = Sum()
        let cancellable = subject.sink { sum.total &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<joinValues {
            subjects[value & 3].send(value)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
        cancellable.cancel()
    }
    Benchmark("MergePumping/AsyncAlgorithms", configuration: config) { benchmark in
        let channels = (0..<4).map { _ in AsyncChannel<Int>() }
        benchmark.startMeasurement()
        await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var total = 0
                let merged = merge(merge(channels[0], channels[1]), merge(channels[2], channels[3]))
                for await value in merged { total &+= value }
                return total
            }
            for value in 0..<joinValues {
                await channels[value & 3].send(value)
            }
            for channel in channels { channel.finish() }
            for await total in group { blackHole(total) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("MergePumping/PlainLoop", configuration: config) { benchmark in
        let sum = Sum()
        let sink: (Int) -> Void = { record($0, in: sum) }
        let sinks = Array(repeating: sink, count: 4)
        benchmark.startMeasurement()
        for value in 0..<joinValues {
            sinks[value & 3](value)
        }
        benchmark.stopMeasurement()
        blackHole(sum.total)
    }
}

// MARK: CombineLatestCreating

private func combineLatestCreating() {
    let config = configuration(subscriptions)
    Benchmark("CombineLatestCreating/Tributary", configuration: config) { benchmark in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        benchmark.startMeasurement()
        for _ in 0..<subscriptions {
            let cancellable = left.combineLatest(right).sink { blackHole($0) }
            cancellable.cancel()
        }
        benchmark.stopMeasurement()
    }
    Benchmark("CombineLatestCreating/OpenCombine.zip", configuration: config) { benchmark in
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        benchmark.startMeasurement()
        for _ in 0..<subscriptions {
            let cancellable = left.zip(right).sink { blackHole($0) }
            cancellable.cancel()
        }
        benchmark.stopMeasurement()
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
