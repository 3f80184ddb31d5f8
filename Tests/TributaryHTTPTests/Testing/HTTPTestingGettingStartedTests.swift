import Foundation
import Testing
import TributaryHTTP
import TributaryHTTPTesting

/// The code of `TributaryHTTPTesting`'s Getting Started article, as it is written there.
@Suite(.timeLimit(.minutes(1)))
struct HTTPTestingGettingStartedTests {
    struct Health: Decodable, Sendable {
        var status: String
    }

    // Test a retry
    @Test func retriesWhenTheServerIsBusy() async throws {
        let transport = MockTransport(responses: [
            .status(503),
            .json(#"{"status":"ok"}"#),
        ])
        let clock = ImmediateClock()
        let client = APIClient(
            baseURL: URL(string: "https://api.example.com/v1")!,
            transport: transport,
            clock: RetryClock(clock)
        )

        let health = try await client.send(Request<Health>("health"))

        #expect(health.status == "ok")
        #expect(transport.requests.count == 2)
        #expect(clock.sleeps.count == 1)
    }

    // Answer from a closure
    @Test func reportsATimeout() async throws {
        let transport = MockTransport { _ throws(TransportFailure) in throw .timedOut }
        let client = APIClient(
            baseURL: URL(string: "https://api.example.com/v1")!,
            transport: transport,
            retryPolicy: .never
        )

        await #expect(throws: APIError.self) { try await client.send(Request<Health>("health")) }
        #expect(transport.requests.count == 1)
    }
}
