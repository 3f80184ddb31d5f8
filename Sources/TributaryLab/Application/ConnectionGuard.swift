import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import Tributary

/// The first handler of every connection, before any HTTP is read: it counts the connection
/// against the lab's limit until it closes — WebSockets included — and closes one whose first
/// request head has not arrived within the timeout. Once a WebSocket route has said how large
/// a frame the connection may send (``WebSocketLimit``), it reads the frames' headers as they
/// come (``WebSocketFrames``), refusing one past the limit or unmasked before its payload is
/// held, and counts what an unfinished frame holds against the lab's ``ClientMemory``.
///
/// Hummingbird's own idle timeout starts only once a first request head has been read, so
/// without this a client that sends half a head holds its connection forever.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// The open connections, in all and by ``AddressBlock``, shared by every connection's guard.
    final class Count: Sendable {
        private let maximum: Int
        private let maximumPerBlock: Int
        private let state = Protected<(open: Int, byBlock: [String: Int])>((0, [:]))

        init(maximum: Int, maximumPerBlock: Int = .max) {
            self.maximum = maximum
            self.maximumPerBlock = maximumPerBlock
        }

        /// Counts a connection from `block` in, or says that there is no room for it: the lab
        /// holds as many as it takes, or `block` holds as many as one block may.
        func enter(from block: String) -> Bool {
            state.withLock { state in
                guard state.open < maximum, state.byBlock[block, default: 0] < maximumPerBlock else {
                    return false
                }
                state.open += 1
                state.byBlock[block, default: 0] += 1
                return true
            }
        }

        func leave(from block: String) {
            state.withLock { state in
                state.open -= 1
                let left = state.byBlock[block, default: 1] - 1
                state.byBlock[block] = left > 0 ? left : nil
            }
        }
    }

    private let count: Count
    private let memory: ClientMemory
    private let headTimeout: TimeAmount
    /// The frames of an upgraded connection, once its route has set their limit.
    private var frames: WebSocketFrames?
    /// Whether the connection broke a rule of its frames and is closing: nothing more is read.
    private var isClosing = false
    private var deadline: Scheduled<Void>?
    /// Whether the connection found no room; it is answered `503` and closed once active.
    private var isRefused = false
    private var hasTurnedAway = false
    /// How much of the `\r\n\r\n` that ends a head the bytes read so far end with.
    private var matched = 0
    /// Whether the head has begun: empty lines before a request line are skipped by the
    /// parser, so they end no head.
    private var begun = false

    init(count: Count, memory: ClientMemory, headTimeout: TimeAmount) {
        self.count = count
        self.memory = memory
        self.headTimeout = headTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Closing here, while the pipeline is still being built, would leave the connection's
        // async channel unfinished, which NIO treats as a programming error and traps on: a
        // connection without room is turned away once it is active instead.
        let block = AddressBlock.of(context.channel.remoteAddress?.ipAddress ?? "unknown")
        guard count.enter(from: block) else {
            isRefused = true
            return
        }
        let (count, memory, holder) = (count, memory, ObjectIdentifier(self))
        context.channel.closeFuture.whenComplete { _ in
            count.leave(from: block)
            memory.release(holder)
        }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: headTimeout) {
            // Past the decoder, which would read the end of input as a head cut short and
            // answer it: a head that never came is not answered.
            guard let framing = try? context.pipeline.syncOperations.context(handlerType: RequestFraming.self)
            else { return context.close(promise: nil) }
            endInput(context: framing)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        guard isRefused else { return }
        // Answered once its request has been read, so that closing leaves nothing unread to
        // reset the connection with the answer; a client that sends nothing is answered soon.
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(500)) {
            self.turnAway(context: context)
        }
    }

    private func turnAway(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        guard !hasTurnedAway else { return }
        hasTurnedAway = true
        let answer =
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: answer))).assumeIsolated().whenComplete { _ in
            endInput(context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // What a turned-away connection sends is not read.
        guard !isRefused else {
            turnAway(context: context)
            return
        }
        if deadline != nil, endsHead(unwrapInboundIn(data)) {
            // The first head is in; from here Hummingbird's idle timeout takes over.
            deadline?.cancel()
            deadline = nil
        }
        guard !isClosing else { return }
        if frames != nil {
            let buffer = unwrapInboundIn(data)
            switch buffer.withUnsafeReadableBytes({ frames!.read($0) }) {
            case .proceed(let held):
                let channel = context.channel
                memory.hold(held, by: ObjectIdentifier(self)) { channel.close(promise: nil) }
            case .refuse(let code, let reason):
                refuse(code: code, reason: reason, context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let limit = event as? WebSocketLimit {
            frames = WebSocketFrames(limit: limit.frameBytes)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Closes a WebSocket whose client broke a rule, with a close frame that says which,
    /// reading nothing more from it.
    private func refuse(code: UInt16, reason: String, context: ChannelHandlerContext) {
        isClosing = true
        memory.release(ObjectIdentifier(self))
        guard context.channel.isActive else { return }
        let frame = WebSocketFrames.closeFrame(code: code, reason: reason)
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: frame))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

extension ConnectionGuard {
    /// Whether `buffer` completes the `\r\n\r\n` that ends a head, read on from where the
    /// previous reads left off: one pass over the bytes, whatever size heads are sent in.
    fileprivate func endsHead(_ buffer: ByteBuffer) -> Bool {
        var matched = matched
        var begun = begun
        defer { (self.matched, self.begun) = (matched, begun) }
        return buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                guard begun || byte == 13 || byte == 10 else {
                    begun = true
                    continue
                }
                guard begun else { continue }
                let expected: UInt8 = matched % 2 == 0 ? 13 : 10
                if byte == expected {
                    matched += 1
                    if matched == 4 { return true }
                } else {
                    matched = byte == 13 ? 1 : 0
                }
            }
            return false
        }
    }
}

/// The lab's HTTP/1 and WebSocket channel with a ``ConnectionGuard`` put first on every
/// connection.
struct GuardedChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let count: ConnectionGuard.Count
    let memory: ClientMemory
    let headTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let (count, memory, headTimeout) = (count, memory, headTimeout)
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(count: count, memory: memory, headTimeout: headTimeout)
            )
        }
        .flatMap { inner.setup(channel: channel, logger: logger) }
        .flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.context(
                handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self
            )
            try channel.pipeline.syncOperations.addHandler(
                RequestFraming(),
                position: .after(decoder.handler)
            )
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
        // Hummingbird leaves a connection whose upgrade failed open, answered with nothing; once
        // it is done with a connection, the connection is closed.
        value.channel.close(promise: nil)
    }
}

