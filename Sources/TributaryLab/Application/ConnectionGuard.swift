import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import Tributary

/// The first handler of every connection, before any HTTP is read: it counts the connection
/// against the lab's limit until it closes — WebSockets included — and closes one whose first
/// request head has not arrived within the timeout.
///
/// Hummingbird's own idle timeout starts only once a first request head has been read, so
/// without this a client that sends half a head holds its connection forever.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// The open connections, shared by every connection's guard.
    final class Count: Sendable {
        private let maximum: Int
        private let open = Protected(0)

        init(maximum: Int) { self.maximum = maximum }

        /// Counts a connection in, or says that there is no room for it.
        func enter() -> Bool {
            open.withLock { open in
                guard open < maximum else { return false }
                open += 1
                return true
            }
        }

        func leave() { open.withLock { $0 -= 1 } }
    }

    private let count: Count
    private let headTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Whether the connection found no room; it is answered `503` and closed once active.
    private var isRefused = false
    /// How much of the `\r\n\r\n` that ends a head the bytes read so far end with.
    private var matched = 0
    /// Whether the head has begun: empty lines before a request line are skipped by the
    /// parser, so they end no head.
    private var begun = false

    init(count: Count, headTimeout: TimeAmount) {
        self.count = count
        self.headTimeout = headTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Closing here, while the pipeline is still being built, would leave the connection's
        // async channel unfinished, which NIO treats as a programming error and traps on: a
        // connection without room is turned away once it is active instead.
        guard count.enter() else {
            isRefused = true
            return
        }
        let count = count
        context.channel.closeFuture.whenComplete { _ in count.leave() }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: headTimeout) { channel.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        guard isRefused else { return }
        let answer =
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer(string: answer))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // What a turned-away connection sends is not read.
        guard !isRefused else { return }
        if deadline != nil, endsHead(unwrapInboundIn(data)) {
            // The first head is in; from here Hummingbird's idle timeout takes over.
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
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
    let headTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let count = count
        let headTimeout = headTimeout
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(count: count, headTimeout: headTimeout)
            )
        }
        .flatMap { inner.setup(channel: channel, logger: logger) }
        .flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.context(
                handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self
            )
            try channel.pipeline.syncOperations.addHandler(
                UnreadableHeadAnswer(),
                position: .after(decoder.handler)
            )
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Answers a first request head that cannot be read — larger than the lab reads (`431`), or not
/// HTTP (`400`) — and closes the connection, which would otherwise wait for a request that
/// never comes: the WebSocket upgrade's pipeline leaves such errors to Hummingbird, which
/// hears of them only from a request. It sits right after the HTTP decoder.
///
/// Bytes that cannot be read after a readable request are Hummingbird's to answer: it answers
/// every request before them in order, then `400`, and closes. After a request to upgrade, the
/// connection is only closed, since an answer may be on its way that a second one would
/// corrupt.
final class UnreadableHeadAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Read {
        /// No request head yet.
        case nothing
        /// Requests Hummingbird answers one after another.
        case requests
        /// A request to upgrade: once upgraded, what comes through is no longer HTTP.
        case upgrade
    }

    private var read = Read.nothing

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if read != .upgrade, case .head(let head) = unwrapInboundIn(data) {
            read = head.headers.contains(name: "upgrade") ? .upgrade : .requests
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let channel = context.channel
        switch read {
        case .requests:
            context.fireErrorCaught(error)
            return
        case .upgrade:
            channel.close(promise: nil)
            return
        case .nothing:
            break
        }
        let status: HTTPResponseStatus =
            switch error {
            case .headerOverflow: .requestHeaderFieldsTooLarge
            default: .badRequest
            }
        let head = HTTPResponseHead(
            version: .http1_1,
            status: status,
            headers: ["Content-Length": "0", "Connection": "close"]
        )
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
