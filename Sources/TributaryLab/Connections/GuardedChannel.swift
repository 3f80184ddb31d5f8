import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The lab's HTTP/1 and WebSocket channel with a ``ConnectionGuard`` put first on every
/// connection.
struct GuardedChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let count: ConnectionGuard.Count
    let memory: ClientMemory
    let headTimeout: TimeAmount
    let writeTimeout: TimeAmount
    /// Whether a request's head carries a credential the lab takes.
    let hasCredential: @Sendable (HTTPHeaders) -> Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let (count, memory, headTimeout, writeTimeout) = (count, memory, headTimeout, writeTimeout)
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(
                    count: count,
                    memory: memory,
                    headTimeout: headTimeout,
                    writeTimeout: writeTimeout
                )
            )
            // NIO's own: no more is read from a client while its answers wait to be sent, so a
            // client that pipelines requests and never reads gets no more answered than its
            // socket takes, and costs the event loop nothing in the meantime.
            try channel.pipeline.syncOperations.addHandler(BackPressureHandler())
        }
        .flatMap { inner.setup(channel: channel, logger: logger) }
        .flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.context(
                handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self
            )
            try channel.pipeline.syncOperations.addHandler(
                RequestFraming(mayContinue: hasCredential),
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
