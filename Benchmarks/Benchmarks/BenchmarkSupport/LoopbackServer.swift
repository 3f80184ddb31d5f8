public import Foundation
public import Hummingbird
import Logging

/// A Hummingbird server on a loopback port chosen by the system, started once on first use and
/// kept for the whole benchmark run.
public actor LoopbackServer {
    private let makeRouter: @Sendable () -> Router<BasicRequestContext>
    private var url: URL?
    private var task: Task<Void, any Error>?

    public init(_ makeRouter: @escaping @Sendable () -> Router<BasicRequestContext>) {
        self.makeRouter = makeRouter
    }

    /// The server's base URL, starting it if needed.
    public func start() async -> URL {
        if let url { return url }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "benchmark-server")
        logger.logLevel = .critical
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        let started = URL(string: "http://127.0.0.1:\(await iterator.next() ?? 0)")!
        url = started
        return started
    }
}
