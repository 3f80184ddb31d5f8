import AsyncHTTPClient
import Benchmark
import BenchmarkSupport
import Foundation
import Hummingbird
import NIOCore
import Synchronization
import TributaryLab
import TributaryStreams

// The lab under hostile use, each beside its alternative in one run:
// - `GET /api/health` while eight clients keep sending runs far past their budget, beside the
//   same lab idle;
// - a small document's `POST /api/run` (budgeted, on the run threads), beside a Hummingbird
//   route that runs and answers it the way the lab used to, on the request's own task;
// - 500 live viewers of a 1 MB document that never read, held by a process of their own.

/// A document whose run takes seconds: a zip of one stream with itself 2,000 times.
let heavyRun: ByteBuffer = {
    let items = (0..<400).map { #"{"value": \#($0)}"# }.joined(separator: ",")
    let inputs = Array(repeating: #""n""#, count: 2_000).joined(separator: ",")
    return ByteBuffer(
        string: #"""
            {"schemaVersion": 1, "streams": [{"id": "n", "items": [\#(items)]}],
             "nodes": [{"id": "z", "operator": "zip", "inputs": [\#(inputs)]}]}
            """#
    )
}()

/// A lab whose health is read while `attackers` clients send ``heavyRun`` over and over.
final class BusyLabRig: Sendable {
    let lab: RunningLab
    /// The attackers' client.
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    /// The health checks' own client: behind the attackers' connections, a check would wait in
    /// the client's pool for one of them to come free rather than for the lab.
    let probe = HTTPClient(eventLoopGroupProvider: .singleton)
    private let attack: Task<Void, Never>?
    /// How many heavy runs were answered with each status.
    let answers = Tally()

    final class Tally: Sendable {
        let counts = Mutex<[Int: Int]>([:])
    }

    init(attackers: Int) async throws {
        lab = try await RunningLab()
        let url = lab.url.appending(path: "api/run").absoluteString
        let (client, token, answers) = (client, lab.token, answers)
        attack =
            attackers == 0
            ? nil
            : Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<attackers {
                        group.addTask {
                            while !Task.isCancelled {
                                var request = HTTPClientRequest(url: url)
                                request.method = .POST
                                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                                request.headers.add(name: "Content-Type", value: "application/json")
                                request.body = .bytes(heavyRun)
                                guard let response = try? await client.execute(request, timeout: .seconds(30))
                                else {
                                    continue
                                }
                                _ = try? await response.body.collect(upTo: 1 << 20)
                                answers.counts.withLock { $0[Int(response.status.code), default: 0] += 1 }
                                if response.status == .serviceUnavailable {
                                    try? await Task.sleep(for: .milliseconds(50))
                                }
                            }
                        }
                    }
                }
            }
    }

    /// One health check's time.
    func health() async throws -> Duration {
        let started = ContinuousClock.now
        let response = try await probe.execute(
            HTTPClientRequest(url: lab.url.appending(path: "api/health").absoluteString),
            timeout: .seconds(30)
        )
        _ = try await response.body.collect(upTo: 1 << 10)
        guard response.status == .ok else { throw LabBenchmarkError("health answered \(response.status)") }
        return ContinuousClock.now - started
    }

    func stop() async {
        attack?.cancel()
        _ = await attack?.value
        try? await client.shutdown()
        try? await probe.shutdown()
        await lab.stop()
    }
}

let healthLatency = BenchmarkMetric.custom("health (µs)", polarity: .prefersSmaller, useScalingFactor: false)

/// A small document, as the editor runs on every pause in typing.
let smallRun = ByteBuffer(data: (try? sampleDocument("Small").encoded()) ?? Data())

/// The lab's `/api/run`, and the same run answered on the request's own task as the lab did before
/// runs had a budget and threads of their own.
final class SmallRunRig: Rig {
    let lab: RunningLab
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let floor: LoopbackServer
    let floorURL: String

    init() async throws {
        lab = try await RunningLab()
        floor = LoopbackServer {
            let router = Router()
            router.post("api/run") { request, _ in
                let body = try await request.body.collect(upTo: 1 << 20)
                let document = try StreamDocument.decode(Data(body.readableBytesView))
                let timeline = try StreamRunner().run(document)
                struct Answer: Encodable {
                    var marbles: String
                    var timeline: [Timeline.Event]
                }
                let answer = Answer(
                    marbles: try TextLanes.render(timeline, document: document),
                    timeline: timeline.events
                )
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/json; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(answer)))
                )
            }
            return router
        }
        floorURL = await floor.start().appending(path: "api/run").absoluteString
    }

    func post(to url: String, count: Int = 2_000, concurrency: Int = 32) async throws {
        let token = lab.token
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask { [client] in
                    for _ in stride(from: worker, to: count, by: concurrency) {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Authorization", value: "Bearer \(token)")
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(smallRun)
                        let response = try await client.execute(request, timeout: .seconds(30))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        guard response.status == .ok else {
                            throw LabBenchmarkError("a run answered \(response.status)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    func stop() async {
        try? await client.shutdown()
        await lab.stop()
    }
}

func hostileBenchmarks() {
    for attackers in [0, 8] {
        let kept = Mutex<BusyLabRig?>(nil)
        Benchmark(
            attackers == 0
                ? "LabHostile/health, idle lab" : "LabHostile/health, 8 clients sending heavy runs",
            configuration: .init(
                metrics: [healthLatency],
                timeUnits: .microseconds,
                warmupIterations: 20,
                scalingFactor: .one,
                maxDuration: .seconds(30),
                maxIterations: 300,
                thresholds: [:]
            ),
            closure: { (benchmark: Benchmark, rig: BusyLabRig) in
                benchmark.measurement(healthLatency, try await rig.health().microseconds)
                try await Task.sleep(for: .milliseconds(20))
            },
            setup: {
                let rig = try await BusyLabRig(attackers: attackers)
                kept.withLock { $0 = rig }
                try await Task.sleep(for: .milliseconds(500))
                return rig
            },
            teardown: {
                guard let rig = kept.withLock({ $0.take() }) else { return }
                let answers = rig.answers.counts.withLock { $0 }
                if attackers > 0 {
                    print(
                        "heavy runs answered: \(answers.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" })"
                    )
                }
                await rig.stop()
            }
        )
    }
    for (name, lab) in [("the lab's /api/run", true), ("a route running it on the request's task", false)] {
        benchmark(
            "LabHostile/small document run: \(name) (2,000 POSTs, 32 at a time)",
            configuration: throughputConfiguration,
            on: SmallRunRig.self
        ) { benchmark, rig in
            let url = lab ? rig.lab.url.appending(path: "api/run").absoluteString : rig.floorURL
            benchmark.startMeasurement()
            try await rig.post(to: url)
            benchmark.stopMeasurement()
        }
    }
    hoardingViewerBenchmark()
}

private let hoarders = 500

let residentTotal = BenchmarkMetric.custom(
    "resident in all (MB)",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

/// A document of about 1 MB: a thousand values of a thousand characters.
let megabyteDocument: ByteBuffer = {
    let items = (0..<1_000).map { _ in #"{"value": "\#(String(repeating: "x", count: 1_000))"}"# }
    return ByteBuffer(
        string:
            #"{"schemaVersion": 1, "name": "Large", "streams": [{"id": "s", "items": [\#(items.joined(separator: ","))]}]}"#
    )
}()

/// The lab's memory with 500 viewers of a 1 MB document that never read, while three versions
/// are saved: each viewer's waiting messages are bounded in bytes and shared between viewers.
func hoardingViewerBenchmark() {
    Benchmark(
        "LabHostile/500 viewers of a 1 MB document that never read",
        configuration: .init(
            metrics: [residentOverIdle, residentTotal],
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
            let id = try await lab.create(client, body: megabyteDocument)
            try await Task.sleep(for: .milliseconds(500))
            let before = residentBytes()

            let viewers = try await ViewerProcess(
                script: "hoarding_viewers.py",
                lab: lab,
                id: id,
                count: hoarders
            )
            for version in 1...3 {
                try await lab.save(client, id: id, baseVersion: version, body: megabyteDocument)
            }
            try await Task.sleep(for: .seconds(2))
            let after = residentBytes()
            benchmark.measurement(residentOverIdle, (after - before) >> 20)
            benchmark.measurement(residentTotal, after >> 20)

            await viewers.stop()
            try? await client.shutdown()
            await lab.stop()
        } catch {
            benchmark.error("\(error)")
        }
    }
}
