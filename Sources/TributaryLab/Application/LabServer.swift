public import Foundation
import HTTPTypes
public import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Tributary
import TributaryLabWire
import TributaryStreams
public import UnixSignals

/// The lab's service: stream documents stored, versioned and shared, the runs that draw them,
/// and the news reader's pages, as one Hummingbird application.
///
/// ```swift
/// let lab = LabServer(store: try SQLiteDocumentStore(path: path), token: token)
/// try await lab.run(shutdownSignals: [.sigint, .sigterm]) { url in
///     print("Tributary lab at \(url)/?token=\(token)")
/// }
/// ```
///
/// A request flows through middleware — the lab's names (`421` for any other `Host`), security
/// headers, errors as JSON — to one controller per concern: documents, runs, live connections,
/// recordings, news and pages. Writes, runs of arbitrary documents and the news need the token
/// (`Authorization: Bearer TOKEN`) or the session the printed link opens; a document is read
/// with its id, which is its share link. ``LabConfiguration`` holds the limits that keep anyone
/// who reaches the port from crashing, stalling or exhausting it.
public struct LabServer: Sendable {
    /// Where documents are kept.
    public let store: any DocumentStore
    /// Where recordings are kept: the document store's own, unless given; without one the lab
    /// takes no recordings.
    public let recordings: (any RecordingStore)?
    /// The secret that writes need.
    public let token: String
    /// The news reader's client and thumbnails; without it the lab serves no news.
    public var news: LabNews?
    /// Where the lab listens, its names and its limits.
    public var configuration: LabConfiguration
    /// The live viewers of each document.
    let hub = LiveHub()
    /// The live viewers of each recording.
    let recordingHub = RecordingHub()
    /// The sessions the printed link opens.
    let sessions: LabSessions
    /// What closes the live sockets when the lab stops.
    let closing = SocketsClosing()

    /// A lab that keeps documents in `store` and recordings in `recordings` (by default, the
    /// store's own), lets in who has `token`, and serves the news pages with `news` when given.
    public init(
        store: any DocumentStore,
        recordings: (any RecordingStore)? = nil,
        token: String,
        news: LabNews? = nil,
        configuration: LabConfiguration = LabConfiguration()
    ) {
        self.store = store
        self.recordings = recordings ?? store.recordings
        self.token = token
        sessions = LabSessions(token: token)
        self.news = news
        self.configuration = configuration
    }

    /// A token of 128 random bits, for a lab started without one.
    public static func makeToken() -> String { DocumentID.random().description }

