import ServiceLifecycle
import Tributary

/// Tells every WebSocket of a lab that the lab is stopping, so that each is closed with 1001
/// at once rather than waited for: every page of the lab holds one, and a page that stays open
/// would otherwise hold the lab until it is closed.
///
/// The signal comes from the lab's own ``SocketsCloser`` service, which the service group stops
/// before the server: a socket's handler cannot rely on seeing the group's graceful shutdown
/// itself.
final class SocketsClosing: Sendable {
    private struct State {
        var isClosing = false
        var next = 0
        var waiting: [Int: AsyncStream<Void>.Continuation] = [:]
    }

    private let state = Protected(State())

    /// A stream that finishes when the lab starts stopping, and `forget` to call once the socket
    /// has ended.
    func signal() -> (closing: AsyncStream<Void>, forget: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let key: Int? = state.withLock { state in
            guard !state.isClosing else { return nil }
            state.next += 1
            state.waiting[state.next] = continuation
            return state.next
        }
        guard let key else {
            continuation.finish()
            return (stream, {})
        }
        return (stream, { [state] in _ = state.withLock { $0.waiting.removeValue(forKey: key) } })
    }

    /// Starts the closing of every socket, those that open from now on included.
    func closeAll() {
        let waiting = state.withLock { state in
            state.isClosing = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.finish() }
    }
}

/// The service that closes a lab's sockets when its service group begins to stop; it is put
/// after the lab's application, so that the group stops it first.
struct SocketsCloser: Service {
    let closing: SocketsClosing

    func run() async throws {
        // Returns when the group stops, or throws when it is cancelled: either way the sockets go.
        try? await gracefulShutdown()
        closing.closeAll()
    }
}
