import NIOCore

/// Sent into a connection's pipeline by a WebSocket route as it decides to upgrade, before the
/// `101` goes out: how large and how many frames the client may send from then on.
struct WebSocketLimit: Sendable {
    var frames: WebSocketFrames.Limit
}

/// Sent into a connection's pipeline by a WebSocket route that declines the handshake: the
/// status and JSON body the client is answered with.
struct WebSocketRefusal: Sendable {
    var status: Int
    var body: ByteBuffer
}

/// Sent into a connection's pipeline by a WebSocket route whose limit has
/// ``WebSocketFrames/Limit/waiting``: the payload of the data frames it has taken, in all.
struct WebSocketTaken: Sendable {
    var bytes: Int
}
