import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Tributary
import TributaryLabWire
import TributaryStreams

/// `GET /api/streams/{id}/live`, upgraded to a WebSocket: the snapshot first, then every save
/// by anyone; saves and resumes from the viewer, as ``LiveClientMessage``s.
///
/// Anyone with the link may watch; saving needs the token or the session. Each viewer's
/// waiting messages are bounded in bytes, and the lab's live connections in number, in all and
/// per remote address.
struct LiveController {
    let service: DocumentService
    let connections: LiveConnections
    let viewerBufferBytes: Int

    /// The largest message a viewer who may save may send: a document of 1 MiB and its
    /// envelope.
    static let maximumMessageSize = (1 << 20) + (64 << 10)
    /// The largest message a viewer who may only watch may send: a hello with its name, or a
    /// resume.
    static let watcherMessageSize = 4 << 10
    /// The bytes of answers to its own messages a viewer who may only watch may leave unread
    /// before it is dropped: the answers a few dozen mistaken messages take.
    static let watcherReplyBytes = 64 << 10

    func addRoutes(to router: Router<LabRequestContext>) {
        router.ws("api/streams/:id/live") { request, context in
            guard context.documentID != nil else {
                return context.refuseWebSocket(.notFound("document with that id"))
            }
            // Set before the connection is upgraded, so that its first frame is held to it.
            context.limitWebSocketFrames(to: Self.messageSize(canWrite: Self.canWrite(request, context)))
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let id = context.requestContext.documentID else { return }
            let canWrite = Self.canWrite(context.request, context.requestContext)
            try await connections.serve(context.requestContext.remoteHost, outbound: outbound) {
                try await live(id: id, canWrite: canWrite, inbound: inbound, outbound: outbound)
            }
        }
    }

    /// Whether the viewer may save. Browsers name the origin of every WebSocket; a session's
    /// socket that names none did not come from a page of the lab's, and may watch but not save.
    static func canWrite(_ request: Request, _ context: LabRequestContext) -> Bool {
        context.access == .token || (context.access == .session && request.headers[.origin] != nil)
    }

    /// The largest message, and so frame, a viewer may send.
    static func messageSize(canWrite: Bool) -> Int {
        canWrite ? maximumMessageSize : watcherMessageSize
    }

    private func live(
        id: DocumentID,
        canWrite: Bool,
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter
    ) async throws {
        let hub = service.hub
        let outbox = Outbox(limit: viewerBufferBytes, replyLimit: canWrite ? nil : Self.watcherReplyBytes)
        let viewer = hub.join(
            id,
            LiveHub.Viewer(
                deliver: { text, isSnapshot in outbox.deliver(text, isSnapshot: isSnapshot) },
                disconnect: { outbox.finish() }
            )
        )
        defer {
            hub.leave(id, viewer)
            hub.announcePresence(of: id)
        }
        // Read after joining, so that a save meanwhile is in the snapshot or follows it.
        guard await showSnapshot(of: id, to: viewer) else {
            let notFound = WebSocketFrame(fin: true, opcode: .text, data: LiveMessage.notFound)
            try await outbound.write(.custom(notFound))
            try await outbound.close(.normalClosure, reason: "There is no such document.")
            return
        }
        hub.announcePresence(of: id)
        try await outbox.serve(outbound, overflow: "The viewer did not keep up with the document.") {
            for try await message in inbound.messages(maxSize: Self.messageSize(canWrite: canWrite)) {
                guard case .text(let text) = message else {
                    outbox.deliver(
                        LiveMessage.invalid("unknownMessage", "Messages are JSON text."),
                        isReply: true
                    )
                    continue
                }
                let reply = await handle(
                    text,
                    from: id,
                    viewer: viewer,
                    outbox: outbox,
                    canWrite: canWrite
                )
                if let reply { outbox.deliver(reply, isReply: true) }
            }
        }
    }

    /// Sends a new viewer its snapshot; false when there is no such document.
    private func showSnapshot(of id: DocumentID, to viewer: Int) async -> Bool {
        (try? await showLatest(of: id, to: viewer, again: false)) != nil
    }

    /// Sends `viewer` the latest version's snapshot: the one kept, when the hub keeps it, or one
    /// made of the document read for it and let go on return, so that a connection holds only
    /// the shared, encoded snapshot.
    private func showLatest(of id: DocumentID, to viewer: Int, again: Bool) async throws(DocumentStoreError) {
        let latest = try await service.latestVersion(id)
        guard !service.hub.showKept(id, version: latest, to: viewer, again: again) else { return }
        service.hub.show(try await service.document(id), to: viewer, again: again)
    }

