import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import TributaryTestSupport

/// What the server's `echo` route saw of a request: its raw query and its header fields, by
/// lower-case name.
struct Echo: Codable, Sendable {
    var query: String
    var headers: [String: String]
}

/// A NewsAPI-flavoured HTTP server on a loopback port chosen by the system, with one route
/// for each way a server can answer.
struct TestServer {
    /// What the server has seen, for tests to check.
    final class Log: Sendable {
        private let hits = Locked<[String: Int]>([:])
        let arrivals: AsyncStream<String>
        private let arrived: AsyncStream<String>.Continuation

        init() {
            (arrivals, arrived) = AsyncStream.makeStream()
        }

        /// Counts a request to `key` and returns how many there have been.
        func hit(_ key: String) -> Int {
            arrived.yield(key)
            return hits.withLock { hits in
                hits[key, default: 0] += 1
                return hits[key]!
            }
        }

        func count(_ key: String) -> Int {
            hits.withLock { $0[key, default: 0] }
        }

        /// Opened when the test is over. A long hold at it lets a test judge a client by the
        /// server's clock, however loaded the machine, without the server waiting that long to
        /// shut down.
        let testOver = Gate()
    }

    static let articlesPage = """
        {"status":"ok","totalResults":2,"articles":[
          {"source":{"id":"bbc-news","name":"BBC News"},"author":null,"title":"First",
           "description":"One","url":"https://example.com/1","urlToImage":null,
           "publishedAt":"2024-01-26T14:00:00Z","content":"Body [+2500 chars]"},
          {"source":{"id":null,"name":"Wire"},"author":"Ann","title":"Second",
           "description":null,"url":"https://example.com/2","urlToImage":"https://example.com/2.jpg",
           "publishedAt":"2024-01-26T15:30:00.123+00:00","content":null}]}
        """

    /// Runs a server for the duration of `body`, which gets its base URL and log.
    static func run<Result: Sendable>(_ body: (URL, Log) async throws -> Result) async throws -> Result {
        let log = Log()
        return try await withLoopbackServer(router(log)) { url in
            defer { log.testOver.open() }
            return try await body(url, log)
        }
    }

    private static func json(
        _ text: String,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    )
        -> Response
    {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A JSON body that `write` produces piece by piece. When the client hangs up part way, the
    /// writer is finished all the same.
    private static func streamedJSON(
        _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody { writer in
                try? await write(&writer)
                try? await writer.finish(nil)
            }
        )
    }

