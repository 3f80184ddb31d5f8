import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import Testing
import Tributary
import TributaryHTTP
import TributaryHTTPTesting
import TributaryTestSupport

@Suite(.timeLimit(.minutes(5)))
struct MiddlewareTests {
    let base = URL(string: "https://newsapi.org/v2")!
    let key = "0123456789abcdef"

    @Test func addsAnAPIKeyHeader() async throws {
        let transport = MockTransport(responses: [.json("1")])
        let client = makeClient(
            base,
            transport,
            middleware: [Authentication(.apiKey(key, header: .init("X-Api-Key")!))]
        )
        _ = try await client.send(Request<Int>("top-headlines"))
        #expect(transport.requests.first?.head.headerFields[.init("X-Api-Key")!] == key)
    }

    @Test func addsABearerToken() async throws {
        let transport = MockTransport(responses: [.json("1")])
        let client = makeClient(base, transport, middleware: [Authentication(.bearer(key))])
        _ = try await client.send(Request<Int>("top-headlines"))
        #expect(transport.requests.first?.head.headerFields[.authorization] == "Bearer \(key)")
    }

    @Test func addsAnAPIKeyToTheQueryButNeverShowsIt() async throws {
        let transport = MockTransport(responses: [.status(401, body: Data(#"{"message":"bad key"}"#.utf8))])
        let client = makeClient(
            base,
            transport,
            middleware: [Authentication(.apiKeyInQuery(key, name: "apiKey"))]
        )
        let error = await apiError {
            try await client.send(
                Request<Int>("top-headlines", query: [URLQueryItem(name: "country", value: "us")])
            )
        }
        #expect(transport.requests.first?.head.url?.query == "country=us&apiKey=\(key)")
        #expect(error?.description.contains(key) == false)
        #expect(error?.description.contains("bad key") == true)
    }

    @Test func neverShowsAKeyPutInTheQueryByHand() async {
        let transport = MockTransport(responses: [.status(500)])
        let client = makeClient(base, transport, retryPolicy: .never)
        let error = await apiError {
            try await client.send(
                Request<Int>("everything", query: [URLQueryItem(name: "apiKey", value: key)])
            )
        }
        #expect(error?.url == "https://newsapi.org/v2/everything?apiKey=<redacted>")
        #expect(error?.description.contains(key) == false)
    }

    @Test func logsEachExchangeWithoutSecrets() async throws {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "http") { _ in handler }
        let transport = MockTransport(responses: [.json("1"), .failure(.timedOut)])
        let client = makeClient(
            base,
            transport,
            retryPolicy: .never,
            middleware: [RequestLogging(logger: logger), Authentication(.apiKeyInQuery(key, name: "apiKey"))]
        )
        _ = try await client.send(
            Request<Int>("top-headlines", query: [URLQueryItem(name: "apiKey", value: key)])
        )
        _ = await apiError { try await client.send(Request<Int>("sources")) }

        let entries = handler.entries
        #expect(entries.count == 2)
        let success = "\(entries[0].message)"
        #expect(success.hasPrefix("GET https://newsapi.org/v2/top-headlines?apiKey=<redacted> → 200 in "))
        #expect(success.hasSuffix(" ms"))
        #expect(entries[0].level == .info)
        let failure = "\(entries[1].message)"
        #expect(failure.hasPrefix("GET https://newsapi.org/v2/sources → failed after "))
        #expect(entries[1].level == .warning)
        #expect(entries.allSatisfy { !"\($0.message)".contains(key) })
    }

    @Test func runsHooksBeforeSendingAndAfterReceiving() async throws {
        let transport = MockTransport(responses: [.json("1")])
        let seen = Locked<[Int]>([])
        let hook = Hook(
            beforeSend: { request in request.head.headerFields[.init("X-Request-ID")!] = "42" },
            afterReceive: { _, response in seen.withLock { $0.append(response.head.status.code) } }
        )
        _ = try await makeClient(base, transport, middleware: [hook]).send(Request<Int>("x"))
        #expect(transport.requests.first?.head.headerFields[.init("X-Request-ID")!] == "42")
        #expect(seen.current == [200])
    }

    @Test func aThrowingHookStopsTheRequest() async {
        struct Offline: Error {}
        let transport = MockTransport(responses: [.json("1")])
        let hook = Hook(beforeSend: { _ in throw Offline() })
        let error = await apiError {
            try await makeClient(base, transport, middleware: [hook]).send(Request<Int>("x"))
        }
        #expect(error?.kind.name == "rejected")
        #expect(error?.isRetryable == false)
        #expect(transport.requests.isEmpty)
    }

    @Test func middlewareRunsOutermostFirst() async throws {
        let order = Locked<[String]>([])
        func step(_ name: String) -> Hook {
            Hook(
                beforeSend: { _ in order.withLock { $0.append("\(name)>") } },
                afterReceive: { _, _ in order.withLock { $0.append("<\(name)") } }
            )
        }
        let transport = MockTransport(responses: [.json("1")])
        _ = try await makeClient(base, transport, middleware: [step("a"), step("b")]).send(Request<Int>("x"))
        #expect(order.current == ["a>", "b>", "<b", "<a"])
    }
}
