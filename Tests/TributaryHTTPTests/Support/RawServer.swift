import Foundation
import NIOCore
import NIOPosix
import TributaryTestSupport

/// A loopback TCP server that answers each connection with fixed bytes and hangs up: the
/// responses no well-behaved HTTP server sends.
enum RawServer {
    /// Runs a server that replies `reply` for the duration of `body`, which gets its URL.
    static func run<Result>(
        replying reply: String,
        _ body: (URL) async throws -> Result
    ) async throws -> Result {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Replier(reply: reply))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let url = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
        do {
            let result = try await body(url)
            try await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Runs a server that answers a connection's first request `200 ok`, kept alive, and closes
    /// the connection on its second without answering: a kept-alive connection the server
    /// closed, idle, just as a request went out on it. Gives `body` its URL and how many
    /// connections were made.
    static func closingKeptAliveConnections<Result>(
        _ body: (URL, @Sendable () -> Int) async throws -> Result
    ) async throws -> Result {
        let connections = Locked(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.withLock { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(OneAnswer())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let url = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
        do {
            let result = try await body(url) { connections.current }
            try await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Answers the first request head it reads and closes the connection on the next.
    private final class OneAnswer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private var answered = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let text = String(buffer: unwrapInboundIn(data))
            guard text.contains(" HTTP/1.1\r\n") else { return }
            guard !answered else { return context.close(promise: nil) }
            answered = true
            let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
            context.writeAndFlush(
                wrapOutboundOut(context.channel.allocator.buffer(string: answer)),
                promise: nil
            )
        }
    }

    /// A loopback URL on which nothing listens: connecting to it is refused.
    static func refusedURL() async throws -> URL {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return URL(string: "http://127.0.0.1:\(port)")!
    }

    private final class Replier: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let reply: String

        init(reply: String) {
            self.reply = reply
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = context.channel.allocator.buffer(string: reply)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
                bound.value.close(promise: nil)
            }
        }
    }
}
