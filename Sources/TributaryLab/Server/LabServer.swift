public import Foundation
import HTTPTypes
public import Hummingbird
import HummingbirdWebSocket
public import Logging
import NIOCore
import ServiceLifecycle
import Tributary
import TributaryStreams
public import UnixSignals

/// The lab's service: stream documents stored, versioned and served over a JSON API.
///
/// ```swift
/// let lab = LabServer(store: try SQLiteDocumentStore(path: path), token: token)
/// try await lab.run(host: "127.0.0.1", port: 8080, shutdownSignals: [.sigint, .sigterm]) { url in
///     print("Tributary lab at \(url)?token=\(token)")
/// }
/// ```
///
/// Writes need the token (`Authorization: Bearer TOKEN`); a document is read with its id, which
/// is its share link. Every save is a version; a save must name the version it was based on
/// (`If-Match`), and a stale one is refused with the current document rather than overwriting
/// it. Nothing invalid is stored: a document is validated, with the JSON path of what is wrong,
/// before it reaches the store.
public struct LabServer: Sendable {
    /// Where documents are kept.
    public let store: any DocumentStore
    /// The secret that writes need.
    public let token: String
    /// The largest request body accepted, in bytes: 1 MiB.
    public var maximumBodySize = 1 << 20
    /// The news reader's client and thumbnails; without it the lab serves no news.
    public var news: LabNews?
    /// The live viewers of each document.
    let hub = LiveHub()
    /// The encoded answers of recently read versions.
    let bodies = DocumentBodies(capacity: 1_000)

    public init(store: any DocumentStore, token: String, news: LabNews? = nil) {
        self.store = store
        self.token = token
        self.news = news
    }

    /// A token of 128 random bits, for a lab started without one.
    public static func makeToken() -> String { DocumentID.make() }

    /// The router that serves the API; tests serve it on a port of their own.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: SecurityHeaders())
        addRoutes(to: router)
        addAppRoutes(to: router)
        addNewsRoutes(to: router)
        return router
    }

    /// Serves the lab until the task is cancelled or one of `shutdownSignals` arrives, finishing
    /// the requests in flight.
    public func run(
        host: String,
        port: Int,
        shutdownSignals: [UnixSignal] = [],
        logger: Logger = Logger(label: "TributaryLab"),
        onReady: @escaping @Sendable (URL) async -> Void
    ) async throws {
        let services = ServiceGroup(
            configuration: .init(
                services: services(application(host: host, port: port, logger: logger, onReady: onReady)),
                gracefulShutdownSignals: shutdownSignals,
                logger: logger
            )
        )
        try await services.run()
    }

    /// Serves the lab on a loopback port — by default a free one — for the duration of `body`,
    /// which gets its URL, then shuts it down gracefully.
    public func withRunning<Result: Sendable>(
        port: Int = 0,
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "TributaryLab")
        logger.logLevel = .critical
        let (ready, readyContinuation) = AsyncStream<URL>.makeStream()
        let services = ServiceGroup(
            configuration: .init(
                services: services(
                    application(host: "127.0.0.1", port: port, logger: logger) { url in
                        readyContinuation.yield(url)
                        readyContinuation.finish()
                    }
                ),
                gracefulShutdownSignals: [],
                logger: logger
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

    /// What runs for the lab: its store, when that is a service, the follower of a store that
    /// several instances share, and the server. A graceful shutdown ends them in reverse, so the
    /// server finishes its requests while the store still answers.
    private func services(_ application: some Service) -> [any Service] {
        var services: [any Service] = []
        if let store = store as? any Service { services.append(store) }
        if let store = store as? any SharedDocumentStore {
            services.append(LiveFollower(store: store, hub: hub))
        }
        return services + [application]
    }

    /// The HTTP API, with `GET /api/streams/{id}/live` upgraded to a WebSocket; idle
    /// connections are pinged, and dropped when they stop answering.
    private func application(
        host: String,
        port: Int,
        logger: Logger,
        onReady: @escaping @Sendable (URL) async -> Void
    ) -> some Service {
        Application(
            router: router(),
            server: .http1WebSocketUpgrade(
                webSocketRouter: liveRouter(),
                configuration: .init(
                    ws: .init(
                        maxFrameSize: Self.maximumMessageSize,
                        autoPing: .enabled(timePeriod: .seconds(20))
                    )
                )
            ),
            configuration: .init(address: .hostname(host, port: port), serverName: "TributaryLab"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let name = host.contains(":") ? "[\(host)]" : host
                if let url = URL(string: "http://\(name):\(bound)") { await onReady(url) }
            },
            logger: logger
        )
    }
}

/// Where the lab keeps its database by default.
public enum LabPaths {
    /// `$XDG_DATA_HOME/tributary/lab.sqlite`, else `~/.local/share/tributary/lab.sqlite`; on
    /// Apple platforms, in Application Support.
    public static func defaultDatabase(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        #if canImport(Darwin)
            let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        #else
            let base =
                environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appending(
                    path: ".local/share"
                )
        #endif
        return base.appending(path: "tributary/lab.sqlite")
    }

    /// `$XDG_CACHE_HOME/tributary/images`, else `~/.cache/tributary/images`; on Apple platforms,
    /// in Caches.
    public static func defaultImageCache(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        #if canImport(Darwin)
            let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        #else
            let base =
                environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appending(path: ".cache")
        #endif
        return base.appending(path: "tributary/images")
    }
}

/// The encoded answers of `GET /api/streams/{id}`, by document and version: a version never
/// changes, so its answer is encoded once. Holds the latest read version of at most `capacity`
/// documents.
final class DocumentBodies: Sendable {
    private let capacity: Int
    private let entries = Protected<[String: (version: Int, body: ByteBuffer)]>([:])

    init(capacity: Int) { self.capacity = capacity }

    func body(of id: String, version: Int) -> ByteBuffer? {
        entries.withLock { entries in entries[id].flatMap { $0.version == version ? $0.body : nil } }
    }

    func keep(_ body: ByteBuffer, of id: String, version: Int) {
        entries.withLock { entries in
            if entries[id] == nil, entries.count >= capacity, let any = entries.keys.first {
                entries[any] = nil
            }
            if (entries[id]?.version ?? 0) <= version { entries[id] = (version, body) }
        }
    }
}
