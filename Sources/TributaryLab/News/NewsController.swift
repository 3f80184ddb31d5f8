import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The news reader: `GET /api/news/live`, one page's view models held here with their state
/// pushed over a WebSocket. It spends what the operator pays for — the news service's quota —
/// so it needs the token or the session.
struct NewsController {
    let news: LabNews
    let connections: LiveConnections

    /// The largest message the page sends: its inputs, a search text of at most 500 characters.
    static let maximumMessageSize = 64 << 10

    func addLiveRoutes(to router: some RouterMethods<LabRequestContext>) {
        router.ws("api/news/live") { _, context in
            context.limitWebSocketFrames(to: Self.maximumMessageSize)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            try await connections.serve(context.requestContext.remoteHost, outbound: outbound) {
                try await live(inbound: inbound, outbound: outbound)
            }
        }
    }

    private func live(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        // Each message is a whole state, so under pressure the oldest are the ones to drop.
        let (queue, queued) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(32))
        let session = await NewsSession(news: news) { queued.yield($0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in queue { try await outbound.write(.text(message)) }
            }
            do {
                for try await message in inbound.messages(maxSize: Self.maximumMessageSize) {
                    guard case .text(let text) = message else { continue }
                    await session.handle(text)
                }
            } catch {
                // A message too large or not UTF-8 is thrown on, for the WebSocket layer to
                // close the connection with the code that says so.
                queued.finish()
                group.cancelAll()
                throw error
            }
            queued.finish()
            try await group.waitForAll()
        }
        withExtendedLifetime(session) {}
    }
}
