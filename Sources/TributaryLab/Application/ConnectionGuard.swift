import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
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
    /// The last bytes read, to find the end of the head across reads.
    private var tail: [UInt8] = []

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
        if deadline != nil {
            let window = tail + unwrapInboundIn(data).readableBytesView
            if window.count >= 4,
                (0...(window.count - 4)).contains(where: {
                    window[$0..<$0 + 4].elementsEqual([13, 10, 13, 10])
                })
            {
                // The first head is in; from here Hummingbird's idle timeout takes over.
                deadline?.cancel()
                deadline = nil
                tail = []
            } else {
                tail = Array(window.suffix(3))
            }
        }
        context.fireChannelRead(data)
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
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
