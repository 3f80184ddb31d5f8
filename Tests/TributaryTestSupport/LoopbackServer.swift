public import Foundation
public import Hummingbird
import Logging
import ServiceLifecycle

/// Serves `router` on a loopback port chosen by the system for the duration of `body`, which
/// gets the server's base URL, then shuts the server down gracefully.
///
/// Cancelling a Hummingbird server with requests in flight leaves response writers
/// unfinished, which NIO traps on in debug builds; a graceful shutdown lets them end.
public func withLoopbackServer<Context: RequestContext, Result: Sendable>(
    _ router: Router<Context>,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> Result
) async throws -> Result where Context.Source == ApplicationRequestContextSource {
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    var logger = Logger(label: "LoopbackServer")
    logger.logLevel = .critical
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: logger
    )
    let services = ServiceGroup(
        configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger)
    )
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        let result: Result
        do {
            result = try await body(URL(string: "http://127.0.0.1:\(port)")!)
        } catch {
            await services.triggerGracefulShutdown()
            throw error
        }
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
        return result
    }
}
