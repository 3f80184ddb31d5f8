import AsyncHTTPClient
import Benchmark
import Foundation
import HummingbirdWSClient
import NIOCore
import Synchronization
import TributaryLab

// A lab with one document and N live viewers, each a WebSocket client in this process. Each
// iteration is one save through the API; the delivery time runs from sending the save, and from
// its answer, to the moment the last viewer has received it as `saved`.

/// Counts arrivals of what is in flight, and when the last one came.
final class Arrivals: Sendable {
    private struct State {
        var expected = Int.max
        var count = 0
        var last = ContinuousClock.now
        var waiter: CheckedContinuation<ContinuousClock.Instant, any Error>?
    }

    private let state = Mutex(State())

    /// Starts counting afresh towards `expected`.
    func expect(_ expected: Int) {
        state.withLock { $0 = State(expected: expected) }
    }

    func arrived(at instant: ContinuousClock.Instant) {
        let waiter: (CheckedContinuation<ContinuousClock.Instant, any Error>, ContinuousClock.Instant)? =
            state.withLock { state in
                state.count += 1
                state.last = max(state.last, instant)
                guard state.count == state.expected, let waiter = state.waiter else { return nil }
                state.waiter = nil
                return (waiter, state.last)
            }
        if let (waiter, last) = waiter { waiter.resume(returning: last) }
    }

    /// When the last expected arrival came, once it has; an error after `limit` without it.
    func last(within limit: Duration = .seconds(30)) async throws -> ContinuousClock.Instant {
        let timer = Task {
            try await Task.sleep(for: limit)
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter.map { ($0, state.count, state.expected) }
            }
            if let (waiter, count, expected) = waiter {
                waiter.resume(throwing: LabBenchmarkError("\(count) of \(expected) arrived within \(limit)"))
            }
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let done: ContinuousClock.Instant? = state.withLock { state in
                guard state.count < state.expected else { return state.last }
                state.waiter = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}

final class FanOutRig: Sendable {
    static let current = Mutex<FanOutRig?>(nil)

    let lab: RunningLab
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let id: String
    let viewerCount: Int
    let saved = Arrivals()
    let version = Mutex(1)
    let bodies: [ByteBuffer]
    private let viewers: [Task<Void, any Error>]

    init(viewers count: Int) async throws {
        lab = try await RunningLab()
        id = try await lab.create(client)
        viewerCount = count
        bodies = try (0..<16).map { ByteBuffer(data: try sampleDocument("Version \($0)").encoded()) }
        let snapshots = Arrivals()
        let saved = saved
        let url = "ws://127.0.0.1:\(lab.url.port ?? 0)/api/streams/\(id)/live"
        var viewers: [Task<Void, any Error>] = []
        // In batches, each connected before the next, as a crowd arriving over a moment would.
        for batch in stride(from: 0, to: count, by: 50) {
            let size = min(50, count - batch)
            snapshots.expect(size)
            for _ in 0..<size {
                viewers.append(
                    Task {
                        try await WebSocketClient.connect(
                            url: url,
                            configuration: .init(maxFrameSize: 4 << 20),
                            logger: quiet
                        ) { inbound, _, _ in
                            for try await message in inbound.messages(maxSize: 1 << 21) {
                                let now = ContinuousClock.now
                                guard case .text(let text) = message else { continue }
                                if text.contains(#""type":"saved""#) {
                                    saved.arrived(at: now)
                                } else if text.contains(#""type":"snapshot""#) {
                                    snapshots.arrived(at: now)
                                }
                            }
                        }
                    }
                )
            }
            _ = try await snapshots.last()
        }
        self.viewers = viewers
    }

    /// One save, and how long until the last viewer had it: from sending it and from its answer.
    func saveOnce() async throws -> (fromRequest: Duration, fromAnswer: Duration) {
        let base = version.withLock { $0 }
        saved.expect(viewerCount)
        let sent = ContinuousClock.now
        try await lab.save(client, id: id, baseVersion: base, body: bodies[base % bodies.count])
        let answered = ContinuousClock.now
        let last = try await saved.last()
        version.withLock { $0 = base + 1 }
        return (last - sent, max(.zero, last - answered))
    }

    func stop() async {
        for viewer in viewers { viewer.cancel() }
        for viewer in viewers { _ = await viewer.result }
        try? await client.shutdown()
        await lab.stop()
    }
}

extension Duration {
    var microseconds: Int {
        Int(components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000)
    }
}

let fromRequest = BenchmarkMetric.custom(
    "delivery from request (µs)",
    polarity: .prefersSmaller,
    useScalingFactor: false
)
let fromAnswer = BenchmarkMetric.custom(
    "delivery after answer (µs)",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

func fanOutBenchmarks() {
    for viewers in [1, 500] {
        Benchmark(
            "LabFanOut/\(viewers) viewer\(viewers == 1 ? "" : "s")",
            configuration: .init(
                metrics: [.wallClock, fromRequest, fromAnswer],
                timeUnits: .microseconds,
                warmupIterations: 10,
                scalingFactor: .one,
                maxDuration: .seconds(120),
                maxIterations: 200,
                thresholds: [:]
            ),
            closure: { (benchmark: Benchmark, rig: FanOutRig) in
                let (request, answer) = try await rig.saveOnce()
                benchmark.measurement(fromRequest, request.microseconds)
                benchmark.measurement(fromAnswer, answer.microseconds)
            },
            setup: {
                let rig = try await FanOutRig(viewers: viewers)
                FanOutRig.current.withLock { $0 = rig }
                return rig
            },
            teardown: {
                if let rig = FanOutRig.current.withLock({ $0.take() }) { await rig.stop() }
            }
        )
    }
}
