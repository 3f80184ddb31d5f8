import Foundation
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Tributary

/// Counts the lab's live connections, in all and by remote address, and turns away those past
/// either limit.
final class LiveConnections: Sendable {
    private struct State {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    private let maximum: Int
    private let maximumPerAddress: Int
    private let state = Protected(State())

    /// What says the lab is stopping.
    let closing: SocketsClosing

    init(maximum: Int, maximumPerAddress: Int, closing: SocketsClosing = SocketsClosing()) {
        self.maximum = maximum
        self.maximumPerAddress = maximumPerAddress
        self.closing = closing
    }

    /// Counts a connection from `address` — by its ``AddressBlock`` — or says why it may not stay.
    func admit(_ host: String) -> String? {
        let address = AddressBlock.of(host)
        return
            state.withLock { state in
                guard state.total < maximum else {
                    return "The lab has as many live connections as it takes (\(maximum)); try again later."
                }
                guard state.byAddress[address, default: 0] < maximumPerAddress else {
                    return
                        "Your addresses have as many live connections as the lab takes from one block of them (\(maximumPerAddress))."
                }
                state.total += 1
                state.byAddress[address, default: 0] += 1
                return nil
            }
    }

    func release(_ host: String) {
        let address = AddressBlock.of(host)
        state.withLock { state in
            state.total -= 1
            let left = state.byAddress[address, default: 1] - 1
            state.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// How many are open.
    var count: Int { state.withLock { $0.total } }

    /// Runs `body` for a connection from `address` that is let in, or closes it with the reason
    /// it is not: the WebSocket close reason is what a client shows.
    func serve(
        _ address: String,
        outbound: WebSocketOutboundWriter,
        _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        if let refusal = admit(address) {
            try await outbound.close(.policyViolation, reason: refusal)
            return
        }
        defer { release(address) }
        // A lab that is stopping ends its sockets, and says so with 1001, rather than wait for
        // every page that holds one to leave: every page holds one.
        let (closing, forget) = self.closing.signal()
        defer { forget() }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return false
            }
            group.addTask {
                for await _ in closing {}
                return !Task.isCancelled
            }
            let isClosing = try await group.next() ?? false
            group.cancelAll()
            if isClosing { try? await outbound.close(.goingAway, reason: "The lab is stopping.") }
        }
    }
}

/// The messages waiting for one viewer, bounded in bytes: a viewer that does not read is
/// disconnected once `limit` bytes wait for it, rather than held in memory without end. The
/// messages are shared buffers, so a version sent to many viewers is held once.
final class Outbox: Sendable {
    private struct State {
        var bytes = 0
        /// Of ``bytes``, those of answers made for this viewer alone.
        var replyBytes = 0
        var snapshots = 0
        var overflowed = false
        /// Whether the viewer broke a rule of the protocol, and the WebSocket layer closes the
        /// connection with the code that says which.
        var broke = false
        /// When the viewer was last sent a snapshot again at its asking.
        var resentAt: ContinuousClock.Instant?
    }

    private struct Message: Sendable {
        var text: ByteBuffer
        var isSnapshot: Bool
        var isReply: Bool
    }

    private let limit: Int
    private let replyLimit: Int
    private let state = Protected(State())
    private let stream: AsyncStream<Message>
    private let continuation: AsyncStream<Message>.Continuation

    /// An outbox of at most `limit` bytes waiting, of which at most `replyLimit` are answers
    /// made for this viewer alone: what every viewer is sent is one buffer, shared, but an
    /// answer to a viewer's own message is memory of its own, which a viewer that sends and
    /// never reads would otherwise make the lab hold up to `limit`.
    init(limit: Int, replyLimit: Int? = nil) {
        self.limit = limit
        self.replyLimit = replyLimit ?? limit
        (stream, continuation) = AsyncStream<Message>.makeStream()
    }

    /// Queues `text`, an answer to the viewer's own message when `isReply`; false, and the
    /// outbox closed, when it would pass a limit.
    @discardableResult
    func deliver(_ text: ByteBuffer, isSnapshot: Bool = false, isReply: Bool = false) -> Bool {
        let size = text.readableBytes
        let admitted = state.withLock { state in
            guard !state.overflowed else { return false }
            guard state.bytes + size <= limit, !isReply || state.replyBytes + size <= replyLimit else {
                state.overflowed = true
                return false
            }
            state.bytes += size
            if isReply { state.replyBytes += size }
            if isSnapshot { state.snapshots += 1 }
            return true
        }
        if admitted {
            continuation.yield(Message(text: text, isSnapshot: isSnapshot, isReply: isReply))
        } else {
            continuation.finish()
        }
        return admitted
    }

    /// Whether a snapshot is waiting to be written: one is enough for a viewer behind.
    var hasSnapshotWaiting: Bool { state.withLock { $0.snapshots > 0 } }

    /// The least time between two snapshots sent again at the viewer's asking.
    static let resendGap = Duration.seconds(1)

    /// Whether the viewer may be sent a snapshot again at its asking, `now`; if so, `now` is
    /// when it last was. Once every ``resendGap`` at most: a viewer that reads as fast as it
    /// can had been sent a 900 KB document forty times a second for a resume of a few bytes.
    func mayResend(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            if let last = state.resentAt, now - last < Self.resendGap { return false }
            state.resentAt = now
            return true
        }
    }

    /// Whether the viewer fell so far behind that it was dropped.
    var overflowed: Bool { state.withLock { $0.overflowed } }

    func finish() { continuation.finish() }

    /// Writes the messages to `outbound` while `read` reads the viewer's; once `read` returns,
    /// or the viewer falls so far behind that it is dropped (closed with `overflow` as the
    /// reason), the connection closes.
    ///
    /// What `read` throws — a message too large, text that is not UTF-8 — is thrown on, and
    /// the WebSocket layer closes the connection with the code it carries (1009, 1007), as
    /// RFC 6455 asks, rather than as a normal close.
    func serve(
        _ outbound: WebSocketOutboundWriter,
        overflow: String,
        reading read: () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await self.drain(to: outbound)
                if self.overflowed {
                    try await outbound.close(.policyViolation, reason: overflow)
                } else if !self.state.withLock({ $0.broke }) {
                    try? await outbound.close(.normalClosure, reason: nil)
                }
            }
            do {
                try await read()
            } catch {
                state.withLock { $0.broke = true }
                finish()
                group.cancelAll()
                throw error
            }
            finish()
            try await group.waitForAll()
        }
    }

    /// Writes every message as a text frame as it comes, until the outbox is finished.
    func drain(to outbound: WebSocketOutboundWriter) async throws {
        for await message in stream {
            try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: message.text)))
            state.withLock { state in
                state.bytes -= message.text.readableBytes
                if message.isReply { state.replyBytes -= message.text.readableBytes }
                if message.isSnapshot { state.snapshots -= 1 }
            }
        }
    }
}

extension StringProtocol {
    /// The characters of the text that fit in `bytes` of UTF-8, cut at a character: what a
    /// client sent, echoed in an answer, costs the lab no more than that however it is made.
    func prefixOfUTF8(_ bytes: Int) -> Substring {
        var used = 0
        let text = Substring(self)
        let end =
            text.indices.first { index in
                used += text[index].utf8.count
                return used > bytes
            } ?? text.endIndex
        return text[..<end]
    }
}
