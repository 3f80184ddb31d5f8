import Benchmark
import TributaryStreams

// Evaluating a filter expression, beside the same logic as a Swift closure, over the same
// inputs in one run; then running a whole document (RunBenchmarks.swift).

private let evaluations = 1_000_000
private let source = "$0 * 2 + 1 > 10 && $0 % 3 != 0"

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 30,
        thresholds: [:]
    )
    Benchmark("ExpressionEvaluation/StreamExpression", configuration: configuration) { benchmark in
        let expression = try StreamExpression(source)
        var kept = 0
        benchmark.startMeasurement()
        for value in 0..<evaluations {
            if try expression.evaluate(.integer(value)) == .boolean(true) {
                kept += 1
            }
        }
        benchmark.stopMeasurement()
        blackHole(kept)
    }
    Benchmark("ExpressionEvaluation/SwiftClosure", configuration: configuration) { benchmark in
        let closure: (StreamValue) -> StreamValue = { value in
            guard case .integer(let x) = value else { return .boolean(false) }
            return .boolean(x * 2 + 1 > 10 && x % 3 != 0)
        }
        let opaque = identity(closure)
        var kept = 0
        benchmark.startMeasurement()
        for value in 0..<evaluations {
            if opaque(.integer(value)) == .boolean(true) {
                kept += 1
            }
        }
        benchmark.stopMeasurement()
        blackHole(kept)
    }
    runBenchmarks()
}

/// Hides the closure from the optimiser, as a stored operator's would be.
@inline(never)
private func identity<T>(_ value: T) -> T { value }
