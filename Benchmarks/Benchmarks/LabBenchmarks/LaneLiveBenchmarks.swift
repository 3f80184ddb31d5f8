import AsyncHTTPClient
import Benchmark
import Foundation
import HTTPTypes
import HummingbirdWSClient
import NIOCore
import Synchronization
import Tributary
import TributaryLabClient

// One recorder sends 50,000 events a second for two seconds while 50 live viewers follow the
// recording; each event carries the moment it was recorded, and each viewer notes how long it
// took to reach it. The process's resident memory (the lab and the viewers) is read before and
// after.

let eventToViewer = BenchmarkMetric.custom(
    "event to viewer (µs)",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

private let liveViewers = 50
private let liveRate = 50_000
private let liveSeconds = 2

/// The values of the `"value":"…"` fields in a message, read without decoding it all.
private func values(in text: String) -> [Substring] {
    var found: [Substring] = []
    var rest = text[...]
    while let range = rest.range(of: #""value":""#) {
        rest = rest[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { break }
        found.append(rest[..<end])
        rest = rest[end...]
    }
    return found
}

/// The delays the viewers measured, in microseconds.
private final class Delays: Sendable {
    let seen = Mutex<[Int]>([])
}

/// This process's resident memory in bytes, where the lab and its viewers both run.
private func residentMemory() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
}

func laneLiveBenchmarks() {
    Benchmark(
        "Lane.live/50 viewers at 50k events per second",
        configuration: .init(
            metrics: [eventToViewer, .peakMemoryResident],
            timeUnits: .microseconds,
            warmupIterations: 0,
            scalingFactor: .one,
            maxDuration: .seconds(120),
            maxIterations: 1,
            thresholds: [:]
        )
    ) { benchmark in
        let lab = try await RunningLab()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let name = "live-\(UUID().uuidString)"
        let recorder = LabLaneRecorder(lab: lab.url, token: lab.token, recording: name, capacity: 1_000_000)
        recorder.record(
            LaneEvent(lane: "paced", subscription: 1, kind: .subscribed, time: .zero, source: "Bench:1")
        )
        try await recorder.flush()

        var request = HTTPClientRequest(url: lab.url.appending(path: "api/recordings").absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(lab.token)")
        let listing = try await client.execute(request, timeout: .seconds(10)).body.collect(upTo: 1 << 20)
        let object = try JSONSerialization.jsonObject(with: Data(listing.readableBytesView)) as? [String: Any]
        let recordings = object?["recordings"] as? [[String: Any]] ?? []
        guard let id = recordings.first(where: { $0["name"] as? String == name })?["id"] as? String else {
            throw LabBenchmarkError("the recording was not listed")
        }

        let origin = ContinuousClock.now
        let delays = Delays()
        let snapshots = Arrivals()
        snapshots.expect(liveViewers)
        let headers: HTTPFields = [.authorization: "Bearer \(lab.token)"]
        let url = "ws://127.0.0.1:\(lab.url.port ?? 0)/api/recordings/\(id)/live"
        let viewers = (0..<liveViewers).map { _ in
            Task {
                try await WebSocketClient.connect(
                    url: url,
                    configuration: .init(maxFrameSize: 8 << 20, additionalHeaders: headers),
                    logger: quiet
                ) { inbound, _, _ in
                    for try await message in inbound.messages(maxSize: 16 << 20) {
                        let now = ContinuousClock.now - origin
                        guard case .text(let text) = message else { continue }
                        // The lab writes keys sorted, so a message's type comes last.
                        if text.hasSuffix(#""type":"snapshot"}"#) {
                            snapshots.arrived(at: .now)
                            continue
                        }
                        let arrived =
                            now.components.seconds * 1_000_000 + now.components.attoseconds
                            / 1_000_000_000_000
                        let seen = values(in: text).compactMap { Int64($0) }.map { Int(arrived - $0) }
                        delays.seen.withLock { $0 += seen }
                    }
                }
            }
        }
        _ = try await snapshots.last()
        let before = residentMemory()

        let total = liveRate * liveSeconds
        let perTick = liveRate / 200
        benchmark.startMeasurement()
        for tick in 0..<(total / perTick) {
            for _ in 0..<perTick {
                let now = ContinuousClock.now - origin
                let micro =
                    now.components.seconds * 1_000_000 + now.components.attoseconds / 1_000_000_000_000
                recorder.record(
                    LaneEvent(
                        lane: "paced",
                        subscription: 1,
                        kind: .value(String(micro)),
                        time: now,
                        source: "Bench:1"
                    )
                )
            }
            let next = origin + .milliseconds(5 * (tick + 1))
            if next > .now { try await Task.sleep(until: next, clock: .continuous) }
        }
        try await recorder.flush(timeout: .seconds(60))
        let deadline = ContinuousClock.now + .seconds(30)
        while delays.seen.withLock({ $0.count }) < total * liveViewers, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        benchmark.stopMeasurement()
        let after = residentMemory()

        let seen = delays.seen.withLock { $0 }
        guard seen.count == total * liveViewers else {
            throw LabBenchmarkError("the viewers saw \(seen.count) of \(total * liveViewers) events")
        }
        // Every 50th delay: the percentiles stay the same, the histogram stays small.
        for delay in stride(from: 0, to: seen.count, by: 50).map({ seen[$0] }) {
            benchmark.measurement(eventToViewer, delay)
        }
        print("the lab's resident memory: \(before / 1_048_576) MB before, \(after / 1_048_576) MB after")
        for viewer in viewers { viewer.cancel() }
        for viewer in viewers { _ = await viewer.result }
        try await client.shutdown()
        await lab.stop()
    }
}
