import AsyncHTTPClient
import Foundation
import Testing
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryTestSupport

/// The code of `TributaryAsyncHTTPClient`'s Getting Started article, as it is written there,
/// against a server on loopback.
@Suite(.timeLimit(.minutes(2)))
struct AsyncHTTPClientGettingStartedTests {
    struct Health: Decodable, Sendable {
        var status: String
    }

    @Test func theArticlesCodeRuns() async throws {
        try await GettingStartedServer.run { baseURL, answered in
            // Send a request in a scope
            let health = try await AsyncHTTPClientTransport.withTransport { transport in
                let client = APIClient(baseURL: baseURL, transport: transport)
                return try await client.send(Request<Health>("api/health"))
            }
            print(health.status)  // "ok"
            #expect(health.status == "ok")

            // Keep one for the life of an app
            let transport = AsyncHTTPClientTransport()
            let client = APIClient(baseURL: baseURL, transport: transport)
            let again = try await client.send(Request<Health>("api/health"))
            // … the app sends every request through `client` …
            try await transport.shutdown()
            #expect(again.status == "ok")
            #expect(transport.ownsClient)
            let afterShutdown = await #expect(throws: APIError.self) {
                try await client.send(Request<Health>("api/health"))
            }
            #expect(afterShutdown?.kind.name == "transport")

            let borrowing = AsyncHTTPClientTransport(borrowing: HTTPClient.shared)
            let shared = APIClient(baseURL: baseURL, transport: borrowing)
            let status = try await shared.send(Request<Health>("api/health")).status
            #expect(status == "ok")
            #expect(!borrowing.ownsClient)

            #expect(answered.current == 3)
        }
    }
}
