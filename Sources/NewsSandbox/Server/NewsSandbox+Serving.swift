public import Foundation
import HTTPTypes
import Hummingbird
public import Logging
import NIOCore
import ServiceLifecycle
public import UnixSignals

extension NewsSandbox {
    /// Serves the sandbox until the task is cancelled or one of `shutdownSignals` arrives,
    /// finishing the requests in flight.
    ///
    /// - Parameters:
    ///   - shutdownSignals: Signals that end the server gracefully, such as `.sigint`.
    ///   - logger: Where the server logs; by default only critical messages.
    ///   - onReady: Called with the base URL (`http://host:port/v2`) once the server listens.
    public func run(
        shutdownSignals: [UnixSignal] = [],
        logger: Logger? = nil,
        onReady: @escaping @Sendable (URL) async -> Void = { _ in }
    ) async throws {
        let logger = logger ?? Self.quietLogger
        let services = ServiceGroup(
            configuration: .init(
                services: [application(logger: logger, onReady: onReady)],
                gracefulShutdownSignals: shutdownSignals,
                logger: logger
            )
        )
        try await services.run()
    }

    /// Starts a sandbox on a free loopback port, runs `body` with its base URL, and shuts the
    /// sandbox down gracefully when `body` returns or throws.
    public static func withRunning<Result: Sendable>(
        _ configuration: Configuration = Configuration(),
        _ body: (URL) async throws -> Result
    ) async throws -> Result {
        try await NewsSandbox(configuration: configuration).withRunning(body)
    }

    /// Runs this sandbox for the duration of `body`, which gets its base URL.
    public func withRunning<Result: Sendable>(_ body: (URL) async throws -> Result) async throws -> Result {
        let (ready, readyContinuation) = AsyncStream<URL>.makeStream()
        let services = ServiceGroup(
            configuration: .init(
                services: [
                    application(logger: Self.quietLogger) { url in
                        readyContinuation.yield(url)
                        readyContinuation.finish()
                    }
                ],
                gracefulShutdownSignals: [],
                logger: Self.quietLogger
            )
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { readyContinuation.finish() }
                try await services.run()
            }
            var iterator = ready.makeAsyncIterator()
            guard let url = await iterator.next() else {
                try await group.waitForAll()
                throw CancellationError()
            }
            let result: Result
            do {
                result = try await body(url)
            } catch {
                await services.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return result
        }
    }

    private static let quietLogger: Logger = {
        var logger = Logger(label: "NewsSandbox")
        logger.logLevel = .critical
        return logger
    }()

    private func application(
        logger: Logger,
        onReady: @escaping @Sendable (URL) async -> Void
    ) -> some Service {
        let router = Router()
        let fallbackAuthority = "\(configuration.host):\(configuration.port)"
        router.get("**") { request, _ -> Response in
            var headers: [String: String] = [:]
            for field in request.headers {
                headers[field.name.canonicalName] = field.value
            }
            let exchange = SandboxRequest(
                path: request.uri.path,
                rawQuery: request.uri.query,
                headers: headers,
                origin: "http://\(request.head.authority ?? headers["host"] ?? fallbackAuthority)"
            )
            let answer = await self.respond(to: exchange)
            var fields = HTTPFields()
            for (name, value) in answer.headers {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            return Response(
                status: .init(code: answer.status),
                headers: fields,
                body: .init(byteBuffer: ByteBuffer(bytes: answer.body))
            )
        }
        let host = configuration.host
        return Application(
            router: router,
            configuration: .init(
                address: .hostname(host, port: configuration.port),
                serverName: "NewsSandbox"
            ),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                await onReady(URL(string: "http://\(host):\(port)/v2")!)
            },
            logger: logger
        )
    }
}
