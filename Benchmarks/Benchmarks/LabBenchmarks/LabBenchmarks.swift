import AsyncHTTPClient
import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import HTTPTypes
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

    init(news: LabNews? = nil) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lab-bench-\(UUID().uuidString)")
        // Every viewer of a benchmark comes from loopback, one address.
        var configuration = LabConfiguration()
        configuration.maximumLiveConnectionsPerAddress = configuration.maximumLiveConnections
        server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: token,
            news: news,
            configuration: configuration
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

    /// Creates a document through the API, by default a small one; returns its id.
    func create(_ client: HTTPClient, body: ByteBuffer? = nil) async throws -> String {
        var request = HTTPClientRequest(url: url.appending(path: "api/streams").absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(try body ?? ByteBuffer(data: sampleDocument("Fan-out").encoded()))
        let response = try await client.execute(request, timeout: .seconds(30))
        let answer = try await response.body.collect(upTo: 8 << 20)
        let object = try JSONSerialization.jsonObject(with: Data(answer.readableBytesView)) as? [String: Any]
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

/// A Hummingbird server whose one route, `path`, answers what `url` answered: the same status
/// line, headers and bytes, from memory. The floor a lab route is measured against.
func memoryCopy(
    of url: String,
    at path: String,
    client: HTTPClient,
    token: String? = nil
) async throws -> (LoopbackServer, URL) {
    var request = HTTPClientRequest(url: url)
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    let response = try await client.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 10 << 20)
    guard response.status == .ok else { throw LabBenchmarkError("\(url) answered \(response.status)") }
    var headers = HTTPFields()
    for header in response.headers where header.name.lowercased() != "content-length" {
        if let name = HTTPField.Name(header.name) {
            headers.append(HTTPField(name: name, value: header.value))
        }
    }
    let answer = headers
    let server = LoopbackServer {
        let router = Router()
        router.get(RouterPath(path)) { _, _ in
            Response(status: .ok, headers: answer, body: .init(byteBuffer: body))
        }
        return router
    }
    return (server, await server.start())
}

/// `count` GETs of `url`, `concurrency` at a time, each answered 200 with a body.
func getConcurrently(
    _ url: String,
    client: HTTPClient,
    count: Int = 2_000,
    concurrency: Int = 32,
    token: String? = nil
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<concurrency {
            group.addTask {
                for _ in stride(from: worker, to: count, by: concurrency) {
                    var request = HTTPClientRequest(url: url)
                    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
                    let response = try await client.execute(request, timeout: .seconds(30))
                    let body = try await response.body.collect(upTo: 10 << 20)
                    guard response.status == .ok, body.readableBytes > 0 else {
                        throw LabBenchmarkError("\(url) answered \(response.status)")
                    }
                }
            }
        }
        try await group.waitForAll()
    }
}

/// What a benchmark's iterations share: made once before them, stopped after them.
protocol Rig: AnyObject, Sendable {
    init() async throws
    func stop() async
}

/// Registers `name`, whose iterations run `body` on one rig of type `R`.
func benchmark<R: Rig>(
    _ name: String,
    configuration: Benchmark.Configuration,
    on rig: R.Type,
    _ body: @escaping @Sendable (Benchmark, R) async throws -> Void
) {
    let kept = Mutex<R?>(nil)
    Benchmark(
        name,
        configuration: configuration,
        closure: { (benchmark: Benchmark, rig: R) in try await body(benchmark, rig) },
        setup: {
            let made = try await R()
            kept.withLock { $0 = made }
            return made
        },
        teardown: {
            if let made = kept.withLock({ $0.take() }) { await made.stop() }
        }
    )
}

/// Many requests at once: a run of a few tenths of a second, thirty times.
var throughputConfiguration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal],
        timeUnits: .milliseconds,
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(20),
        maxIterations: 30,
        thresholds: [:]
    )
}

struct LabBenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

let benchmarks: @Sendable () -> Void = {
    fanOutBenchmarks()
    laneBenchmarks()
    laneLiveBenchmarks()
    readBenchmarks()
    saveBenchmarks()
    idleConnectionBenchmarks()
    newsBenchmarks()
    hostileBenchmarks()
}