/// Keeps a connection's requests and answers in step, right after the HTTP decoder, where
/// Hummingbird and NIO leave gaps an attacker could use:
///
/// - A first request head that cannot be read — larger than the lab reads (`431`), or not
///   HTTP (`400`) — is answered and the connection closed; the WebSocket upgrade's pipeline
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
///   holds a connection whose upgrade request has a body open without an answer. Any other
///   protocol asked for (`h2c`) is ignored, and the request answered as HTTP/1.1.
/// - An answer closing a connection whose request body is still coming in is followed by a
///   moment of reading with the output closed, so that the client receives it rather than a
///   reset.
/// - `Expect: 100-continue` is answered `100 Continue` at once, or once the answers before it
///   are out.
final class RequestFraming: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Mode {
        /// Requests answered one after another.
        case requests
        /// A WebSocket handshake passed on, not yet answered.
        case upgrading
        /// Upgraded: what passes is no longer HTTP.
        case upgraded
        /// The answer being written is the connection's last; nothing more is read.
        case closing
        /// The last answer is written; nothing more is read or written.
        case closed
    }

    /// A request read and not yet answered.
    private struct Unanswered {
        /// Whether its body has been read to the end.
        var isRead = false
        /// Whether the connection may stay open after its answer.
        var keepsAlive: Bool
        /// Whether it waits for `100 Continue` before it sends its body.
        var waitsToContinue = false
    }

    private var mode = Mode.requests
    private var hasRead = false
    /// Oldest first: Hummingbird answers in the order requests arrive.
    private var unanswered = CircularBuffer<Unanswered>()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch mode {
        case .upgrading, .upgraded:
            context.fireChannelRead(data)
            return
        case .closing, .closed:
            return
        case .requests:
            break
        }
        switch unwrapInboundIn(data) {
        case .head(var head):
            let isFirst = !hasRead
            hasRead = true
            // After a CONNECT the decoder reads what follows as the tunnel's, not as requests.
            var keepsAlive = head.isKeepAlive && head.method != .CONNECT
            if let authority = Self.authority(ofAbsoluteTarget: head.uri) {
                head.headers.replaceOrAdd(name: "host", value: authority)
            }
            if head.headers.contains(name: "upgrade") {
                let asksForWebSocket = head.headers.has("websocket", in: "upgrade")
                if isFirst, asksForWebSocket {
                    if let refusal = Self.refusal(ofHandshake: head) {
                        answer(refusal, context: context)
                    } else {
                        mode = .upgrading
                        context.fireChannelRead(wrapInboundOut(.head(head)))
                    }
                    return
                }
                // Hummingbird answers a later WebSocket handshake with a redirect to a new
                // connection; no other protocol is offered. Either way the decoder reads no
                // further request after a head that asks to upgrade.
                if !asksForWebSocket { head.headers.remove(name: "upgrade") }
                keepsAlive = false
            }
            var request = Unanswered(keepsAlive: keepsAlive)
            request.waitsToContinue =
                head.version == .http1_1
                && head.headers.has("100-continue", in: "expect")
            if request.waitsToContinue, unanswered.isEmpty {
                request.waitsToContinue = false
                sendContinue(context: context)
            }
            unanswered.append(request)
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            if !unanswered.isEmpty { unanswered[unanswered.index(before: unanswered.endIndex)].isRead = true }
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch mode {
        case .upgraded:
            context.write(data, promise: promise)
            return
        case .closed:
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        case .requests, .upgrading, .closing:
            break
        }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if mode == .upgrading {
                guard head.status != .switchingProtocols else {
                    mode = .upgraded
                    context.write(data, promise: promise)
                    return
                }
                // A handshake the lab declined: Hummingbird answers it and is done.
                mode = .closing
            } else if head.status.code < 200 {
                context.write(data, promise: promise)
                return
            } else if let oldest = unanswered.first, !oldest.isRead || !oldest.keepsAlive {
                mode = .closing
            }
            guard mode == .closing else {
                context.write(data, promise: promise)
                return
            }
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            let answered = unanswered.isEmpty ? nil : unanswered.removeFirst()
            guard mode == .closing else {
                context.write(data, promise: promise)
                // The next request's 100 Continue waited for this answer.
                if let next = unanswered.first, next.waitsToContinue, !next.isRead {
                    unanswered[unanswered.startIndex].waitsToContinue = false
                    sendContinue(context: context)
                }
                return
            }
            mode = .closed
            let written = context.writeAndFlush(data)
            promise?.completeWith(written)
            let isUnread = answered.map { !$0.isRead } ?? false
            written.assumeIsolated().whenComplete { _ in
                if isUnread {
                    endAfterLingering(context: context)
                } else {
                    context.close(promise: nil)
                }
            }
        }
    }

    private func sendContinue(context: ChannelHandlerContext) {
        let going = HTTPResponseHead(version: .http1_1, status: .continue)
        context.writeAndFlush(wrapOutboundOut(.head(going)), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        switch mode {
        case .requests where hasRead:
            context.fireErrorCaught(error)
        case .requests:
            let status: HTTPResponseStatus =
                switch error {
                case .headerOverflow: .requestHeaderFieldsTooLarge
                default: .badRequest
                }
            answer(HTTPResponseHead(version: .http1_1, status: status), context: context)
        case .upgrading, .upgraded:
            context.close(promise: nil)
        case .closing, .closed:
            break
        }
    }

    /// The authority of a request target in absolute form (`http://host:port/path`), which is
    /// the request's host whatever its Host header says; `nil` for a path.
    private static func authority(ofAbsoluteTarget target: String) -> String? {
        guard !target.hasPrefix("/"), let colon = target.firstIndex(of: ":"),
            target[colon...].hasPrefix("://")
        else { return nil }
        let rest = target[colon...].dropFirst(3)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.isEmpty ? nil : String(authority)
    }

    /// Why a WebSocket handshake cannot be completed, as its answer; `nil` when it can.
    private static func refusal(ofHandshake head: HTTPRequestHead) -> HTTPResponseHead? {
        let hasBody =
            head.headers.contains(name: "transfer-encoding")
            || head.headers["content-length"].contains { $0.filter { $0 != " " } != "0" }
        // The key is 16 random bytes in base64: 22 characters and `==`.
        let key = head.headers["sec-websocket-key"]
        let isComplete =
            head.method == .GET && head.version == .http1_1 && !hasBody && key.count == 1
            && key[0].utf8.count == 24 && key[0].hasSuffix("==")
            && key[0].utf8.dropLast(2).allSatisfy(Self.isBase64)
            && head.headers.has("upgrade", in: "connection")
        guard head.headers["sec-websocket-version"] == ["13"] else {
            return HTTPResponseHead(
                version: .http1_1,
                status: .upgradeRequired,
                headers: ["Sec-WebSocket-Version": "13"]
            )
        }
        return isComplete ? nil : HTTPResponseHead(version: .http1_1, status: .badRequest)
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
            true
        default: false
        }
    }

    /// Answers `head`, with no body, as the connection's only answer, and closes it.
    private func answer(_ head: HTTPResponseHead, context: ChannelHandlerContext) {
        mode = .closed
        var head = head
        head.headers.replaceOrAdd(name: "content-length", value: "0")
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            endInput(context: context)
        }
    }
}

extension HTTPHeaders {
    /// Whether the comma-separated field `name` lists `token`, in any case.
    fileprivate func has(_ token: String, in name: String) -> Bool {
        self[canonicalForm: name].contains { $0.lowercased() == token }
    }
}

/// How long a connection answered with bytes still coming in is read before it is closed.
private let lingering = TimeAmount.seconds(2)

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
private func endInput(context: ChannelHandlerContext) {
    context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    context.close(promise: nil)
}
