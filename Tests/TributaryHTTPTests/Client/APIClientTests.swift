import Foundation
import HTTPTypes
import Testing
import TributaryHTTP
import TributaryHTTPTesting

@Suite(.timeLimit(.minutes(5)))
struct APIClientTests {
    let base = URL(string: "https://newsapi.org/v2")!

    @Test func resolvesPathsAgainstTheBaseAndEncodesQueryItemsExactly() async throws {
        let transport = MockTransport(responses: [.json(#"{"ok":true}"#)])
        let client = makeClient(base, transport)
        let query = [
            URLQueryItem(name: "q", value: "+bitcoin -\"ether & co\""),
            URLQueryItem(name: "page", value: "2"),
        ]
        _ = try await client.send(Request<Data>("everything", query: query))
        let sent = try #require(transport.requests.first)
        #expect(
            sent.head.url?.absoluteString
                == "https://newsapi.org/v2/everything?q=%2Bbitcoin%20-%22ether%20%26%20co%22&page=2"
        )
        #expect(sent.head.method == .get)
    }

    @Test func sendsAJSONBodyWithItsContentType() async throws {
        struct Note: Codable, Sendable, Equatable {
            var text: String
            var at: Date
        }
        let note = Note(text: "hi", at: Date(timeIntervalSince1970: 0))
        let transport = MockTransport { request in
            .init(head: HTTPResponse(status: .ok), body: request.body ?? Data())
        }
        let echoed = try await makeClient(base, transport)
            .send(Request<Note>("notes", method: .post, body: .json(note)))
        #expect(echoed == note)
        let sent = try #require(transport.requests.first)
        #expect(sent.head.headerFields[.contentType] == "application/json")
        #expect(String(decoding: sent.body ?? Data(), as: UTF8.self).contains("1970-01-01T00:00:00Z"))
    }

    @Test(arguments: [
        ("top-headlines?country=us", "holds a query or fragment"),
        ("sources#fragment", "holds a query or fragment"),
    ])
    func refusesARequestBuiltWrongBeforeSending(path: String, reason: String) async {
        let transport = MockTransport(responses: [])
        let client = makeClient(base, transport)
        let error = await apiError { try await client.send(Request<Data>(.path(path))) }
        #expect(error?.kind.name == "invalidRequest")
        #expect(error?.description.contains(reason) == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func refusesAURLThatIsNotHTTP() async {
        let transport = MockTransport(responses: [])
        let client = makeClient(base, transport)
        let ftp = URL(string: "ftp://example.com/file")!
        let error = await apiError { try await client.send(Request<Data>(.url(ftp))) }
        #expect(
            error?.description
                == "GET ftp://example.com/file was not sent because its URL is not an http or https URL with a host."
        )
        #expect(transport.requests.isEmpty)
    }

    @Test func refusesABodyThatCannotBeEncoded() async {
        struct Unencodable: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "never"))
            }
        }
        let transport = MockTransport(responses: [])
        let client = makeClient(base, transport)
        let error = await apiError {
            try await client.send(Request<Data>("notes", method: .post, body: .json(Unencodable())))
        }
        #expect(error?.kind.name == "invalidRequest")
        #expect(error?.description.contains("its body could not be encoded") == true)
    }

    @Test func neverRetriesARequestThatIsNotIdempotent() async {
        let transport = MockTransport(responses: [.status(503), .json("{}")])
        let client = makeClient(base, transport)
        let error = await apiError { try await client.send(Request<Data>("notes", method: .post)) }
        #expect(error?.status == .serviceUnavailable)
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422])
    func neverRetriesOtherClientErrors(status: Int) async {
        let transport = MockTransport(responses: [.status(status), .json("{}")])
        let clock = ImmediateClock()
        let client = makeClient(base, transport, clock: clock)
        let error = await apiError { try await client.send(Request<Data>("x")) }
        #expect(error?.status?.code == status)
        #expect(transport.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test(arguments: [408, 500, 502, 503, 504])
    func retriesTheRetryableStatuses(status: Int) async throws {
        let transport = MockTransport(responses: [.status(status), .json(#""done""#)])
        let value = try await makeClient(base, transport).send(Request<String>("x"))
        #expect(value == "done")
        #expect(transport.requests.count == 2)
    }

    @Test func retriesTransportFailuresAndTimeouts() async throws {
        let transport = MockTransport(responses: [
            .failure(.connection(URLError(.networkConnectionLost))), .failure(.timedOut), .json("1"),
        ])
        let clock = ImmediateClock()
        let value = try await makeClient(base, transport, clock: clock).send(Request<Int>("x"))
        #expect(value == 1)
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
    }

    @Test func doesNotRetryA429ThatDoesNotSayWhen() async {
        let transport = MockTransport(responses: [.status(429), .json("1")])
        let clock = ImmediateClock()
        let error = await apiError {
            try await makeClient(base, transport, clock: clock).send(Request<Int>("x"))
        }
        #expect(error?.status == .tooManyRequests)
        #expect(clock.sleeps.isEmpty)
        #expect(transport.requests.count == 1)
    }

    @Test func givesUpWhenRetryAfterWouldOutlastTheBudget() async {
        let transport = MockTransport(responses: [.status(429, headers: [.retryAfter: "120"]), .json("1")])
        let clock = ImmediateClock()
        let error = await apiError {
            try await makeClient(base, transport, clock: clock).send(Request<Int>("x"))
        }
        #expect(error?.status == .tooManyRequests)
        #expect(error?.retryAfter() == .seconds(120))
        #expect(clock.sleeps.isEmpty)
        #expect(transport.requests.count == 1)
    }

    @Test func honoursARetryAfterDate() async throws {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        let transport = MockTransport(responses: [
            .status(503, headers: [.retryAfter: "Sun, 06 Nov 1994 08:49:42 GMT"]), .json("1"),
        ])
        let clock = ImmediateClock()
        var client = makeClient(base, transport, clock: clock)
        client.now = { now }
        _ = try await client.send(Request<Int>("x"))
        #expect(clock.sleeps == [.seconds(5)])
    }

    @Test func stopsRetryingWhenTheBudgetIsSpent() async {
        var policy = predictableRetries
        policy.maximumAttempts = 10
        policy.budget = .milliseconds(250)
        let transport = MockTransport(responses: Array(repeating: .status(500), count: 10))
        let clock = ImmediateClock()
        let error = await apiError {
            try await makeClient(base, transport, clock: clock, retryPolicy: policy).send(Request<Int>("x"))
        }
        #expect(error?.status == .internalServerError)
        #expect(clock.sleeps == [.milliseconds(100)])  // 100 + 200 would pass 250 ms
        #expect(transport.requests.count == 2)
    }

    @Test func cancellationDuringARetryWaitEndsAsCancelled() async {
        let transport = MockTransport(responses: [.status(503), .json("1")])
        let client = APIClient(
            baseURL: base,
            transport: transport,
            retryPolicy: RetryPolicy(initialDelay: .seconds(30), jitter: { $0 })
        )
        let task = Task { try await client.send(Request<Int>("x")) }
        while transport.requests.isEmpty {
            await Task.yield()
        }
        task.cancel()
        let error = await apiError { try await task.value }
        #expect(error?.kind.name == "cancelled")
        #expect(transport.requests.count == 1)
    }

    @Test func decodesLenientDatesAndSkipsNothing() async throws {
        struct Stamps: Decodable, Sendable {
            var dates: [Date]
        }
        let body =
            #"{"dates":["2024-01-26T14:00:00Z","2024-01-26T14:00:00+00:00","2024-01-26T14:00:00.5Z",1706277600]}"#
        let transport = MockTransport(responses: [.json(body)])
        let stamps = try await makeClient(base, transport).send(Request<Stamps>("x"))
        let expected = Date(timeIntervalSince1970: 1_706_277_600)
        #expect(stamps.dates == [expected, expected, expected.addingTimeInterval(0.5), expected])
    }

    @Test func mapsTransportFailuresToTheirKinds() async {
        let cases: [(TransportFailure, String)] = [
            (.timedOut, "timedOut"), (.cancelled, "cancelled"),
            (.responseBodyTooLarge(limit: 5), "bodyTooLarge"),
            (.connection(URLError(.cannotConnectToHost)), "transport"),
            (.unsupportedRequest("no"), "invalidRequest"),
        ]
        for (failure, kind) in cases {
            let transport = MockTransport(responses: [.failure(failure)])
            let client = makeClient(base, transport, retryPolicy: .never)
            let error = await apiError { try await client.send(Request<Int>("x")) }
            #expect(error?.kind.name == kind)
        }
    }

    @Test func returnsTheResponseHeadWithTheValue() async throws {
        let transport = MockTransport(responses: [.json("[1,2]", headers: [.eTag: "\"v1\""])])
        let (value, response) = try await makeClient(base, transport).exchange(Request<[Int]>("x"))
        #expect(value == [1, 2])
        #expect(response.headerFields[.eTag] == "\"v1\"")
    }
}
