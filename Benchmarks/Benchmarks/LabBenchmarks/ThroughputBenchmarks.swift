import AsyncHTTPClient
import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import TributaryLab
import TributaryStreams

// Reading a document: 2,000 GETs at concurrency 32 through AsyncHTTPClient, from the lab and
// from a Hummingbird route that answers with the same bytes and headers from memory.
// Saving: 200 saves one after another through SQLiteDocumentStore, and through GRDB writing the
// same rows to a file of the same schema.

private let reads = 2_000
private let saves = 200

final class ReadRig: Sendable {
    static let current = Mutex<ReadRig?>(nil)

    let lab: RunningLab
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let labURL: String
    let floorURL: String
    private let floor: LoopbackServer

    init() async throws {
        lab = try await RunningLab()
        let id = try await lab.create(client)
        labURL = lab.url.appending(path: "api/streams/\(id)").absoluteString
        let response = try await client.execute(HTTPClientRequest(url: labURL), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        var headers = HTTPFields()
        for header in response.headers where header.name.lowercased() != "content-length" {
            if let name = HTTPField.Name(header.name) {
                headers.append(HTTPField(name: name, value: header.value))
            }
        }
        let answer = headers
        floor = LoopbackServer {
            let router = Router()
            router.get("api/streams/:id") { _, _ in
                Response(status: .ok, headers: answer, body: .init(byteBuffer: body))
            }
            return router
        }
        floorURL = await floor.start().appending(path: "api/streams/\(id)").absoluteString
    }

    /// `reads` GETs of `url`, 32 at a time.
    func read(_ url: String) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<32 {
                group.addTask {
                    for _ in stride(from: worker, to: reads, by: 32) {
                        let response = try await self.client.execute(
                            HTTPClientRequest(url: url),
                            timeout: .seconds(30)
                        )
                        let body = try await response.body.collect(upTo: 1 << 20)
                        guard response.status == .ok, body.readableBytes > 0 else {
                            throw LabBenchmarkError("a read answered \(response.status)")
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

func readBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal],
        timeUnits: .milliseconds,
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(20),
        maxIterations: 30,
        thresholds: [:]
    )
    for (name, route) in [("lab", \ReadRig.labURL), ("memory route", \ReadRig.floorURL)] {
        Benchmark(
            "LabRead/\(name) (2,000 GETs, 32 at a time)",
            configuration: configuration,
            closure: { (benchmark: Benchmark, rig: ReadRig) in
                benchmark.startMeasurement()
                try await rig.read(rig[keyPath: route])
                benchmark.stopMeasurement()
            },
            setup: {
                let rig = try await ReadRig()
                ReadRig.current.withLock { $0 = rig }
                return rig
            },
            teardown: {
                if let rig = ReadRig.current.withLock({ $0.take() }) { await rig.stop() }
            }
        )
    }
}

/// A store and a GRDB pool on files of the same schema, each with one document to save to.
final class SaveRig: Sendable {
    let folder = FileManager.default.temporaryDirectory.appending(path: "lab-saves-\(UUID().uuidString)")
    let store: SQLiteDocumentStore
    let storeID: String
    let pool: DatabasePool
    let poolID: String
    let documents: [StreamDocument]
    let version = Mutex((store: 1, pool: 1))

    init() async throws {
        store = try SQLiteDocumentStore(path: folder.appending(path: "store.sqlite").path)
        storeID = try await store.create(sampleDocument("Saved"), author: "bench").id
        let direct = try SQLiteDocumentStore(path: folder.appending(path: "direct.sqlite").path)
        poolID = try await direct.create(sampleDocument("Saved"), author: "bench").id
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(
            path: folder.appending(path: "direct.sqlite").path,
            configuration: configuration
        )
        documents = (0..<16).map { sampleDocument("Version \($0)") }
    }

    func saveThroughStore() async throws {
        var base = version.withLock { $0.store }
        for _ in 0..<saves {
            _ = try await store.save(
                storeID,
                document: documents[base % 16],
                baseVersion: base,
                author: "bench"
            )
            base += 1
        }
        version.withLock { $0.store = base }
    }

    func saveThroughGRDB() async throws {
        var base = version.withLock { $0.pool }
        for _ in 0..<saves {
            // The same rows as the store writes, from the same document, encoded the same way.
            let (id, number, body) = (poolID, base + 1, try documents[base % 16].encoded())
            let time = (Date().timeIntervalSince1970 * 1000).rounded() / 1000
            try await pool.write { db in
                try db.execute(
                    sql: "UPDATE documents SET version = ?, updated_at = ? WHERE id = ?",
                    arguments: [number, time, id]
                )
                try db.execute(
                    sql:
                        "INSERT INTO versions (document_id, number, saved_at, author, body) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, number, time, "bench", body]
                )
            }
            base += 1
        }
        version.withLock { $0.pool = base }
    }
}

func saveBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal],
        timeUnits: .milliseconds,
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(20),
        maxIterations: 30,
        thresholds: [:]
    )
    let saving: [(String, @Sendable (SaveRig) async throws -> Void)] = [
        ("SQLiteDocumentStore", { try await $0.saveThroughStore() }),
        ("GRDB, the same rows", { try await $0.saveThroughGRDB() }),
    ]
    for (name, save) in saving {
        let kept = Mutex<SaveRig?>(nil)
        Benchmark(
            "LabSaves/\(name) (200 saves)",
            configuration: configuration,
            closure: { (benchmark: Benchmark, rig: SaveRig) in
                benchmark.startMeasurement()
                try await save(rig)
                benchmark.stopMeasurement()
            },
            setup: {
                let made = try await SaveRig()
                kept.withLock { $0 = made }
                return made
            },
            teardown: { kept.withLock { $0 = nil } }
        )
    }
}
