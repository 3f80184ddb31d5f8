import AsyncHTTPClient
import Benchmark
import BenchmarkSupport
import Foundation
import Hummingbird
import NIOCore
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// One local server serves a 20-article NewsAPI page; each benchmark fetches and decodes it
// `requestsPerRun` times at a fixed concurrency, through APIClient over each transport and
// through the raw clients with the same decoding.

private let requestsPerRun = 256

struct Page: Decodable, Sendable {
    struct Source: Decodable, Sendable {
        var id: String?
        var name: String
    }

    struct Article: Decodable, Sendable {
        var source: Source
        var author: String?
        var title: String
        var description: String?
        var url: URL
        var urlToImage: URL?
        var publishedAt: Date
        var content: String?
    }

    var status: String
    var totalResults: Int
    var articles: [Article]
}

/// The page the server sends: 20 articles shaped like NewsAPI's, nulls included.
let pageJSON: String = {
    let articles = (0..<20).map { index in
        """
        {"source":{"id":\(index % 3 == 0 ? "null" : "\"source-\(index)\""),"name":"Source \(index)"},\
        "author":\(index % 4 == 0 ? "null" : "\"Author \(index)\""),\
        "title":"Headline number \(index) about something that happened today",\
        "description":"A description of article \(index), long enough to look like a real one.",\
        "url":"https://example.com/articles/\(index)",\
        "urlToImage":\(index % 5 == 0 ? "null" : "\"https://example.com/images/\(index).jpg\""),\
        "publishedAt":"2024-01-\(10 + index)T14:\(10 + index):00\(index % 2 == 0 ? "Z" : ".123+00:00")",\
        "content":"The first two hundred characters of article \(index)… [+2500 chars]"}
        """
    }
    return #"{"status":"ok","totalResults":20,"articles":["# + articles.joined(separator: ",") + "]}"
}()

/// The server, started once for the whole run; requests go to its `/v2` path.
let localServer = LoopbackServer {
    let router = Router()
    let body = ByteBuffer(string: pageJSON)
    router.get("v2/top-headlines") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }
    return router
}

/// Runs `fetch` `requestsPerRun` times, `concurrency` at a time.
private func run(concurrency: Int, _ fetch: @escaping @Sendable () async throws -> Int) async throws {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for worker in 0..<concurrency {
            group.addTask {
                var articles = 0
                for _ in stride(from: worker, to: requestsPerRun, by: concurrency) {
                    articles += try await fetch()
                }
                return articles
            }
        }
        var total = 0
        for try await articles in group { total += articles }
        precondition(total == requestsPerRun * 20, "every page has 20 articles")
        blackHole(total)
    }
}

private var configuration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(8),
        maxIterations: 100,
        thresholds: [:]
    )
}

let benchmarks: @Sendable () -> Void = {
    let ahcClient = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: AsyncHTTPClientTransport.defaultConfiguration
    )
    let ahcTransport = AsyncHTTPClientTransport(borrowing: ahcClient)
    let urlSession = URLSession(configuration: URLSessionTransport.defaultConfiguration)
    let urlSessionTransport = URLSessionTransport()
    let decoder = JSONDecoder.lenient()

    for concurrency in [1, 32] {
        Benchmark("FetchPage/APIClient+AsyncHTTPClient/c\(concurrency)", configuration: configuration) {
            benchmark in
            let base = await localServer.start().appending(path: "v2")
            let client = APIClient(baseURL: base, transport: ahcTransport, retryPolicy: .never)
            let request = TributaryHTTP.Request<Page>("top-headlines")
            benchmark.startMeasurement()
            try await run(concurrency: concurrency) { try await client.send(request).articles.count }
            benchmark.stopMeasurement()
        }
        // The same requests, each recorded as a lane exchange into memory.
        Benchmark("FetchPage/APIClient+AsyncHTTPClient+lane/c\(concurrency)", configuration: configuration) {
            benchmark in
            let base = await localServer.start().appending(path: "v2")
            var recorded = APIClient(baseURL: base, transport: ahcTransport, retryPolicy: .never)
            let memory = LaneMemory()
            recorded.laneRecorder = memory
            let client = recorded
            let request = TributaryHTTP.Request<Page>("top-headlines")
            benchmark.startMeasurement()
            try await run(concurrency: concurrency) { try await client.send(request).articles.count }
            benchmark.stopMeasurement()
            precondition(memory.events.count == requestsPerRun * 4, "every exchange is recorded")
        }
        Benchmark("FetchPage/AsyncHTTPClient/c\(concurrency)", configuration: configuration) { benchmark in
            let url = await localServer.start().appending(path: "v2").appending(path: "top-headlines")
                .absoluteString
            benchmark.startMeasurement()
            try await run(concurrency: concurrency) {
                let response = try await ahcClient.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 10 << 20)
                return try decoder.decode(Page.self, from: Data(body.readableBytesView)).articles.count
            }
            benchmark.stopMeasurement()
        }
        Benchmark("FetchPage/APIClient+URLSession/c\(concurrency)", configuration: configuration) {
            benchmark in
            let base = await localServer.start().appending(path: "v2")
            let client = APIClient(baseURL: base, transport: urlSessionTransport, retryPolicy: .never)
            let request = TributaryHTTP.Request<Page>("top-headlines")
            benchmark.startMeasurement()
            try await run(concurrency: concurrency) { try await client.send(request).articles.count }
            benchmark.stopMeasurement()
        }
        Benchmark("FetchPage/URLSession/c\(concurrency)", configuration: configuration) { benchmark in
            let url = await localServer.start().appending(path: "v2").appending(path: "top-headlines")
            benchmark.startMeasurement()
            try await run(concurrency: concurrency) {
                let (data, _) = try await urlSession.data(from: url)
                return try decoder.decode(Page.self, from: data).articles.count
            }
            benchmark.stopMeasurement()
        }
    }
}
