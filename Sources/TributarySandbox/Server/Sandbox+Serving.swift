public import Foundation
import HTTPTypes
import Hummingbird
public import Logging
import NIOCore
import ServiceLifecycle
import Tributary
public import UnixSignals

extension Sandbox {
    /// Why a sandbox could not start serving: the address is taken, the host does not exist
    /// or is not this machine's, or the port needs privileges.
    public struct ListenError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The host the sandbox was to listen on.
        public var host: String
        /// The port the sandbox was to listen on.
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
                    try application(logger: logger) { url in
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
        try await Sandbox(configuration: configuration).withRunning(body)
    }

    /// Runs this sandbox for the duration of `body`, which gets its base URL.
    public func withRunning<Result: Sendable>(_ body: (URL) async throws -> Result) async throws -> Result {
        let (ready, readyContinuation) = AsyncStream<URL>.makeStream()
        let services = ServiceGroup(
            configuration: .init(
                services: [
                    try application(logger: Self.quietLogger) { url in
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
        var logger = Logger(label: "Sandbox")
        logger.logLevel = .critical
        return logger
    }()

    /// The base URL of the sandbox listening on `port` of its host; IPv6 addresses go in
    /// brackets.
    func baseURL(port: Int) -> URL? {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        guard let url = URL(string: "http://\(host):\(port)/v2"), url.host?.isEmpty == false,
            url.port == port, url.path == "/v2"
        else { return nil }
        return url
    }

    private func application(
        logger: Logger,
        onReady: @escaping @Sendable (URL) async -> Void
    ) throws(ListenError) -> some Service {
        guard baseURL(port: max(configuration.port, 1)) != nil else {
            throw ListenError(
                host: configuration.host,
                port: configuration.port,
                reason: "it is not a host name or address"
            )
        }
        // The origin of the URLs the sandbox hands out, known once it listens.
        let origin = Protected("")
        let router = Router()
        router.add(middleware: Latency(latency: configuration.latency))
        // Images and feeds are public, as on a CDN or a news site: no key, no quota.
        router.get("images/**") { [self] request, context in
            image(
                SandboxRequest(request, origin: origin),
                name: context.parameters.getCatchAll().joined(separator: "/")
            )
            .response
        }
        router.get("feeds/**") { [self] request, context in
            feed(
                SandboxRequest(request, origin: origin),
                name: context.parameters.getCatchAll().joined(separator: "/")
            )
            .response
        }
        // Hacker News's API is public too: its JSON, or null for a key it does not have.
        router.get("hn/v0/**") { [self] _, context in
            let path = context.parameters.getCatchAll().joined(separator: "/")
            guard let body = hackerNews.answer(path) else {
                return SandboxResponse.error(
                    404,
                    "routeNotFound",
                    "Hacker News has no path \(path); try topstories.json."
                )
                .response
            }
            return SandboxResponse(status: 200, body: body).response
        }
        addTMDbRoutes(to: router, origin: origin)
        let api = router.group("v2")
            // Only requests with a key the sandbox accepts, as NewsAPI does; then each key's
            // quota, and the share of failures the configuration asks for.
            .add(middleware: Admission { [self] request in refusal(of: request, by: authenticate) })
            .add(middleware: Admission { [self] request in refusal(of: request, by: charge) })
        let endpoints: [(String, Endpoint)] = [
            ("top-headlines", .topHeadlines), ("everything", .everything),
            ("top-headlines/sources", .sources), ("sources", .sources),
        ]
        for (path, endpoint) in endpoints {
            api.get(RouterPath(path)) { [self] request, _ in
                answer(endpoint, SandboxRequest(request, origin: origin)).response
            }
        }
        // Anything else is NewsAPI's 404, with no key needed, under /v2 as anywhere.
        for path in ["**", "v2/**"] {
            router.get(RouterPath(path)) { request, _ in
                SandboxResponse.error(404, "routeNotFound", "There is no endpoint at \(request.uri.path).")
                    .response
            }
        }
        return Application(
            router: router,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "Sandbox"
            ),
            onServerRunning: { [self] channel in
                guard let url = baseURL(port: channel.localAddress?.port ?? configuration.port) else {
                    return
                }
                let handedOut = configuration.publicURL ?? url.deletingLastPathComponent()
                origin.withLock { $0 = handedOut.absoluteString.trimmingSuffix("/") }
                await onReady(url)
            },
            logger: logger
        )
    }

    /// What `check` refuses `request` with, if anything.
    private func refusal(
        of request: SandboxRequest,
        by check: (SandboxRequest) throws(Refusal) -> Void
    ) -> SandboxResponse? {
        do throws(Refusal) {
            try check(request)
            return nil
        } catch {
            return error.response
        }
    }

    private enum Endpoint: Sendable {
        case topHeadlines, everything, sources
    }

    private func answer(_ endpoint: Endpoint, _ request: SandboxRequest) -> SandboxResponse {
        do throws(Refusal) {
            switch endpoint {
            case .topHeadlines: return try topHeadlines(request)
            case .everything: return try everything(request)
            case .sources: return try sources(request)
            }
        } catch {
            return error.response
        }
    }

    /// Holds every response for the configured latency.
    private struct Latency<Context: RequestContext>: RouterMiddleware {
        let latency: Duration

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            if latency > .zero { try? await Task.sleep(for: latency) }
            return try await next(request, context)
        }
    }

    /// Lets a request through unless `refusal` has an answer for it instead: authentication,
    /// quotas and rate limits, as router middleware.
    struct Admission<Context: RequestContext>: RouterMiddleware {
        let refusal: @Sendable (SandboxRequest) -> SandboxResponse?

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            if let refused = refusal(SandboxRequest(request, origin: Protected(""))) {
                return refused.response
            }
            return try await next(request, context)
        }
    }
}

extension SandboxRequest {
    /// The sandbox's view of a Hummingbird request.
    init(_ request: Request, origin: Protected<String>) {
        var headers: [String: String] = [:]
        for field in request.headers {
            headers[field.name.canonicalName] = field.value
        }
        self.init(
            path: request.uri.path,
            rawQuery: request.uri.query,
            headers: headers,
            origin: origin.withLock { $0 }
        )
    }
}

extension SandboxResponse {
    /// The answer as a Hummingbird response.
    var response: Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return Response(
            status: .init(code: status),
            headers: fields,
            body: .init(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
