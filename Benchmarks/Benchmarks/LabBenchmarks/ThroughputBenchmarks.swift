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
import TributaryLabWire
import TributaryStreams

// Reading a document: 2,000 GETs at concurrency 32 through AsyncHTTPClient, from the lab and
// from a Hummingbird route that answers with the same bytes and headers from memory.
// Saving: 200 saves one after another through SQLiteDocumentStore, and through GRDB writing the
// same rows to a file of the same schema.

private let reads = 2_000
private let saves = 200

final class ReadRig: Rig {
    let lab: RunningLab
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let labURL: String
    let floorURL: String
    private let floor: LoopbackServer

    init() async throws {
        lab = try await RunningLab()
        let id = try await lab.create(client)
        labURL = lab.url.appending(path: "api/streams/\(id)").absoluteString
        let (floor, floorBase) = try await memoryCopy(of: labURL, at: "api/streams/:id", client: client)
        self.floor = floor
        floorURL = floorBase.appending(path: "api/streams/\(id)").absoluteString
    }

    /// `reads` GETs of `url`, 32 at a time.
    func read(_ url: String) async throws {
        try await getConcurrently(url, client: client, count: reads)
    }

    func stop() async {
        try? await client.shutdown()
        await lab.stop()
    }
}

func readBenchmarks() {
    for (name, route) in [("lab", \ReadRig.labURL), ("memory route", \ReadRig.floorURL)] {
        benchmark(
            "LabRead/\(name) (2,000 GETs, 32 at a time)",
            configuration: throughputConfiguration,
            on: ReadRig.self
        ) {
            benchmark,
            rig in
            benchmark.startMeasurement()
            try await rig.read(rig[keyPath: route])
            benchmark.stopMeasurement()
        }
    }
}

/// A store and a GRDB pool on files of the same schema, each with one document to save to.
final class SaveRig: Rig {
    let folder = FileManager.default.temporaryDirectory.appending(path: "lab-saves-\(UUID().uuidString)")
    let store: SQLiteDocumentStore
    let storeID: DocumentID
    let pool: DatabasePool
    let poolID: String
    let documents: [StreamDocument]
    let version = Mutex((store: 1, pool: 1))

    init() async throws {
        store = try SQLiteDocumentStore(path: folder.appending(path: "store.sqlite").path)
        storeID = try await store.create(sampleDocument("Saved"), author: "bench").id
        let direct = try SQLiteDocumentStore(path: folder.appending(path: "direct.sqlite").path)
        poolID = try await direct.create(sampleDocument("Saved"), author: "bench").id.description
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(
            path: folder.appending(path: "direct.sqlite").path,
            configuration: configuration
        )
        documents = (0..<16).map { sampleDocument("Version \($0)") }
    }

    func stop() async {
        try? FileManager.default.removeItem(at: folder)
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
    let saving: [(String, @Sendable (SaveRig) async throws -> Void)] = [
        ("SQLiteDocumentStore", { try await $0.saveThroughStore() }),
        ("GRDB, the same rows", { try await $0.saveThroughGRDB() }),
    ]
    for (name, save) in saving {
        benchmark("LabSaves/\(name) (200 saves)", configuration: throughputConfiguration, on: SaveRig.self) {
            benchmark,
            rig in
            benchmark.startMeasurement()
            try await save(rig)
            benchmark.stopMeasurement()
        }
    }
}
