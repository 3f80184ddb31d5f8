import Foundation
import Logging
import NIOSSL
public import PostgresNIO
public import ServiceLifecycle
import Tributary
import TributaryLabWire
import TributaryStreams

/// A ``DocumentStore`` in PostgreSQL, for several lab instances behind one address.
///
/// Each save is one transaction that also sends `NOTIFY tributary_lab` with `{"id", "version"}`
/// (a `null` version for a deletion). Every instance listens on a connection of its own and reads
/// what changed from the store, so a save through one instance reaches the live viewers of all.
///
/// The store is a `Service`: ``run()`` keeps its connections, brings the schema up to date and
/// listens. ``LabServer`` runs it alongside the lab; used on its own, run it in a task and cancel
/// that task to close it. Calls made before the schema is ready wait for it.
///
/// ```swift
/// let store = try PostgresDocumentStore(url: "postgres://lab@db.internal/lab")
/// let lab = LabServer(store: store, token: token)
/// try await lab.run(shutdownSignals: [.sigterm]) { _ in }
/// ```
public final class PostgresDocumentStore: SharedDocumentStore, DocumentTables, Service {
    /// The channel of the notifications.
    public static let channel = "tributary_lab"

    let client: PostgresClient
    let logger: Logger
    let connectTimeout: Duration
    /// How long a call waits for the server before it fails.
    public let timeout: Duration
    let ready = Readiness()
    /// Who follows the changes to documents.
    let followers = Followers<StoreChange>()
    /// Who follows the changes to recordings.
    let recordingFollowers = Followers<StoreChange>()

    /// The recordings, in tables of their own in the same database.
    public var recordings: (any RecordingStore)? { PostgresRecordingStore(database: self) }

    /// A store on the server that `configuration` names, whose calls fail after `timeout` without
    /// an answer, and whose start fails when it cannot connect within the configuration's
    /// `connectTimeout`.
    public init(
        configuration: PostgresClient.Configuration,
        timeout: Duration = .seconds(30),
        logger: Logger = Logger(label: "TributaryLab")
    ) {
        var configuration = configuration
        configuration.options.maximumConnections = max(configuration.options.maximumConnections, 4)
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.connectTimeout = configuration.options.connectTimeout
        self.timeout = timeout
        self.logger = logger
    }

    /// A store on the server of a `postgres://USER:PASSWORD@HOST:PORT/DATABASE` URL. Its query
    /// items: `sslmode`, which is `disable`, `prefer` (the default) or `require`, and
    /// `connect_timeout`, in seconds (10 by default).
    public convenience init(
        url: String,
        timeout: Duration = .seconds(30),
        logger: Logger = Logger(label: "TributaryLab")
    ) throws(DocumentStoreError) {
        self.init(configuration: try Self.configuration(url: url), timeout: timeout, logger: logger)
    }

    /// The client configuration a `postgres://` or `postgresql://` URL stands for.
    public static func configuration(
        url text: String
    ) throws(DocumentStoreError) -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql", let host = url.host, !host.isEmpty
        else {
            throw .storage("\(text) is not a postgres://USER@HOST:PORT/DATABASE URL")
        }
        let tls: PostgresClient.Configuration.TLS
        switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case let mode: throw .storage("sslmode \(mode) is not one of disable, prefer and require")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        var configuration = PostgresClient.Configuration(
            host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host,
            port: url.port ?? 5432,
            username: url.user.flatMap { $0.removingPercentEncoding } ?? "postgres",
            password: url.password.flatMap { $0.removingPercentEncoding },
            database: database.isEmpty ? nil : database.removingPercentEncoding,
            tls: tls
        )
        if let text = url.queryItems?.first(where: { $0.name == "connect_timeout" })?.value {
            guard let seconds = Int(text), seconds > 0 else {
                throw .storage("connect_timeout \(text) is not a whole number of seconds")
            }
            configuration.options.connectTimeout = .seconds(seconds)
        }
        return configuration
    }

    // MARK: Service

    /// Keeps the store's connections, brings the schema up to date, then listens for the changes
    /// of every instance until the task is cancelled or a graceful shutdown.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.client.run() }
            do {
                try await within(connectTimeout, "PostgreSQL could not be reached") {
                    try await self.migrate()
                }
                ready.open(.success(()))
            } catch {
                let failure = Self.storageError(error)
                ready.open(.failure(failure))
                group.cancelAll()
                throw failure
            }
            group.addTask { await self.listen() }
            group.addTask { try? await gracefulShutdown() }
            _ = try await group.next()
            group.cancelAll()
        }
        ready.open(.failure(.storage("the store has stopped")))
        followers.finish()
        recordingFollowers.finish()
    }

}

/// The streams of changes that an instance's followers read, each under a number of its own.
final class Followers<Change: Sendable>: Sendable {
    private let streams = Protected<(next: Int, streams: [Int: AsyncStream<Change>.Continuation])>((0, [:]))

    /// A new stream of every change broadcast from now on.
    func stream() -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream()
        let number = streams.withLock { streams in
            streams.next += 1
            streams.streams[streams.next] = continuation
            return streams.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.streams.withLock { $0.streams[number] = nil }
        }
        return stream
    }

    func broadcast(_ change: Change) {
        let current = streams.withLock { Array($0.streams.values) }
        for follower in current { follower.yield(change) }
    }

    /// Ends every stream.
    func finish() {
        let current = streams.withLock { streams in
            defer { streams.streams = [:] }
            return Array(streams.streams.values)
        }
        for follower in current { follower.finish() }
    }
}

/// Opens once; whoever waits before then waits, and whoever comes later passes at once.
final class Readiness: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Void, any Error>])
        case open(Result<Void, DocumentStoreError>)
    }

    private let state = Protected(State.waiting([]))

    func open(_ result: Result<Void, DocumentStoreError>) {
        let waiting: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            guard case .waiting(let waiting) = state else { return [] }
            state = .open(result)
            return waiting
        }
        for continuation in waiting { continuation.resume(with: result.mapError { $0 }) }
    }

    func wait() async throws(DocumentStoreError) {
        if case .open(let result) = state.withLock({ $0 }) { return try result.get() }
        do {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let result: Result<Void, DocumentStoreError>? = state.withLock { state in
                    switch state {
                    case .waiting(let waiting):
                        state = .waiting(waiting + [continuation])
                        return nil
                    case .open(let result):
                        return result
                    }
                }
                if let result { continuation.resume(with: result.mapError { $0 }) }
            }
        } catch {
            throw (error as? DocumentStoreError) ?? .storage("\(error)")
        }
    }
}
