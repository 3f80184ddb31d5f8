public import Foundation
import HTTPTypes
import Hummingbird
public import Logging
import NIOCore
import ServiceLifecycle
import Tributary
public import UnixSignals

extension NewsSandbox {
    /// Why a sandbox could not start serving: the address is taken, the host does not exist
    /// or is not this machine's, or the port needs privileges.
    public struct ListenError: Error, Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int
        /// The system's reason, such as "Address already in use".
        public var reason: String

        public var description: String { "The sandbox cannot listen on \(host):\(port): \(reason)." }
    }

    /// Serves the sandbox until the task is cancelled or one of `shutdownSignals` arrives,
    /// finishing the requests in flight.
    ///
    /// - Throws: ``ListenError`` when the server cannot listen where its configuration says.
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
        let listening = Protected(false)
        let services = ServiceGroup(
            configuration: .init(
                services: [
                    application(logger: logger) { url in
                        listening.withLock { $0 = true }
                        await onReady(url)
                    }
                ],
                gracefulShutdownSignals: shutdownSignals,
                logger: logger
            )
        )
        do {
            try await services.run()
        } catch  where !listening.withLock({ $0 }) {
            throw listenError(error)
        }
    }

    /// Why the server could not start, in the system's words where it has them.
    private func listenError(_ error: any Error) -> ListenError {
        let reason: String
        switch error {
        case let error as IOError: reason = String(cString: strerror(error.errnoCode))
        case is SocketAddressError.UnknownHost: reason = "there is no such host"
        default: reason = "\(error)"
        }
        return ListenError(host: configuration.host, port: configuration.port, reason: reason)
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
                // The server stopped before it listened.
                do {
                    try await group.waitForAll()
                } catch {
                    throw listenError(error)
                }
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
