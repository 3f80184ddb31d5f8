import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import Tributary

/// The first handler of every connection, before any HTTP is read. Its rules are its
/// ``StateMachine``'s; this handler keeps the timers and the counts and performs what the
/// machine returns.
///
/// Each rule fills a gap Hummingbird and NIO leave:
///
/// - It counts the connection, WebSockets included, against the lab's limit and its address
///   block's, and answers one past either `503` with `Retry-After`. Hummingbird's
///   `AvailableConnectionsDelegate` (which the lab also sets, a little above this limit, so that
///   descriptors never run out) stops accepting instead: clients would wait unanswered in the
///   kernel's queue, a health check behind them, and it cannot count by address.
/// - It closes a connection whose first request head has not arrived within the timeout:
///   Hummingbird's idle timeout starts only once a first head has been read, so without this a
///   client that sends half a head holds its connection forever.
/// - Once a WebSocket route has said how large a frame the connection may send
///   (``WebSocketLimit``), it reads the frames' headers as they come (``WebSocketFrames``),
///   refusing one past the limit (1009) or unmasked (1002) before its payload is held, and counts
///   what an unfinished frame holds against the lab's ``ClientMemory``. Hummingbird takes one
///   frame limit for every route, and NIO's decoder buffers a whole frame before it is read.
/// - It stops reading a WebSocket whose route has as many frames waiting as it may
///   (``WebSocketFrames/Limit/waiting``) until the route takes some (``WebSocketTaken``):
///   NIO's `NIOAsyncChannel` holds ten frames, whatever their size, before it stops reading.
/// - It closes a connection whose client has read none of its answers for the write timeout
///   while some wait to go. Neither NIO nor Hummingbird times writes out, and Hummingbird's
///   idle timeout does not run while a request's answer is being written: a client that
///   never reads would hold its connection for good.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The open connections, in all and by ``AddressBlock``, shared by every connection's guard.
    final class Count: Sendable {
        private let maximum: Int
        private let maximumPerBlock: Int
        /// The WebSocket frames a second all of a block's viewers may send together.
        let framesPerBlock: Int
        private let state = Protected<(open: Int, byBlock: [String: Int])>((0, [:]))
        /// Each block's frame allowance.
        private let allowances = Protected<[String: FrameAllowance]>([:])

        init(maximum: Int, maximumPerBlock: Int = .max, framesPerBlock: Int = .max) {
            self.maximum = maximum
            self.maximumPerBlock = maximumPerBlock
            self.framesPerBlock = framesPerBlock
        }

        /// Takes `frames` from `block`'s allowance, given back at ``framesPerBlock`` a second
        /// up to a second's worth; false when they are more than it has left. One connection's
        /// limit keeps it from flooding the lab, and this keeps a block's many from doing so
        /// together: each frame costs the lab tens of microseconds, whatever it carries.
        func spend(_ frames: Int, from block: String, at now: UInt64) -> Bool {
            guard frames > 0, framesPerBlock < .max else { return true }
            return allowances.withLock { allowances in
                allowances[block, default: FrameAllowance(perSecond: framesPerBlock)].take(frames, at: now)
            }
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
                if left <= 0 { allowances.withLock { $0[block] = nil } }
            }
        }
    }

    private let count: Count
    private let memory: ClientMemory
    private let headTimeout: TimeAmount
    private let writeTimeout: TimeAmount
    private var machine = StateMachine(hasRoom: false)
    /// The connection's address block, and how many of its frames were counted against the
    /// block's allowance.
    private var block = ""
    private var framesSpent = 0
    /// The head's timer, or the turn-away's.
    private var timer: Scheduled<Void>?
    /// The timer of the next check of the writes, while bytes wait to go.
    private var writeTimer: Scheduled<Void>?
    /// Whether a read was asked for while the route had as many frames waiting as it may.
    private var readHeld = false

    init(count: Count, memory: ClientMemory, headTimeout: TimeAmount, writeTimeout: TimeAmount) {
        self.count = count
        self.memory = memory
        self.headTimeout = headTimeout
        self.writeTimeout = writeTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Closing here, while the pipeline is still being built, would leave the connection's
        // async channel unfinished, which NIO treats as a programming error and traps on: a
        // connection without room is turned away once it is active instead.
        let block = AddressBlock.of(context.channel.remoteAddress?.ipAddress ?? "unknown")
        self.block = block
        machine = StateMachine(hasRoom: count.enter(from: block))
        guard machine.hasRoom else { return }
        let (count, memory, holder) = (count, memory, ObjectIdentifier(self))
        context.channel.closeFuture.whenComplete { _ in
            count.leave(from: block)
            memory.release(holder)
        }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: headTimeout) {
            guard self.machine.headTimeReached() else { return }
            // Past the decoder, which would read the end of input as a head cut short and
            // answer it: a head that never came is not answered.
            guard let framing = try? context.pipeline.syncOperations.context(handlerType: RequestFraming.self)
            else { return context.close(promise: nil) }
            endInput(context: framing)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        guard !machine.hasRoom else { return }
        // Answered once its request has been read, so that closing leaves nothing unread to
        // reset the connection with the answer; a client that sends nothing is answered soon.
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(500)) {
            if self.machine.turnAwayTimeReached() { self.turnAway(context: context) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Cancelled and let go: a timer's task holds this handler and its context.
        timer?.cancel()
        timer = nil
        writeTimer?.cancel()
        writeTimer = nil
    }

    func read(context: ChannelHandlerContext) {
        guard machine.isFull else { return context.read() }
        readHeld = true
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        machine.wrote(unwrapOutboundIn(data).readableBytes)
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        if writeTimer == nil { checkWrites(context: context) }
    }

    /// Watches the bytes waiting to go, from a flush that leaves some until none do, and ends
    /// the connection when a whole write timeout passes without any of them going.
    private func checkWrites(context: ChannelHandlerContext) {
        writeTimer = nil
        let buffered = (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
        switch machine.checkWrites(buffered: buffered) {
        case .idle:
            break
        case .watch:
            writeTimer = context.eventLoop.assumeIsolated().scheduleTask(in: writeTimeout) {
                self.checkWrites(context: context)
            }
        case .stalled:
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = NIODeadline.now().uptimeNanoseconds
        switch machine.read(unwrapInboundIn(data), at: now) {
        case .forward(let holding, let headArrived):
            guard spendBlockFrames(at: now) else {
                machine.refuseFrames()
                return refuse(
                    code: 1008,
                    reason: "Too many frames from your addresses; try again later.",
                    context: context
                )
            }
            if headArrived {
                timer?.cancel()
                timer = nil
            }
            if let holding {
                let channel = context.channel
                memory.hold(holding, by: ObjectIdentifier(self)) { channel.close(promise: nil) }
            }
            context.fireChannelRead(data)
        case .drop:
            break
        case .close:
            context.close(promise: nil)
        case .turnAway:
            turnAway(context: context)
        case .refuse(let code, let reason):
            refuse(code: code, reason: reason, context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let limit = event as? WebSocketLimit {
            switch machine.limitFrames(to: limit.frames) {
            case .forward(let holding?, _):
                let channel = context.channel
                memory.hold(holding, by: ObjectIdentifier(self)) { channel.close(promise: nil) }
            case .refuse:
                // Before the 101: no close frame, for the client has no WebSocket yet.
                memory.release(ObjectIdentifier(self))
                context.close(promise: nil)
            case .forward(nil, _), .drop, .close, .turnAway:
                break
            }
            return
        }
        if let taken = event as? WebSocketTaken {
            if case .forward(let holding?, _) = machine.took(taken.bytes) {
                let channel = context.channel
                memory.hold(holding, by: ObjectIdentifier(self)) { channel.close(promise: nil) }
            }
            if readHeld, !machine.isFull {
                readHeld = false
                context.read()
            }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Counts the frames read since the last time against the block's allowance, once a route
    /// has said these are a page's or a viewer's frames (a recorder, with the token, has an
    /// allowance of its own); false when the block has none left.
    private func spendBlockFrames(at now: UInt64) -> Bool {
        guard let limit = machine.frameLimit, limit.perSecond <= LabRequestContext.viewerFramesPerSecond
        else {
            return true
        }
        let read = machine.framesRead
        defer { framesSpent = read }
        return count.spend(read - framesSpent, from: block, at: now)
    }

    /// Answers `503` and closes, once the answer is out.
    private func turnAway(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        let answer =
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: answer))).assumeIsolated().whenComplete { _ in
            endInput(context: context)
        }
    }

    /// Closes a WebSocket whose client broke a rule, with a close frame that says which. The
    /// client is likely still sending: closing with its bytes unread would reset the connection,
    /// and the reset can reach it before the close frame is read. So the lab stops writing, and
    /// drops what still comes until the client closes, ``lingering`` passes or it has sent
    /// ``StateMachine/mostLingered``.
    private func refuse(code: UInt16, reason: String, context: ChannelHandlerContext) {
        memory.release(ObjectIdentifier(self))
        guard context.channel.isActive else { return }
        let frame = WebSocketFrames.closeFrame(code: code, reason: reason)
        if readHeld {
            readHeld = false
            context.read()
        }
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: frame))).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            self.timer?.cancel()
            self.timer = context.eventLoop.assumeIsolated().scheduleTask(in: lingering) {
                context.close(promise: nil)
            }
        }
    }
}