    private static func newsError(_ code: String, _ message: String, status: HTTPResponse.Status) -> Response
    {
        json(#"{"status":"error","code":"\#(code)","message":"\#(message)"}"#, status: status)
    }

    private static func key(_ request: Request) -> String {
        "\(request.uri.path)#\(request.uri.queryParameters["id"].map(String.init) ?? "")"
    }

    private static func router(_ log: Log) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("json") { request, _ in
            _ = log.hit(key(request))
            return json(articlesPage)
        }
        router.get("echo") { request, _ in
            _ = log.hit(key(request))
            var fields: [String: String] = [:]
            for field in request.headers {
                fields[field.name.canonicalName] = field.value
            }
            let data = try JSONEncoder().encode(Echo(query: request.uri.query ?? "", headers: fields))
            return json(String(decoding: data, as: UTF8.self))
        }
        router.post("bounce") { request, _ in
            let status = Int(request.uri.queryParameters["status"] ?? "") ?? 302
            return Response(
                status: .init(code: status),
                headers: [.location: String(request.uri.queryParameters["to"] ?? "/json")]
            )
        }
        router.post("echo") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            return Response(
                status: .ok,
                headers: [.contentType: request.headers[.contentType] ?? "application/octet-stream"],
                body: .init(byteBuffer: body)
            )
        }
        router.get("empty") { request, _ in
            _ = log.hit(key(request))
            return Response(status: .noContent)
        }
        router.get("redirect") { _, _ in
            Response(status: .found, headers: [.location: "/json"])
        }
        // Redirects to itself, with a counter that grows, so that only the limit ends it.
        router.get("loop") { request, _ in
            let hop = Int(request.uri.queryParameters["hop"] ?? "") ?? 0
            _ = log.hit("loop")
            return Response(status: .found, headers: [.location: "/loop?hop=\(hop + 1)"])
        }
        // Redirects to `to`, with the status `status` (302 by default).
        router.on("bounce", method: .get) { request, _ in
            _ = log.hit(key(request))
            let status = Int(request.uri.queryParameters["status"] ?? "") ?? 302
            return Response(
                status: .init(code: status),
                headers: [.location: String(request.uri.queryParameters["to"] ?? "/json")]
            )
        }
        router.get("unauthorized") { _, _ in
            newsError(
                "apiKeyInvalid",
                "Your API key is invalid or incorrect. Check your key, or go to https://newsapi.org to create a free API key.",
                status: .unauthorized
            )
        }
        router.get("missing") { _, _ in
            Response(
                status: .notFound,
                headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(string: "<html><body><h1>Not Found</h1></body></html>"))
            )
        }
        router.get("upgrade") { _, _ in
            newsError(
                "maximumResultsReached",
                "You have requested too many results. Developer accounts are limited to a max of 100 results.",
                status: .init(code: 426)
            )
        }
        router.get("rate-limited") { request, _ in
            guard log.hit(key(request)) > 1 else {
                var response = newsError(
                    "rateLimited",
                    "You have been rate limited.",
                    status: .tooManyRequests
                )
                response.headers[.retryAfter] = "1"
                return response
            }
            return json(articlesPage)
        }
        router.get("flaky") { request, _ in
            guard log.hit(key(request)) > 1 else {
                return newsError("unexpectedError", "Something went wrong.", status: .internalServerError)
            }
            return json(articlesPage)
        }
        router.get("unavailable") { request, _ in
            _ = log.hit(key(request))
            return Response(status: .serviceUnavailable)
        }
        router.get("malformed") { _, _ in
            json(#"{"status":"ok","totalResults":2,"articles":[{"title":"#)
        }
        router.get("mistyped") { _, _ in
            json(#"{"status":"ok","totalResults":1,"articles":[{"title":"A"},{"title":5}]}"#)
        }
        router.get("wrong-content-type") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: articlesPage))
            )
        }
        router.get("slow") { request, _ in
            _ = log.hit(key(request))
            // Logs "slow done" when the whole 30 s have passed; ends early when the test is over.
            if await !log.testOver.wait(upTo: .seconds(30)) { _ = log.hit("slow done") }
            return json(articlesPage)
        }
        router.get("large") { request, _ in
            let size = Int(request.uri.queryParameters["size"] ?? "") ?? (2 << 20)
            let chunked = request.uri.queryParameters["chunked"] != nil
            let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 64 << 10)
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: chunked ? nil : size) { writer in
                    // The client hangs up part way: the writer is finished all the same.
                    try? await {
                        var left = size
                        while left > 0 {
                            try await writer.write(
                                chunk.getSlice(at: 0, length: min(left, chunk.readableBytes))!
                            )
                            left -= chunk.readableBytes
                        }
                    }()
                    try? await writer.finish(nil)
                }
            )
        }
        // Two bodies that take 8 s: each logs "<path> done" once it is all written.
        router.get("stall") { _, _ in
            // The head and one byte, then nothing for longer than any client waits.
            streamedJSON { writer in
                try await writer.write(ByteBuffer(string: "["))
                try await Task.sleep(for: .seconds(8))
                try await writer.write(ByteBuffer(string: "]"))
                _ = log.hit("stall done")
            }
        }
        router.get("trickle") { _, _ in
            streamedJSON { writer in
                try await writer.write(ByteBuffer(string: "["))
                for index in 0..<80 {
                    try await Task.sleep(for: .milliseconds(100))
                    try await writer.write(ByteBuffer(string: index == 0 ? "0" : ",\(index)"))
                }
                try await writer.write(ByteBuffer(string: "]"))
                _ = log.hit("trickle done")
            }
        }
        router.get("hang") { request, _ in
            _ = log.hit(key(request))
            if await !log.testOver.wait(upTo: .seconds(30)) { _ = log.hit("hang done") }
            return json(articlesPage)
        }
        return router
    }
}
