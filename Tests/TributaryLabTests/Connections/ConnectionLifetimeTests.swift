import Foundation
import Synchronization
import Testing
import TributaryTestSupport

@testable import TributaryLab

/// A connection's memory is given back once it closes, WebSockets included: each kept its
/// whole channel for good while hummingbird-websocket's handler reference and the lab's
/// request context held each other.
@Suite(.timeLimit(.minutes(3)))
struct ConnectionLifetimeTests {
    @Test func closedWebSocketsAreLetGo() async throws {
        try await withLab { lab in
            let port = lab.base.port ?? 0
            for _ in 0..<400 {
                let pulse = try await WebSocketLimitTests.open("/api/pulse", port: port, token: nil)
                pulse.send(bytes: [0x88, 0x82, 1, 2, 3, 4, 0x03 ^ 1, 0xE8 ^ 2])
                _ = await pulse.readBytes(timeout: .seconds(10))
            }
            // Every request context of the process is counted, other tests' too: they come and
            // go, and the 400 closed here must have gone.
            try await waitUntil { WebSocketSlot.instances.load(ordering: .relaxed) < 200 }
        }
    }
}
