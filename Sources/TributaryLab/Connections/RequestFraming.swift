import Foundation
import NIOCore
import NIOHTTP1
import TributaryLabWire

/// Keeps a connection's requests and answers in step, right after NIO's HTTP decoder. Its rules
/// are its ``StateMachine``'s; this handler only performs what the machine returns.
///
/// Each rule fills a gap Hummingbird and NIO leave:
///
/// - A first request head that cannot be read — larger than the lab reads (`431`), or not
///   HTTP (`400`) — is answered and the connection closed: the WebSocket upgrade's pipeline
///   would otherwise wait for a request that never comes. Bytes that cannot be read after a
///   readable request are Hummingbird's to answer: it answers every request before them in
///   order, then `400`.
/// - An answer written before its request's body has been read to the end is the connection's
///   last: it says `Connection: close` and the connection closes once it is sent. Hummingbird
///   would otherwise read and discard a body nobody asked for, of any length, for as long as it
///   keeps coming. So is the answer to a request that asked to close (`Connection: close` in any
///   case, HTTP/1.0 without keep-alive).
/// - A first request asking to upgrade reaches the upgrade only as a WebSocket handshake the
///   lab can complete — `GET`, no body, `Sec-WebSocket-Key`, version 13 — and is answered `400`
///   (`426` for another version) otherwise: NIO loses the head of an upgrade it declines, and
///   holds a connection whose upgrade request has a body open without an answer. A handshake
///   a route declines is answered with the route's reason (``WebSocketRefusal``), where
///   Hummingbird answers every one with an empty `400`. Any other
///   protocol asked for (`h2c`) is ignored, and the request answered as HTTP/1.1.
/// - An answer closing a connection whose request body is still coming in is followed by a
///   moment of reading with the output closed, so that the client receives it rather than a
///   reset.
/// - `Expect: 100-continue` is answered `100 Continue` at once, or once the answers before it
///   are out, when the head carries a credential the lab takes; NIO's decoder leaves it to the
///   server. A request without one is answered (`401`) without its body being asked for.
final class RequestFraming: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var machine: StateMachine
    /// Whether the last answer went out while its request's body was still coming in.
    private var isLingering = false
    /// How many bytes of that body have been read and dropped since.
    private var lingered = 0

    /// `mayContinue` says whether a request's head carries a credential the lab takes.
    init(mayContinue: @escaping @Sendable (HTTPHeaders) -> Bool) {
        machine = StateMachine(mayContinue: mayContinue)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch machine.reading {
        case .through:
            context.fireChannelRead(data)
            return
        case .stopped:
            // What still comes after the last answer is read for a moment, and a little of it:
            // a client streaming a large body after its refusal would otherwise have the lab
            // read and decode all it sends for the whole moment.
            if isLingering, case .body(let bytes) = unwrapInboundIn(data) {
                lingered += bytes.readableBytes
                if lingered > mostLingered {
                    isLingering = false
                    endInput(context: context)
                }
            }
            return
        case .asHTTP: break
        }
        switch machine.read(unwrapInboundIn(data)) {
        case .forward(let part):
            context.fireChannelRead(wrapInboundOut(part))
        case .continueAndForward(let part):
            sendContinue(context: context)
            context.fireChannelRead(wrapInboundOut(part))
        case .answerAndClose(let head):
            answer(head, context: context)
        case .drop:
            break
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch machine.writing {
        case .through:
            context.write(data, promise: promise)
            return
        case .stopped:
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        case .asHTTP: break
        }
        switch machine.write(unwrapOutboundIn(data)) {
        case .write(let part):
            context.write(wrapOutboundOut(part), promise: promise)
        case .writeAndContinue(let part):
            context.write(wrapOutboundOut(part), promise: promise)
            sendContinue(context: context)
        case .writeAndClose(let part, let lingering):
            let written = context.writeAndFlush(wrapOutboundOut(part))
            promise?.completeWith(written)
            written.assumeIsolated().whenComplete { _ in
                if lingering {
                    self.isLingering = true
                    endAfterLingering(context: context)
                } else {
                    context.close(promise: nil)
                }
            }
        case .writeWithBody(let head, let body):
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: promise)
        case .fail:
            promise?.fail(ChannelError.ioOnClosedChannel)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let refusal = event as? WebSocketRefusal else {
            return context.fireUserInboundEventTriggered(event)
        }
        machine.refuseUpgrade(status: HTTPResponseStatus(statusCode: refusal.status), body: refusal.body)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let headerOverflow = if case .headerOverflow = error { true } else { false }
        switch machine.failedToDecode(headerOverflow: headerOverflow) {
        case .forward: context.fireErrorCaught(error)
        case .answerAndClose(let head): answer(head, context: context)
        case .close: context.close(promise: nil)
        case .ignore: break
        }
    }

    private func sendContinue(context: ChannelHandlerContext) {
        let going = HTTPResponseHead(version: .http1_1, status: .continue)
        context.writeAndFlush(wrapOutboundOut(.head(going)), promise: nil)
    }

    /// Writes `head` with a body that says why, as the API's errors do, then closes.
    private func answer(_ head: HTTPResponseHead, context: ChannelHandlerContext) {
        let (explained, body) = Self.explained(head)
        context.write(wrapOutboundOut(.head(explained)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            endInput(context: context)
        }
    }

    /// `head` with the JSON error body that says why the request is answered so.
    static func explained(_ given: HTTPResponseHead) -> (HTTPResponseHead, ByteBuffer) {
        let (code, message) =
            switch given.status {
            case .requestHeaderFieldsTooLarge:
                ("headTooLarge", "The request's head is larger than the lab reads.")
            case .upgradeRequired:
                ("webSocketVersion", "The lab speaks WebSocket version 13: send Sec-WebSocket-Version: 13.")
            default:
                (
                    "malformedRequest",
                    "The lab could not read this request: it is not HTTP/1.1, or a WebSocket handshake the lab cannot complete (GET, no body, Sec-WebSocket-Key, Sec-WebSocket-Version: 13)."
                )
            }
        let problem = LabErrorBody(error: LabProblem(code: code, message: message))
        let body = ByteBuffer(bytes: (try? LabJSON.encoder.encode(problem)) ?? Data())
        var head = given
        head.headers.replaceOrAdd(name: "content-type", value: "application/json; charset=utf-8")
        head.headers.replaceOrAdd(name: "content-length", value: String(body.readableBytes))
        return (head, body)
    }
}

/// How long a connection answered with bytes still coming in is read before it is closed: an
/// HTTP answer's, and a refused WebSocket's close frame (``ConnectionGuard``).
let lingering = TimeAmount.seconds(2)
/// How much of a body still coming in is read, at most, before the connection is closed.
private let mostLingered = 64 << 10

/// Ends a connection answered while its client may still be sending a body: closing with bytes
/// unread would reset it, and the client could lose the answer with it. The lab stops writing,
/// reads and drops what still comes for a moment, then closes.
private func endAfterLingering(context: ChannelHandlerContext) {
    context.close(mode: .output, promise: nil)
    context.eventLoop.assumeIsolated().scheduleTask(in: lingering) { endInput(context: context) }
}

/// Closes a connection whose only answer has been sent, telling the handlers after `context`
/// first that no request is coming, so that the WebSocket upgrade waiting for one ends quietly
/// rather than reporting a failure for every connection turned away.
func endInput(context: ChannelHandlerContext) {
    context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    context.close(promise: nil)
}
