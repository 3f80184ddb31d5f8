import Foundation
import HTTPTypes
import Testing
import Tributary
import TributaryHTTP
import TributaryHTTPTesting
import TributaryTestSupport

/// Every way a real server on loopback can answer, through both transports.
@Suite(.timeLimit(.minutes(5)))
struct LoopbackTests {
    static let transports = TransportKind.allCases

    @Test(arguments: transports)
    func decodesA200JSONPage(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let (page, response) = try await makeClient(url, transport).exchange(Request<Page>("json"))
                #expect(response.status == .ok)
                #expect(page.articles.map(\.title) == ["First", "Second"])
                #expect(page.articles[1].publishedAt == Date(timeIntervalSince1970: 1_706_283_000.123))
            }
        }
    }

    @Test(arguments: transports)
    func acceptsA204WithNoBody(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let (_, response) = try await makeClient(url, transport).exchange(Request<Void>("empty"))
                #expect(response.status == .noContent)
            }
        }
    }

    @Test(arguments: transports)
    func followsARedirect(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let page = try await makeClient(url, transport).send(Request<Page>("redirect"))
                #expect(page.totalResults == 2)
            }
        }
    }

    @Test(arguments: transports)
    func surfacesTheServersMessageOn401(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let client = makeClient(url, transport)
                let error = await apiError { try await client.send(Request<Page>("unauthorized")) }
                #expect(error?.status == .unauthorized)
                #expect(error?.serverError?.code == "apiKeyInvalid")
                #expect(error?.isRetryable == false)
                #expect(
                    error?.description.contains("failed with HTTP 401 Unauthorized: Your API key is invalid")
                        == true
                )
            }
        }
    }

    @Test(arguments: transports)
    func keepsTheBodyOfA404WithHTML(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let client = makeClient(url, transport)
                let error = await apiError { try await client.send(Request<Page>("missing")) }
                #expect(error?.status == .notFound)
                #expect(error?.serverError == nil)
                #expect(error?.description.contains("<h1>Not Found</h1>") == true)
            }
        }
    }

    @Test(arguments: transports)
    func reportsA426WithTheServersCode(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let client = makeClient(url, transport)
                let error = await apiError { try await client.send(Request<Page>("upgrade")) }
                #expect(error?.status?.code == 426)
                #expect(error?.serverError?.code == "maximumResultsReached")
            }
        }
    }

    @Test(arguments: transports)
    func waitsAsRetryAfterSaysThenSucceeds(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let clock = ImmediateClock()
                let id = testID()
                let page = try await makeClient(url, transport, clock: clock)
                    .send(Request<Page>("rate-limited", query: [id]))
                #expect(page.totalResults == 2)
                #expect(clock.sleeps == [.seconds(1)])
                #expect(log.count("/rate-limited#\(id.value!)") == 2)
            }
        }
    }

    @Test(arguments: transports)
    func retriesA500(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let clock = ImmediateClock()
                let id = testID()
                let page = try await makeClient(url, transport, clock: clock).send(
                    Request<Page>("flaky", query: [id])
                )
                #expect(page.totalResults == 2)
                #expect(clock.sleeps == [.milliseconds(100)])
                #expect(log.count("/flaky#\(id.value!)") == 2)
            }
        }
    }

    @Test(arguments: transports)
    func givesUpOnA503WhenAttemptsRunOut(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let clock = ImmediateClock()
                let id = testID()
                let client = makeClient(url, transport, clock: clock)
                let error = await apiError {
                    try await client.send(Request<Page>("unavailable", query: [id]))
                }
                #expect(error?.status == .serviceUnavailable)
                #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
                #expect(log.count("/unavailable#\(id.value!)") == 3)
            }
        }
    }

    @Test(arguments: transports)
    func reportsMalformedJSON(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let client = makeClient(url, transport)
                let error = await apiError { try await client.send(Request<Page>("malformed")) }
                guard case .undecodable(_, let reason, let snippet) = error?.kind else {
                    Issue.record("expected undecodable, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains("not valid JSON") || reason.contains("JSON"))
                #expect(snippet.hasPrefix(#"{"status":"ok""#))
            }
        }
    }

    @Test(arguments: transports)
    func namesTheCodingPathOfAMistypedValue(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let client = makeClient(url, transport)
                let error = await apiError { try await client.send(Request<Page>("mistyped")) }
                guard case .undecodable(let path, _, _) = error?.kind else {
                    Issue.record("expected undecodable, got \(String(describing: error))")
                    return
                }
                #expect(path == "articles[1].title")
                #expect(error?.description.contains("could not be decoded at articles[1].title") == true)
            }
        }
    }

    @Test(arguments: transports)
    func decodesJSONServedWithTheWrongContentType(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let page = try await makeClient(url, transport).send(Request<Page>("wrong-content-type"))
                #expect(page.articles.count == 2)
            }
        }
    }

    @Test(arguments: transports)
    func failsOnABodyCutShort(kind: TransportKind) async throws {
        let reply =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"status\":\"ok\""
        try await RawServer.run(replying: reply) { url in
            try await kind.with { transport in
                let client = makeClient(url, transport, retryPolicy: .never)
                let error = await apiError { try await client.send(Request<Page>("json")) }
                #expect(error?.kind.name == "transport")
                #expect(error?.isRetryable == true)
            }
        }
    }

    @Test(arguments: transports)
    func timesOutASlowResponse(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let client = makeClient(url, transport, retryPolicy: .never, timeout: .milliseconds(300))
                let error = await apiError { try await client.send(Request<Page>("slow")) }
                #expect(error?.kind.name == "timedOut")
                #expect(error?.description.contains("timed out after 0.3 seconds") == true)
                // Before the server's 30-second answer, by the server's own clock.
                #expect(log.count("slow done") == 0)
            }
        }
    }

    /// A body that trickles in, and one that stalls after its first byte, both end at the
    /// deadline, long before the server is done (8 s later). The server's own clock is the
    /// yardstick, so a machine slowed down by the sanitizer slows both sides alike.
    @Test(arguments: transports, ["trickle", "stall"])
    func timesOutABodyThatRunsPastTheDeadline(kind: TransportKind, path: String) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let client = makeClient(url, transport, retryPolicy: .never, timeout: .milliseconds(500))
                let error = await apiError { try await client.send(Request<[Int]>(.path(path))) }
                #expect(error?.kind.name == "timedOut")
                #expect(log.count("\(path) done") == 0)
            }
        }
    }

    @Test(arguments: transports)
    func reportsARefusedConnection(kind: TransportKind) async throws {
        let url = try await RawServer.refusedURL()
        try await kind.with { transport in
            let client = makeClient(url, transport, retryPolicy: .never)
            let error = await apiError { try await client.send(Request<Page>("json")) }
            guard case .transport(let failure as ConnectionFailure)? = error?.kind else {
                Issue.record("expected a connection failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .refused)
            #expect(
                error?.description
                    == "GET \(url.absoluteString)/json could not reach the server: the connection was refused: nothing is listening there."
            )
        }
    }

    /// A name that resolves to nothing, through both transports.
    @Test(arguments: transports)
    func reportsAHostThatDoesNotResolve(kind: TransportKind) async throws {
        try await kind.with { transport in
            let client = makeClient(
                URL(string: "http://no-such-host.invalid")!,
                transport,
                retryPolicy: .never
            )
            let error = await apiError { try await client.send(Request<Page>("json")) }
            guard case .transport(let failure as ConnectionFailure)? = error?.kind else {
                Issue.record("expected a connection failure, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .hostNotFound)
        }
    }

    @Test(arguments: transports, [false, true])
    func refusesABodyOverTheLimit(kind: TransportKind, chunked: Bool) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let client = makeClient(url, transport, retryPolicy: .never, maximumResponseBodySize: 1 << 20)
                var query = [URLQueryItem(name: "size", value: "\(3 << 20)")]
                if chunked {
                    query.append(URLQueryItem(name: "chunked", value: "1"))
                }
                let error = await apiError { try await client.send(Request<Data>("large", query: query)) }
                guard case .bodyTooLarge(let limit) = error?.kind else {
                    Issue.record("expected bodyTooLarge, got \(String(describing: error))")
                    return
                }
                #expect(limit == 1 << 20)
                #expect(error?.description.contains("larger than the 1 MiB limit") == true)

                let small = try await client.send(
                    Request<Data>("large", query: [URLQueryItem(name: "size", value: "1000")])
                )
                #expect(small.count == 1000)
            }
        }
    }

    @Test(arguments: transports)
    func cancelsThroughTaskCancellation(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let client = makeClient(url, transport)
                let task = Task { () async throws(APIError) -> Page in
                    try await client.send(Request<Page>("hang"))
                }
                for await path in log.arrivals where path.hasPrefix("/hang") { break }
                task.cancel()
                let result = await task.result
                guard case .failure(let error) = result else {
                    Issue.record("expected cancellation, got \(result)")
                    return
                }
                #expect((error as? APIError)?.kind.name == "cancelled")
                // Before the server's 30-second answer, by the server's own clock.
                #expect(log.count("hang done") == 0)
            }
        }
    }

    @Test(arguments: transports)
    func cancelsThroughPublisherCancellation(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let ended = AsyncStream<String>.makeStream()
                let watcher = Hook(
                    beforeSend: { _ in },
                    afterReceive: { _, _ in ended.continuation.yield("response") }
                )
                let observer = CancellationObserver(ended.continuation)
                let client = makeClient(url, transport, middleware: [observer, watcher])
                let events = Locked<[String]>([])
                let cancellable = client.publisher(for: Request<Page>("hang"))
                    .sink(
                        receiveCompletion: { completion in events.withLock { $0.append("\(completion)") } },
                        receiveValue: { _ in events.withLock { $0.append("value") } }
                    )
                for await path in log.arrivals where path.hasPrefix("/hang") { break }
                cancellable.cancel()
                var iterator = ended.stream.makeAsyncIterator()
                #expect(await iterator.next() == "cancelled")
                #expect(events.current.isEmpty)
            }
        }
    }

    @Test(arguments: transports)
    func publisherSendsNothingBeforeSubscriptionAndOnceForEach(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let id = testID()
                let client = makeClient(url, transport)
                let publisher = client.publisher(for: Request<Page>("json", query: [id]))
                // Another exchange through the same client, begun after the publisher was made,
                // has ended: a request the publisher made on its own would be under way too.
                let marker = testID()
                _ = try await client.send(Request<Page>("json", query: [marker]))
                #expect(log.count("/json#\(marker.value!)") == 1)
                #expect(log.count("/json#\(id.value!)") == 0)
                for expected in 1...2 {
                    let page = try await firstValue(of: publisher)
                    #expect(page.totalResults == 2)
                    #expect(log.count("/json#\(id.value!)") == expected)
                }
            }
        }
    }
}

/// Reports how the exchanges that pass through it end, on `continuation`.
struct CancellationObserver: APIMiddleware {
    let continuation: AsyncStream<String>.Continuation

    init(_ continuation: AsyncStream<String>.Continuation) {
        self.continuation = continuation
    }

    func intercept(
        _ request: TransportRequest,
        next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        do {
            return try await next(request)
        } catch {
            let cancelled =
                error is CancellationError
                || (error as? TransportFailure).map {
                    if case .cancelled = $0 { true } else { false }
                } == true
            continuation.yield(cancelled ? "cancelled" : "failed: \(error)")
            throw error
        }
    }
}

/// The first value `publisher` publishes.
func firstValue<P: Publisher>(of publisher: P) async throws -> P.Output where P.Output: Sendable {
    let box = Locked<AnyCancellable?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
        let resumed = Locked(false)
        func resume(_ result: Result<P.Output, any Error>) {
            guard
                resumed.withLock({ done in
                    defer { done = true }; return !done
                })
            else { return }
            continuation.resume(with: result)
        }
        let cancellable = publisher.first().sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { resume(.failure(error)) }
            },
            receiveValue: { resume(.success($0)) }
        )
        box.withLock { $0 = cancellable }
    }
}
