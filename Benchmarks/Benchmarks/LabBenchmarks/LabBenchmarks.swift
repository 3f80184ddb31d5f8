import AsyncHTTPClient
import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import Hummingbird
import HummingbirdWSClient
import Logging
import NIOCore
import Synchronization
import TributaryLab
import TributaryStreams

// The lab's service under load, each scenario beside its floor in one run: a save's fan-out to
// 500 live viewers beside the same with one; reading a document beside a route that returns the
// same bytes from memory; saving through the SQLite store beside GRDB writing the same rows; and
// the memory of 1,000 idle live connections, held by a process of their own.

let quiet: Logger = {
    var logger = Logger(label: "LabBenchmarks")
    logger.logLevel = .critical
    return logger
}()

/// A small valid document: three values, delayed, doubled and summed.
func sampleDocument(_ name: String) -> StreamDocument {
    let items = (1...3).map { #"{"value": \#($0), "operators": [{"operator": "delay", "seconds": 1}]}"# }
    let json = #"""
        {"schemaVersion": 1, "name": "\#(name)",
         "streams": [{"id": "numbers", "items": [\#(items.joined(separator: ", "))]}],
         "nodes": [{"id": "doubled", "operator": "map", "input": "numbers", "expression": "$0 * 2"}]}
        """#
    do {
        return try StreamDocument.decode(Data(json.utf8))
    } catch {
        fatalError("the sample document does not read: \(error)")
    }
}

/// A lab on a loopback port over a new SQLite file, running until `stop()`.
final class RunningLab: Sendable {
    let url: URL
    let token = "benchmark-token-0123456789"
    let server: LabServer
    private let stopping: AsyncStream<Void>.Continuation
    private let task: Task<Void, any Error>

    init() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lab-bench-\(UUID().uuidString)")
        server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: token
        )
        let (stop, stopping) = AsyncStream<Void>.makeStream()
        let (ready, readiness) = AsyncStream<URL>.makeStream()
        self.stopping = stopping
        let server = server
        task = Task {
            try await server.withRunning { url in
                readiness.yield(url)
                for await _ in stop {}
            }
            try? FileManager.default.removeItem(at: folder)
        }
        var iterator = ready.makeAsyncIterator()
        guard let url = await iterator.next() else { throw CancellationError() }
        self.url = url
    }

    func stop() async {
        stopping.finish()
        _ = await task.result
    }

    /// Creates a document through the API; returns its id.
    func create(_ client: HTTPClient) async throws -> String {
        var request = HTTPClientRequest(url: url.appending(path: "api/streams").absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try sampleDocument("Fan-out").encoded()))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
        guard response.status == .created, let id = object?["id"] as? String else {
            throw LabBenchmarkError("creating a document answered \(response.status)")
        }
        return id
    }

    /// Saves a new version through the API.
    func save(_ client: HTTPClient, id: String, baseVersion: Int, body: ByteBuffer) async throws {
        var request = HTTPClientRequest(url: url.appending(path: "api/streams/\(id)").absoluteString)
        request.method = .PUT
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "If-Match", value: "\"\(baseVersion)\"")
        request.body = .bytes(body)
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw LabBenchmarkError("a save answered \(response.status)") }
    }
}

struct LabBenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

let benchmarks: @Sendable () -> Void = {
    fanOutBenchmarks()
    readBenchmarks()
    saveBenchmarks()
    idleConnectionBenchmarks()
}