    /// What the viewer is answered, if anything: a save goes to every viewer as `saved`, or to
    /// the sender alone as `conflict` or `invalid`; a resume from behind gets the snapshot it
    /// missed, unless one is on its way already or it was sent one again less than
    /// ``Outbox/resendGap`` ago (a later version reaches it as every viewer's does).
    private func handle(
        _ text: String,
        from id: DocumentID,
        viewer: Int,
        outbox: Outbox,
        canWrite: Bool
    ) async -> ByteBuffer? {
        let message: LiveClientMessage
        switch Self.read(text, canWrite: canWrite) {
        case .success(let read): message = read
        case .failure(let refusal): return refusal.message
        }
        switch message {
        case .save(let base, let document, let author):
            do throws(DocumentStoreError) {
                _ = try await service.save(id, document: document, baseVersion: base, author: author)
                return nil
            } catch {
                switch error {
                case .conflict(let current): return LiveMessage.conflict(current)
                case .notFound: return LiveMessage.deleted
                default:
                    return LiveMessage.invalid("storage", "The lab's database failed; nothing was saved.")
                }
            }
        case .hello(let name):
            let shown = DocumentService.author(name)
            service.hub.name(shown == "anonymous" ? nil : shown, viewer: viewer, of: id)
            return nil
        case .resume(let version):
            guard !outbox.hasSnapshotWaiting else { return nil }
            do throws(DocumentStoreError) {
                guard try await service.latestVersion(id) > version, outbox.mayResend(at: .now) else {
                    return nil
                }
                try await showLatest(of: id, to: viewer, again: true)
                return nil
            } catch {
                return LiveMessage.deleted
            }
        }
    }

    struct Refusal: Error {
        var message: ByteBuffer
        init(_ message: ByteBuffer) { self.message = message }
    }

    /// A message from a viewer, or the `invalid` answer to it. A document's problems are
    /// reported with paths of the document's own, as the REST API gives them. A save from a
    /// viewer who may not save is refused from its envelope, before its document is decoded.
    private static func read(_ text: String, canWrite: Bool) -> Result<LiveClientMessage, Refusal> {
        struct Envelope: Decodable {
            var type: String
            var baseVersion: Int?
            var version: Int?
            var author: String?
            var name: String?
        }
        struct Holder: Decodable { var document: StreamDocument }
        let data = Data(text.utf8)
        guard !JSONNesting.exceeds(data, limit: StreamDocument.maximumNesting),
            let envelope = try? JSONDecoder().decode(Envelope.self, from: data)
        else {
            return .failure(
                Refusal(LiveMessage.invalid("malformedJSON", "A message is a JSON object with a type."))
            )
        }
        let badMessage = Refusal(
            LiveMessage.invalid(
                "badMessage",
                "A save names its baseVersion and holds a document; a resume names its version; a hello names its name."
            )
        )
        switch envelope.type {
        case "hello":
            guard let name = envelope.name else { return .failure(badMessage) }
            return .success(.hello(name: name))
        case "resume":
            guard let version = envelope.version else { return .failure(badMessage) }
            return .success(.resume(version: version))
        case "save":
            guard canWrite else {
                return .failure(Refusal(LiveMessage.invalid("unauthorized", "Saving needs the lab's token.")))
            }
            guard let base = envelope.baseVersion else { return .failure(badMessage) }
            do throws(StreamError) {
                let document = try StreamDocument.decode(Holder.self, from: data).document
                return .success(.save(baseVersion: base, document: document, author: envelope.author))
            } catch {
                if error.path == "$", case .missingField("document") = error.kind {
                    return .failure(badMessage)
                }
                var inner = error
                if inner.path.hasPrefix("$.document") {
                    inner.path = "$" + inner.path.dropFirst("$.document".count)
                }
                return .failure(Refusal(LiveMessage.invalid("invalidDocument", "\(inner)", path: inner.path)))
            }
        default:
            return .failure(
                Refusal(
                    LiveMessage.invalid(
                        "unknownMessage",
                        "There is no message of type \"\(envelope.type.prefixOfUTF8(64))\"."
                    )
                )
            )
        }
    }
}

extension LiveController.Refusal: Sendable {}
