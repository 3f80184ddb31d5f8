import Hummingbird
import HummingbirdWebSocket
import NIOCore
import TributaryLabWire

/// The context of every request the lab answers, WebSocket upgrades included: where the
/// request came from, and what its credentials let it do once ``LabAuthenticator`` has read
/// them.
struct LabRequestContext: RequestContext, RemoteAddressRequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<LabRequestContext>
    let remoteAddress: SocketAddress?
    /// The connection the request came on.
    let channel: any Channel
    /// What the request's credentials allow.
    var access = Access.anonymous

    /// What a request may do.
    enum Access: Sendable {
        /// No credential: read a document by its id, and the pages.
        case anonymous
        /// The token, as `Authorization: Bearer`, from a client that is not a page.
        case token
        /// A session cookie from the lab's own pages.
        case session
    }

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Tells the connection, before the `101` that upgrades it goes out, the largest WebSocket
    /// frame its client may send: a route's own limit, smallest for anonymous callers.
    func limitWebSocketFrames(to bytes: Int) {
        channel.pipeline.fireUserInboundEventTriggered(WebSocketLimit(frameBytes: bytes))
    }

    /// The largest body a route decodes; the lab's own limit is checked where bodies are read.
    var maxUploadSize: Int { 1 << 20 }

    /// The route's `:id`, when it is an id: the one place a path's id is checked. No id of
    /// another form names anything, so a route answers one with `404`.
    var documentID: DocumentID? { parameters.get("id").flatMap(DocumentID.init) }

    /// ``documentID``, or `404` naming `what` when the path holds no id.
    func requireDocumentID(naming what: String) throws(LabError) -> DocumentID {
        guard let id = documentID else { throw .notFound(what) }
        return id
    }

    /// The remote address without its port, which is what the per-address limits count.
    var remoteHost: String { remoteAddress?.ipAddress ?? "unknown" }
}
