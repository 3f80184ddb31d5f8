import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Tributary
import TributaryLabWire

/// `GET /api/recordings/{id}/live`, upgraded to a WebSocket: the recording's snapshot, then its
/// events as they are stored, as ``RecordingLiveMessage``s. It needs the token or the session.
///
/// Each viewer's waiting messages are bounded in bytes, as a document's viewers' are, and its
/// connection counts against the same limits.
struct RecordingLiveController {
    let service: RecordingService
    let connections: LiveConnections
    let viewerBufferBytes: Int

    func addRoutes(to router: Router<LabRequestContext>) {
        router.ws("api/recordings/:id/live") { _, context in
            guard context.access != .anonymous else { return context.refuseWebSocket(.unauthorized()) }
            guard context.documentID != nil else {
                return context.refuseWebSocket(.notFound("recording with that id"))
            }
            context.limitWebSocketFrames(to: LiveController.watcherMessageSize)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let id = context.requestContext.documentID?.description else { return }
            try await connections.serve(context.requestContext.remoteHost, outbound: outbound) {
                try await watch(id, inbound: inbound, outbound: outbound)
            }
        }
    }

    private func watch(
        _ id: String,
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter
    ) async throws {
        let hub = service.hub
        let outbox = Outbox(limit: viewerBufferBytes)
        let viewer = hub.join(
            id,
            RecordingHub.Viewer(deliver: { outbox.deliver($0) }, disconnect: { outbox.finish() })
        )
        defer { hub.leave(id, viewer) }
        // Read after joining, so that events stored meanwhile are in the snapshot or follow it.
        guard await service.showSnapshot(of: id, to: viewer, bufferBytes: viewerBufferBytes) else {
            try await outbound.write(
                .custom(WebSocketFrame(fin: true, opcode: .text, data: RecordingHub.notFound))
            )
            try await outbound.close(.normalClosure, reason: "There is no such recording.")
            return
        }
        try await outbox.serve(outbound, overflow: "The viewer did not keep up with the recording.") {
            // Viewers only watch; what they send is read and let go.
            for try await _ in inbound.messages(maxSize: LiveController.watcherMessageSize) {}
        }
    }
}
