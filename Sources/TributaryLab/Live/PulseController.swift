import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// `GET /api/pulse`, upgraded to a WebSocket that a page of the lab holds open to know at once
/// when the lab can no longer be reached, and to know when it is back.
///
/// The lab says one thing on it, `{"type":"lab","startedAt":…}`, when it opens, so that a page
/// that reconnects can tell a restarted lab from a network that came back. It closes the
/// connection only when it stops; a network that breaks ends it through the WebSocket pings. Anyone may open one, as anyone may open a share link: it counts against
/// the live connections' limits, by address and in all, and a page's frames are read and
/// dropped, none larger than a control frame's room.
struct PulseController {
    let connections: LiveConnections
    /// When this lab started, as the pulse's first message says.
    let startedAt: Date

    /// The largest frame a page may send on the pulse.
    static let maximumMessageSize = 125

    func addRoutes(to router: Router<LabRequestContext>) {
        let greeting = Self.greeting(startedAt)
        router.ws("api/pulse") { _, context in
            context.limitWebSocketFrames(to: Self.maximumMessageSize)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            try await connections.serve(context.requestContext.remoteHost, outbound: outbound) {
                try await outbound.write(.text(greeting))
                for try await _ in inbound.messages(maxSize: Self.maximumMessageSize) {}
            }
        }
    }

    static func greeting(_ startedAt: Date) -> String {
        let time = startedAt.ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        return #"{"type":"lab","startedAt":"\#(time)"}"#
    }
}
