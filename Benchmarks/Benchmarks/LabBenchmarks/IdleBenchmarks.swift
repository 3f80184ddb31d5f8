import AsyncHTTPClient
import Benchmark
import Foundation

// The memory of 1,000 idle live connections: the lab's resident memory with one document and no
// viewer, then with 1,000 viewers that a Python process of their own holds open after their
// snapshots, so that only the lab's side of the connections is counted.

private let idleViewers = 1_000

/// This process's resident memory, in bytes.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

let residentOverIdle = BenchmarkMetric.custom(
    "resident over the idle lab (MB)",
    polarity: .prefersSmaller,
    useScalingFactor: false
)
let residentPerConnection = BenchmarkMetric.custom(
    "resident per connection (KB)",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

func idleConnectionBenchmarks() {
    Benchmark(
        "LabIdle/1,000 live connections",
        configuration: .init(
            metrics: [residentOverIdle, residentPerConnection],
            warmupIterations: 0,
            scalingFactor: .one,
            maxDuration: .seconds(120),
            maxIterations: 3,
            thresholds: [:]
        )
    ) { benchmark in
        do {
            let lab = try await RunningLab()
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let id = try await lab.create(client)
            try await Task.sleep(for: .milliseconds(500))
            let before = residentBytes()

            let viewers = try await ViewerProcess(
                script: "idle_viewers.py",
                lab: lab,
                id: id,
                count: idleViewers
            )
            try await Task.sleep(for: .seconds(1))
            let after = residentBytes()
            benchmark.measurement(residentOverIdle, (after - before) >> 20)
            benchmark.measurement(residentPerConnection, ((after - before) / idleViewers) >> 10)

            await viewers.stop()
            try? await client.shutdown()
            await lab.stop()
        } catch {
            benchmark.error("\(error)")
        }
    }
}

/// A Python process of its own holding `count` live viewers of a document open, from one of
/// the scripts in `Scripts/`, until ``stop()``.
struct ViewerProcess {
    private let process = Process()
    private let input = Pipe()

    /// Starts the script and returns once it says all its viewers are connected.
    init(script: String, lab: RunningLab, id: String, count: Int) async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Scripts/\(script)")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path.path, "\(lab.url.port ?? 0)", id, "\(count)"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = await blocking {
            String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard line.hasPrefix("ready \(count)") else {
            throw LabBenchmarkError("the viewers did not connect: \(line)")
        }
    }

    /// Tells the script to close its viewers and waits for it to exit.
    func stop() async {
        try? input.fileHandleForWriting.close()
        let process = process
        await blocking { process.waitUntilExit() }
    }
}

/// Runs `work`, which blocks its thread, on a thread outside the cooperative pool, whose few
/// threads the lab's own requests need.
func blocking<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
}
