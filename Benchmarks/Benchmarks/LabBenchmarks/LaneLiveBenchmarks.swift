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
// recording; each event carries the moment it was recorded, and each viewer notes, for every
// message, how long its oldest event took to reach it (so the figure is each message's worst). The process's resident memory (the lab and the viewers) is read before and
// after.

let eventToViewer = BenchmarkMetric.custom(
    "event to viewer (µs)",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

private let liveViewers = 50
private let liveRate = 50_000
private let liveSeconds = 2

private let valueKey = Array(#""value":""#.utf8)

/// The first `"value":"…"` within `bytes`, as a number: in a message of events, the oldest's.
private func firstValue<Bytes: Collection<UInt8>>(in bytes: Bytes) -> Int? {
    let bytes = Array(bytes)
    guard bytes.count > valueKey.count else { return nil }
    for start in 0...(bytes.count - valueKey.count)
    where bytes[start..<(start + valueKey.count)].elementsEqual(valueKey) {
        var number = 0
        for byte in bytes[(start + valueKey.count)...] {
            guard byte >= 48, byte <= 57 else { break }
            number = number * 10 + Int(byte - 48)
        }
        return number
    }
    return nil
}

/// The delays the viewers measured, in microseconds.
private final class Delays: Sendable {
    let seen = Mutex<[Int]>([])
    /// How many viewers have had the last event.
    let finished = Mutex(0)
}

/// How a message that holds the run's last event ends: its value, then the message's own fields.
private let endMark = #""value":"end"}],"#

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
                        // The first event of a message is its oldest: its delay is the message's worst.
                        let arrived =
                            now.components.seconds * 1_000_000 + now.components.attoseconds
                            / 1_000_000_000_000
                        if let sent = firstValue(in: text.utf8.prefix(400)) {
                            delays.seen.withLock { $0.append(Int(arrived) - sent) }
                        }
                        if String(decoding: text.utf8.suffix(120), as: UTF8.self).contains(endMark) {
                            delays.finished.withLock { $0 += 1 }
                        }
                    }
                }
            }
        }
        _ = try await snapshots.last()
        let before = residentBytes()

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
        recorder.record(
            LaneEvent(lane: "paced", subscription: 1, kind: .value("end"), time: .zero, source: "Bench:1")
        )
        try await recorder.flush(timeout: .seconds(60))
        let deadline = ContinuousClock.now + .seconds(60)
        while delays.finished.withLock({ $0 }) < liveViewers, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        benchmark.stopMeasurement()
        let after = residentBytes()

        let seen = delays.seen.withLock { $0 }
        let finished = delays.finished.withLock { $0 }
        guard finished == liveViewers else {
            throw LabBenchmarkError("\(finished) of \(liveViewers) viewers saw the last event")
        }
        for delay in seen {
            benchmark.measurement(eventToViewer, delay)
        }
        print("\(seen.count) messages reached the viewers")
        print("the lab's resident memory: \(before / 1_048_576) MB before, \(after / 1_048_576) MB after")
        for viewer in viewers { viewer.cancel() }
        for viewer in viewers { _ = await viewer.result }
        try await client.shutdown()
        await lab.stop()
    }
}
