import AsyncHTTPClient
import Foundation
import HTTPTypes
import Testing
import TributaryAsyncHTTPClient
import TributaryHTTP

@Suite(.timeLimit(.minutes(5)))
struct AsyncHTTPClientTransportTests {
    /// A request on a kept-alive connection the server closes as it arrives is sent again on a
    /// new connection when sending it twice is harmless (`GET`, `PUT`, `DELETE`), and fails
    /// otherwise (`POST`): nothing is retried by the client's policy here.
    @Test func sendsAnIdempotentRequestAgainOnAConnectionClosedAsItWentOut() async throws {
        for (method, isIdempotent) in [(HTTPRequest.Method.put, true), (.delete, true), (.post, false)] {
            let transport = AsyncHTTPClientTransport()
            try await RawServer.closingKeptAliveConnections { url, connections in
                let client = makeClient(url, transport, retryPolicy: .never)
                _ = try await client.send(Request<Data>("first"))
                let second = Request<Data>("second", method: method, body: .data(Data("{}".utf8)))
                if isIdempotent {
                    _ = try await client.send(second)
                    #expect(connections() == 2)
                } else {
                    await #expect(throws: (any Error).self) { try await client.send(second) }
                    #expect(connections() == 1)
                }
            }
            try await transport.shutdown()
        }
    }

    @Test func leavesABorrowedClientRunning() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let transport = AsyncHTTPClientTransport(borrowing: client)
        #expect(!transport.ownsClient)
        try await transport.shutdown()
        try await TestServer.run { url, _ in
            let page = try await makeClient(url, transport).send(Request<Page>("json"))
            #expect(page.totalResults == 2)
        }
        try await client.shutdown()
    }

    @Test func shutsDownAnOwnedClientOnceAndRefusesLaterRequests() async throws {
        let transport = AsyncHTTPClientTransport()
        #expect(transport.ownsClient)
        try await transport.shutdown()
        try await transport.shutdown()
        try await TestServer.run { url, _ in
            let error = await apiError {
                try await makeClient(url, transport, retryPolicy: .never).send(Request<Page>("json"))
            }
            #expect(error?.kind.name == "transport")
        }
    }

    @Test func shutsDownTheClientWhenTheScopeEnds() async throws {
        let escaped = try await AsyncHTTPClientTransport.withTransport { $0 }
        let error = await apiError {
            try await makeClient(URL(string: "http://127.0.0.1:9")!, escaped, retryPolicy: .never)
                .send(Request<Page>("json"))
        }
        guard case .transport(let underlying) = error?.kind else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        let failure = try #require(underlying as? ConnectionFailure)
        #expect(failure.underlying as? HTTPClientError == .alreadyShutdown)
    }

    /// An owned client must be shut down before it is released, or AsyncHTTPClient traps: a
    /// transport released without ``shutdown()`` shuts its client down itself.
    @Test func releasingAnOwnedTransportShutsItsClientDown() async throws {
        let client: HTTPClient
        weak var released: AsyncHTTPClientTransport?
        do {
            let transport = AsyncHTTPClientTransport()
            released = transport
            client = transport.client
        }
        #expect(released == nil)
        let error = await #expect(throws: HTTPClientError.self) { try await client.shutdown() }
        #expect(error == .alreadyShutdown)
    }
}
