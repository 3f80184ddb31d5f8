import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Tributary
import TributaryStreams

extension LabServer {
    /// The largest message a viewer may send: a document of 1 MiB and its envelope.
    static let maximumMessageSize = (1 << 20) + (64 << 10)

    /// The router of `GET /api/streams/{id}/live`, upgraded to a WebSocket for a document that
    /// exists, from a page of the lab's own origin or from a client that sends none.
    func liveRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws("api/streams/:id/live") { request, context in
            guard Self.isSameOrigin(request), let id = context.parameters.get("id"),
                DocumentID.isWellFormed(id)
            else {
                return .dontUpgrade
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let id = context.requestContext.parameters.get("id") ?? ""
            try await live(id: id, request: context.request, inbound: inbound, outbound: outbound)
        }
        addNewsLive(to: router)
        return router
    }

    /// A browser sends the page's origin; one that is not the lab's own is refused, so that a page
    /// elsewhere cannot act for a visitor. Clients that are not browsers send none, or a `ws:`
    /// origin of the host alone, as swift-websocket's does.
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased(),
            let authority = request.head.authority?.lowercased()
        else { return false }
        let named = host.contains(":") ? "[\(host)]" : host
        if let port = url.port { return "\(named):\(port)" == authority }
        let served =
            authority.hasPrefix("[")
            ? String(authority.prefix { $0 != "]" }) + "]" : String(authority.prefix { $0 != ":" })
        return (scheme == "ws" || scheme == "wss") && served == named
    }

    /// One viewer's connection: the snapshot first, then every save by anyone; saves and
    /// resumes from the viewer.
    private func live(
        id: String,
        request: Request,
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter
    ) async throws {
        // The upgrade came from the lab's own pages or from no browser, so the cookie counts too.
        let canWrite =
            isAuthorized(request) || Self.cookie(Self.sessionCookie, in: request).map(matchesToken) == true
        let (queue, queued) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(256))
        let tooSlow = Protected(false)
        let viewer = hub.join(
            id,
            LiveHub.Viewer(
                deliver: { message in
                    guard case .dropped = queued.yield(message) else { return true }
                    tooSlow.withLock { $0 = true }
                    return false
                },
                disconnect: { queued.finish() }
            )
        )
        defer {
            hub.leave(id, viewer)
            hub.announcePresence(of: id)
        }
        // Read after joining, so that a save meanwhile is in the snapshot or follows it.
        guard let current = try? await store.document(id) else {
            try await outbound.close(.unexpectedServerError, reason: "There is no such document.")
            return
        }
        hub.show(current, to: viewer)
        hub.announcePresence(of: id)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in queue {
                    try await outbound.write(.text(message))
                }
                if tooSlow.withLock({ $0 }) {
                    try await outbound.close(
                        .policyViolation,
                        reason: "The viewer did not keep up with the document."
                    )
                } else {
                    try? await outbound.close(.normalClosure, reason: nil)
                }
            }
            do {
                for try await message in inbound.messages(maxSize: Self.maximumMessageSize) {
                    guard case .text(let text) = message else {
                        queued.yield(LiveMessage.invalid("unknownMessage", "Messages are JSON text."))
                        continue
                    }
                    if let reply = await handle(text, from: id, viewer: viewer, canWrite: canWrite) {
                        queued.yield(reply)
                    }
                }
            } catch {
                // An oversized or broken frame ends the connection, and nothing else.
            }
            queued.finish()
            try await group.waitForAll()
        }
    }

    /// What the viewer is answered, if anything: a save goes to every viewer as `saved`, or to
    /// the sender alone as `conflict` or `invalid`; a resume gets the snapshot it missed.
    private func handle(_ text: String, from id: String, viewer: Int, canWrite: Bool) async -> String? {
        guard let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let type = message["type"] as? String
        else {
            return LiveMessage.invalid("malformedJSON", "A message is a JSON object with a type.")
        }
        switch type {
        case "save":
            guard canWrite else {
                return LiveMessage.invalid("unauthorized", "Saving needs the lab's token.")
            }
            guard let base = message["baseVersion"] as? Int, let body = message["document"],
                JSONSerialization.isValidJSONObject(body),
                let data = try? JSONSerialization.data(withJSONObject: body)
            else {
                return LiveMessage.invalid("badMessage", "A save names its baseVersion and holds a document.")
            }
            let document: StreamDocument
            do throws(StreamError) {
                document = try StreamDocument.decode(data)
            } catch {
                return LiveMessage.invalid("invalidDocument", "\(error)", path: error.path)
            }
            do throws(DocumentStoreError) {
                let saved = try await store.save(id, document: document, baseVersion: base, author: "live")
                hub.publish(saved)
                return nil
            } catch {
                switch error {
                case .conflict(let current): return LiveMessage.conflict(current)
                case .notFound: return LiveMessage.deleted
                default: return LiveMessage.invalid("storage", error.description)
                }
            }
        case "resume":
            guard let version = message["version"] as? Int else {
                return LiveMessage.invalid("badMessage", "A resume names the version it has.")
            }
            guard let current = try? await store.document(id) else { return LiveMessage.deleted }
            if current.version != version { hub.show(current, to: viewer, again: true) }
            return nil
        default:
            return LiveMessage.invalid("unknownMessage", "There is no message of type \"\(type)\".")
        }
    }
}
