import Foundation
import HTTPTypes
import Testing
import Tributary
import TributaryHTTP
import TributaryHTTPTesting
import TributaryTestSupport

/// An `APIClient` records each exchange in a lane, beside the pipelines that caused it.
@Suite(.timeLimit(.minutes(5)))
struct RecordedExchangeTests {
    private func client(_ url: URL, _ transport: any HTTPTransporting, into memory: LaneMemory) -> APIClient {
        var client = makeClient(url, transport, clock: ImmediateClock())
        client.laneRecorder = memory
        return client
    }

    @Test(arguments: TransportKind.allCases)
    func recordsAnExchangeWithItsRetriesAndNoSecret(kind: TransportKind) async throws {
        try await TestServer.run { url, _ in
            try await kind.with { transport in
                let memory = LaneMemory()
                let id = testID()
                _ = try await client(url, transport, into: memory).send(
                    Request<Page>("flaky", query: [id, URLQueryItem(name: "apiKey", value: "s3cret-key")])
                )
                let kinds = memory.events(lane: "http").map(\.kind)
                #expect(kinds.count == 4, "\(kinds)")
                #expect(
                    Array(kinds.prefix(2)) == [.subscribed, .requested(.max(1))] && kinds.last == .finished
                )
                guard case .value(let line) = kinds[2] else {
                    Issue.record("no value: \(kinds)")
                    return
                }
                #expect(line.hasPrefix("GET \(url.absoluteString)/flaky?"), "\(line)")
                #expect(
                    line.contains("→ 200, ") && line.contains(" bytes in ") && line.hasSuffix(", 1 retry"),
                    "\(line)"
                )
                #expect(!line.contains("s3cret-key") && line.contains("apiKey="), "\(line)")
                #expect(memory.events.allSatisfy { $0.source == "TributaryHTTP/APIClient" })
            }
        }
    }

    @Test func recordsAFailureAndACancellation() async throws {
        try await TestServer.run { url, _ in
            try await TransportKind.asyncHTTPClient.with { transport in
                let memory = LaneMemory()
                let client = client(url, transport, into: memory)
                _ = await apiError { try await client.send(Request<Page>("unauthorized")) }
                let failed = memory.events(lane: "http").map(\.kind).last
                guard case .failed(let reason)? = failed else {
                    Issue.record("not failed: \(String(describing: failed))")
                    return
                }
                #expect(
                    reason.contains("HTTP 401") && reason.contains("Your API key is invalid"),
                    "\(reason)"
                )

                let waiting = Task { try await client.send(Request<Page>("hang")) }
                try await waitUntil { memory.events(lane: "http").count == 5 }
                waiting.cancel()
                _ = await waiting.result
                #expect(
                    memory.events(lane: "http").map(\.kind).suffix(3) == [
                        .subscribed, .requested(.max(1)), .cancelled,
                    ]
                )
                #expect(Set(memory.events(lane: "http").map(\.subscription)).count == 2)
            }
        }
    }

    @Test func recordsNothingWithoutALane() async throws {
        try await TestServer.run { url, _ in
            try await TransportKind.asyncHTTPClient.with { transport in
                let memory = LaneMemory()
                var client = client(url, transport, into: memory)
                client.lane = nil
                _ = try await client.send(Request<Page>("json"))
                #expect(memory.events.isEmpty)
            }
        }
    }
}