    /// The lab as a Hummingbird application: its routers, its store and, when several
    /// instances share the store, the follower that brings this one the others' saves.
    /// `onReady` gets the address the server is bound to.
    public func buildApplication(
        logger: Logger = Logger(label: "TributaryLab"),
        onReady: @escaping @Sendable (URL) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let configuration = configuration
        let bodies = DocumentBodies(capacity: configuration.documentCacheBytes)
        // Work a request can make expensive — runs, drawings, documents and tests made of
        // recordings, versions encoded for their readers — is done here, never on the threads
        // that answer requests.
        let pool = RunPool(workers: configuration.runs.workers, queueLength: configuration.runs.queueLength)
        let service = DocumentService(store: store, hub: hub, bodies: bodies, pool: pool)
        // Below the descriptors the process may open, so that past the limit a connection is
        // answered 503 rather than never accepted.
        let maximumConnections = DescriptorLimit.connections(
            configured: configuration.maximumConnections,
            descriptors: DescriptorLimit.raise()
        )
        if maximumConnections < configuration.maximumConnections {
            logger.notice(
                "At most \(maximumConnections) connections: the process may open few descriptors (ulimit -n)."
            )
        }
        let connections = LiveConnections(
            maximum: min(configuration.maximumLiveConnections, maximumConnections),
            maximumPerAddress: configuration.maximumLiveConnectionsPerAddress,
            closing: closing
        )
        let count = ConnectionGuard.Count(
            maximum: maximumConnections,
            maximumPerBlock: configuration.maximumConnectionsPerAddress,
            framesPerBlock: configuration.maximumFramesPerSecondPerAddress
        )
        let memory = ClientMemory(limit: configuration.clientMemoryBytes)
        let idle = TimeAmount(configuration.idleTimeout)
        let recordingService = recordings.map {
            RecordingService(
                store: $0,
                hub: recordingHub,
                cap: configuration.maximumRecordingEvents,
                replaysAtOnce: configuration.runs.replays
            )
        }
        let webSocketResponder = liveRouter(
            service: service,
            recordings: recordingService,
            connections: connections
        )
        .buildResponder()
        let host = configuration.host
        // Started before the server and stopped after it, so that the server finishes its
        // requests while the store still answers.
        var services: [any Service] = []
        if let lifecycle = store.lifecycle { services.append(lifecycle) }
        if let changes = store.sharedChanges {
            services.append(ChangeFollower(changes: changes, apply: service.follow))
        }
        if let recordingService, let changes = recordingService.store.sharedChanges {
            services.append(ChangeFollower(changes: changes, apply: recordingService.follow))
        }
        return Application(
            router: router(service: service, recordings: recordingService, connections: connections),
            server: HTTPServerBuilder { responder in
                GuardedChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder,
                        webSocketResponder: webSocketResponder,
                        configuration: .init(
                            http1: .init(idleTimeout: idle),
                            ws: .init(
                                maxFrameSize: Self.maximumFrameSize,
                                autoPing: .enabled(timePeriod: .seconds(20)),
                                validateUTF8: true
                            )
                        )
                    ),
                    count: count,
                    memory: memory,
                    headTimeout: idle,
                    writeTimeout: TimeAmount(configuration.writeTimeout),
                    hasCredential: { [token, sessions] headers in
                        LabAuthenticator.hasCredential(
                            authorization: headers.first(name: "authorization"),
                            cookies: headers["cookie"],
                            token: token,
                            sessions: sessions
                        )
                    }
                )
            },
            configuration: .init(
                address: .hostname(host, port: configuration.port),
                serverName: "TributaryLab",
                // A little above the guard's limit, so that connections turned away with 503
                // have room, and below the descriptors: past it Hummingbird accepts no more
                // until some close, and the store and the pictures still open theirs.
                availableConnectionsDelegate: MaximumAvailableConnections(
                    maximumConnections + DescriptorLimit.turnedAway
                )
            ),
            services: services,
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? configuration.port
                let name = host.contains(":") ? "[\(host)]" : host
                if let url = URL(string: "http://\(name):\(bound)") { await onReady(url) }
            },
            logger: logger
        )
    }

    /// The HTTP routes: every controller's, behind the lab's names, its headers and its errors.
    func router(
        service: DocumentService,
        recordings: RecordingService?,
        connections: LiveConnections
    ) -> Router<LabRequestContext> {
        // HEAD is answered wherever GET is, with GET's headers and no body.
        let router = Router(context: LabRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: LabHostMiddleware(configuration: configuration))
        router.add(middleware: LabErrorMiddleware())
        if let documentation = configuration.documentation {
            router.add(middleware: DocumentationMiddleware(archive: documentation))
        } else {
            router.get("docs") { _, _ in PagesController.documentationNotBuilt }
            router.get("docs/**") { _, _ in PagesController.documentationNotBuilt }
        }
        router.get("api/health") { _, _ in ["status": "ok"] }
        // Whether this browser has the session, so that a page can say why what needs it fails.
        // And whether the package's documentation is served at /docs, for the pages' top bar.
        let documented = configuration.documentation != nil
        router.group().add(middleware: authenticator(required: false)).get("api/session") { _, context in
            ["signedIn": context.access != .anonymous, "documentation": documented]
        }
        let signedIn = authenticator(required: true)
        let pool = service.pool
        router.addRoutes(
            DocumentsController(
                service: service,
                authenticator: signedIn,
                maximumBodySize: configuration.maximumBodySize
            )
            .routes,
            atPath: "api/streams"
        )
        if let recordings {
            router.addRoutes(
                RecordingsController(
                    service: recordings,
                    documents: service,
                    pool: pool,
                    authenticator: signedIn,
                    maximumBodySize: configuration.maximumBodySize,
                    maximumImportBytes: configuration.maximumImportBytes
                )
                .routes,
                atPath: "api/recordings"
            )
        }
        RunsController(
            documents: service,
            recordings: recordings,
            pool: pool,
            budget: configuration.runs,
            authenticator: signedIn,
            maximumBodySize: configuration.maximumBodySize,
            shared: SharedRuns()
        )
        .addRoutes(to: router)
        router.addRoutes(EmbedController(documents: service).routes, atPath: "embed")
        if let news {
            router.group().add(middleware: signedIn).get(
                "img",
                use: ThumbnailController(news: news).thumbnail
            )
        }
        router.addRoutes(
            PagesController(token: token, sessions: sessions, publicURL: configuration.publicURL).routes
        )
        return router
    }

    /// The routes upgraded to WebSockets: a document's live connection, which anyone with its
    /// link may watch, and the news reader's, which needs the token or the session.
    func liveRouter(
        service: DocumentService,
        recordings: RecordingService?,
        connections: LiveConnections
    ) -> Router<LabRequestContext> {
        let router = Router(context: LabRequestContext.self)
        router.add(middleware: WebSocketRefusalMiddleware())
        router.add(middleware: LabHostMiddleware(configuration: configuration))
        router.add(middleware: authenticator(required: false))
        PulseController(connections: connections, startedAt: Date()).addRoutes(to: router)
        LiveController(
            service: service,
            connections: connections,
            viewerBufferBytes: configuration.viewerBufferBytes
        )
        .addRoutes(to: router)
        if let recordings {
            RecordingIngestController(service: recordings, connections: connections).addRoutes(to: router)
            RecordingLiveController(
                service: recordings,
                connections: connections,
                viewerBufferBytes: configuration.viewerBufferBytes
            )
            .addRoutes(to: router)
        }
        if let news {
            let group = router.group().add(middleware: authenticator(required: true))
            NewsController(news: news, connections: connections).addLiveRoutes(to: group)
        }
        return router
    }

    /// The largest WebSocket frame taken: a recorder's batch may come as one. Each connection
    /// bounds its messages further, a document's live connection to a document's size.
    static let maximumFrameSize = max(
        LiveController.maximumMessageSize,
        RecordingIngestController.maximumMessageSize + (64 << 10)
    )

    func authenticator(required: Bool) -> LabAuthenticator {
        LabAuthenticator(token: token, sessions: sessions, configuration: configuration, required: required)
    }

    /// Serves the lab until the task is cancelled or one of `shutdownSignals` arrives, finishing
    /// the requests in flight.
    public func run(
        shutdownSignals: [UnixSignal] = [],
        logger: Logger = Logger(label: "TributaryLab"),
        onReady: @escaping @Sendable (URL) async -> Void
    ) async throws {
        try await serviceGroup(shutdownSignals: shutdownSignals, logger: logger, onReady: onReady).run()
    }

    /// The application and, after it so that the group stops it first, the closer of its sockets.
    private func serviceGroup(
        shutdownSignals: [UnixSignal],
        logger: Logger,
        onReady: @escaping @Sendable (URL) async -> Void
    ) -> ServiceGroup {
        ServiceGroup(
            configuration: .init(
                services: [
                    buildApplication(logger: logger, onReady: onReady), SocketsCloser(closing: closing),
                ],
                gracefulShutdownSignals: shutdownSignals,
                logger: logger
            )
        )
    }

    /// Serves the lab on a loopback port — by default a free one — for the duration of `body`,
    /// which gets its URL, then shuts it down gracefully.
    public func withRunning<Result: Sendable>(
        port: Int = 0,
        _ body: @Sendable (URL) async throws -> Result
    ) async throws -> Result {
        var lab = self
        lab.configuration.host = "127.0.0.1"
        lab.configuration.port = port
        var logger = Logger(label: "TributaryLab")
        logger.logLevel = .critical
        let (ready, readyContinuation) = AsyncStream<URL>.makeStream()
        let services = lab.serviceGroup(shutdownSignals: [], logger: logger) { url in
            readyContinuation.yield(url)
            readyContinuation.finish()
        }
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
}

/// Where the lab keeps its database by default.
public enum LabPaths {
    /// `$XDG_DATA_HOME/tributary/lab.sqlite`, else `~/.local/share/tributary/lab.sqlite`; on
    /// Apple platforms, in Application Support.
    public static func defaultDatabase(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        base(.applicationSupportDirectory, else: "XDG_DATA_HOME", or: ".local/share", environment)
            .appending(path: "tributary/lab.sqlite")
    }

    /// `$XDG_CACHE_HOME/tributary/images`, else `~/.cache/tributary/images`; on Apple platforms,
    /// in Caches.
    public static func defaultImageCache(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        base(.cachesDirectory, else: "XDG_CACHE_HOME", or: ".cache", environment).appending(
            path: "tributary/images"
        )
    }

    /// The user's folder of kind `directory` on Apple platforms; elsewhere the folder the XDG
    /// base directory `variable` names, else `fallback` under `HOME`.
    private static func base(
        _ directory: FileManager.SearchPathDirectory,
        else variable: String,
        or fallback: String,
        _ environment: [String: String]
    ) -> URL {
        #if canImport(Darwin)
            FileManager.default.urls(for: directory, in: .userDomainMask)[0]
        #else
            environment[variable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appending(path: fallback)
        #endif
    }
}
