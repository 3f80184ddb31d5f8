import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization
import Tributary
import TributaryLabWire
import TributaryStreams

/// The context of every request the lab answers, WebSocket upgrades included: where the
/// request came from, and what its credentials let it do once ``LabAuthenticator`` has read
/// them.
struct LabRequestContext: RequestContext, RemoteAddressRequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    /// Where hummingbird-websocket keeps the handler of an upgrade: in a slot of the lab's own,
    /// emptied when the connection closes (see ``limitWebSocketFrames(to:perSecond:)``).
    private let slot = WebSocketSlot()
    var webSocket: WebSocketHandlerReference<LabRequestContext> { slot.reference.withLock { $0 } ?? .init() }
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
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Tells the connection, before the `101` that upgrades it goes out, the largest WebSocket
    /// frame its client may send and how many a second: a route's own limits, smallest for
    /// anonymous callers.
    ///
    /// Every route that upgrades calls it, so it also breaks, once the connection closes, the
    /// cycle hummingbird-websocket makes for an upgrade: its handler reference keeps a copy of
    /// this context, which keeps the reference — and the channel with it. The reference is
    /// reached through ``WebSocketSlot``, which lets it go. Without that, every WebSocket ever
    /// opened stayed in memory with its buffers.
    ///
    /// A route that gives `waiting` says what it has taken with ``tookWebSocketData(_:)``; the
    /// connection stops reading while that many bytes of data frames wait for it.
    func limitWebSocketFrames(
        to bytes: Int,
        perSecond: Int = Self.viewerFramesPerSecond,
        waiting: Int? = nil
    ) {
        channel.pipeline.fireUserInboundEventTriggered(
            WebSocketLimit(frames: .init(bytes: bytes, perSecond: perSecond, waiting: waiting))
        )
        channel.closeFuture.whenComplete { [slot] _ in
            slot.reference.withLock { $0 = nil }
        }
    }

    /// Tells the connection that the route has taken the first `bytes` of its data frames'
    /// payload, in all, so that it may read more.
    func tookWebSocketData(_ bytes: Int) {
        channel.pipeline.fireUserInboundEventTriggered(WebSocketTaken(bytes: bytes))
    }

    /// Declines the WebSocket handshake, telling the client why with `error`'s status and body.
    func refuseWebSocket(_ error: LabError) -> RouterShouldUpgrade {
        let body = (try? LabJSON.encoder.encode(error.body)) ?? Data()
        channel.pipeline.fireUserInboundEventTriggered(
            WebSocketRefusal(status: Int(error.status.code), body: ByteBuffer(bytes: body))
        )
        return .dontUpgrade
    }

    /// The frames a second a page or a viewer sends at most: names, saves as someone types,
    /// answers to pings.
    static let viewerFramesPerSecond = 50
    /// The frames a second a recorder may send: batches of up to 4 MiB, each cut into frames
    /// of 16 KiB, every 50 ms or as fast as the lab stores them.
    static let recorderFramesPerSecond = 8_192

    /// The largest body `request.decode(as:context:)` reads: 1 MiB unless the route says
    /// otherwise with ``limitingBodies(to:)``.
    private(set) var maxUploadSize = 1 << 20
    /// Reads bodies within the lab's limits.
    var requestDecoder: LabRequestDecoder { LabRequestDecoder() }
    /// Writes answers in the lab's JSON.
    var responseEncoder: LabResponseEncoder { LabResponseEncoder() }

    /// How deep a body `request.decode(as:context:)` reads may nest arrays and objects.
    private(set) var maxBodyNesting = StreamDocument.maximumNesting

    /// The context for a route whose bodies may hold up to `bytes`, nested at most `nesting`
    /// deep.
    func limitingBodies(
        to bytes: Int,
        nesting: Int = StreamDocument.maximumNesting
    ) -> LabRequestContext {
        var context = self
        context.maxUploadSize = bytes
        context.maxBodyNesting = nesting
        return context
    }

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

/// Tells a client whose WebSocket handshake a middleware refused, or that names no WebSocket
/// route, why, as a route does with ``LabRequestContext/refuseWebSocket(_:)``.
struct WebSocketRefusalMiddleware: RouterMiddleware {
    typealias Context = LabRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let refusal: LabError
        do { return try await next(request, context) } catch let error as LabError {
            refusal = error
        } catch let error as HTTPError where error.status == .notFound {
            refusal = .notFound("WebSocket at \(request.uri.path)")
        }
        _ = context.refuseWebSocket(refusal)
        throw refusal
    }
}

/// Holds a context's WebSocket handler reference until its connection closes, and then lets it
/// go: hummingbird-websocket's reference holds the context, which would otherwise hold it back.
final class WebSocketSlot: Sendable {
    let reference = Protected<WebSocketHandlerReference<LabRequestContext>?>(.init())

    init() { Self.instances.wrappingAdd(1, ordering: .relaxed) }

    deinit { Self.instances.wrappingSubtract(1, ordering: .relaxed) }

    /// How many slots exist: one per request context the process still holds, every request's,
    /// so counted without a lock. The contexts of connections that closed staying counted is
    /// memory nobody gives back (a test watches it).
    static let instances = Atomic<Int>(0)
}
