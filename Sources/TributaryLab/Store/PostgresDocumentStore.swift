import Foundation
import Logging
import NIOSSL
public import PostgresNIO
public import ServiceLifecycle
import Tributary
public import TributaryStreams

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
/// try await lab.run(host: "0.0.0.0", port: 8080, shutdownSignals: [.sigterm]) { _ in }
/// ```
public final class PostgresDocumentStore: SharedDocumentStore, Service {
    /// The channel of the notifications.
    public static let channel = "tributary_lab"

    private let client: PostgresClient
    private let logger: Logger
    private let connectTimeout: Duration
    /// How long a call waits for the server before it fails.
    public let timeout: Duration
    private let ready = Readiness()
    private let followers = Protected<[Int: AsyncStream<DocumentChange>.Continuation]>([:])
    private let nextFollower = Protected(0)

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
        followers.withLock { followers in
            for follower in followers.values { follower.finish() }
            followers = [:]
        }
    }

    public func changes() -> AsyncStream<DocumentChange> {
        let (stream, continuation) = AsyncStream<DocumentChange>.makeStream()
        let number = nextFollower.withLock { number in
            number += 1
            return number
        }
        followers.withLock { $0[number] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.followers.withLock { $0[number] = nil }
        }
        return stream
    }

    /// Listens on a connection of its own, again after a lost connection, until cancelled.
    private func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        failures = 0
                        self.broadcast(.missed)
                        for try await notification in notifications {
                            if let change = Self.change(notification.payload) { self.broadcast(change) }
                        }
                    }
                }
            } catch {
                logger.warning("The lab lost its PostgreSQL notifications: \(String(reflecting: error))")
            }
            failures += 1
            let delay = min(0.05 * Double(1 << min(failures, 6)), 2)
            try? await Task.sleep(for: .seconds(delay))
        }
    }

    private func broadcast(_ change: DocumentChange) {
        let current = followers.withLock { Array($0.values) }
        for follower in current { follower.yield(change) }
    }

    private struct Notice: Codable {
        var id: String
        var version: Int?
    }

    static func payload(id: String, version: Int?) -> String {
        let data = (try? JSONEncoder().encode(Notice(id: id, version: version))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func change(_ payload: String) -> DocumentChange? {
        guard let notice = try? JSONDecoder().decode(Notice.self, from: Data(payload.utf8)),
            DocumentID.isWellFormed(notice.id)
        else { return nil }
        return notice.version.map { .saved(id: notice.id, version: $0) } ?? .deleted(id: notice.id)
    }

    // MARK: Schema

    private static let migrations: [(name: String, sql: [PostgresQuery])] = [
        (
            "documents and versions",
            [
                """
                CREATE TABLE lab_documents (
                    id text COLLATE "C" PRIMARY KEY,
                    version bigint NOT NULL,
                    updated_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX lab_documents_by_time ON lab_documents (updated_at DESC, id DESC)",
                """
                CREATE TABLE lab_versions (
                    document_id text COLLATE "C" NOT NULL REFERENCES lab_documents (id) ON DELETE CASCADE,
                    number bigint NOT NULL,
                    saved_at timestamptz NOT NULL,
                    author text NOT NULL,
                    body bytea NOT NULL,
                    PRIMARY KEY (document_id, number)
                )
                """,
            ]
        )
    ]

    /// Applies the migrations not yet applied, one instance at a time.
    private func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7469627574617279)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS lab_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL)",
                logger: logger
            )
            var applied: Set<String> = []
            for try await name in try await connection.query(
                "SELECT name FROM lab_migrations",
                logger: logger
            )
            .decode(String.self) {
                applied.insert(name)
            }
            for migration in Self.migrations where !applied.contains(migration.name) {
                for statement in migration.sql { try await connection.query(statement, logger: logger) }
                try await connection.query(
                    "INSERT INTO lab_migrations (name, applied_at) VALUES (\(migration.name), now())",
                    logger: logger
                )
            }
        }
    }

    // MARK: DocumentStore

    public func create(
        _ document: StreamDocument,
        author: String
    ) async throws(DocumentStoreError) -> StoredDocument {
        let body = try StoredDocument.body(of: document)
        let stored = StoredDocument.first(document, author: author)
        try await transaction { connection, logger in
            try await connection.query(
                "INSERT INTO lab_documents (id, version, updated_at) VALUES (\(stored.id), 1, \(stored.updatedAt))",
                logger: logger
            )
            try await Self.insertVersion(stored, body: body, connection, logger)
        }
        return stored
    }

    public func document(_ id: String) async throws(DocumentStoreError) -> StoredDocument {
        let found = try await first(
            """
            SELECT v.document_id, v.number, v.saved_at, v.author, v.body FROM lab_documents d
            JOIN lab_versions v ON v.document_id = d.id AND v.number = d.version WHERE d.id = \(id)
            """
        )
        guard let found else { throw .notFound(id: id) }
        return found
    }

    public func save(
        _ id: String,
        document: StreamDocument,
        baseVersion: Int,
        author: String
    ) async throws(DocumentStoreError) -> StoredDocument {
        let body = try StoredDocument.body(of: document)
        let outcome: Result<StoredDocument, DocumentStoreError> = try await transaction {
            connection,
            logger in
            let rows = try await connection.query(
                "SELECT version FROM lab_documents WHERE id = \(id) FOR UPDATE",
                logger: logger
            )
            var latest: Int?
            for try await version in rows.decode(Int.self) { latest = version }
            guard let latest else { return .failure(.notFound(id: id)) }
            guard latest == baseVersion else {
                let current = try await Self.documents(
                    """
                    SELECT document_id, number, saved_at, author, body FROM lab_versions
                    WHERE document_id = \(id) AND number = \(latest)
                    """,
                    connection,
                    logger
                ).first
                return .failure(current.map(DocumentStoreError.conflict) ?? .notFound(id: id))
            }
            let stored = StoredDocument.next(id, after: latest, document, author: author)
            try await connection.query(
                """
                UPDATE lab_documents SET version = \(stored.version), updated_at = \(stored.updatedAt)
                WHERE id = \(id)
                """,
                logger: logger
            )
            try await Self.insertVersion(stored, body: body, connection, logger)
            try await Self.notify(id: id, version: stored.version, connection, logger)
            return .success(stored)
        }
        return try outcome.get()
    }

    public func delete(_ id: String) async throws(DocumentStoreError) {
        let deleted = try await transaction { connection, logger in
            var deleted = false
            let rows = try await connection.query(
                "DELETE FROM lab_documents WHERE id = \(id) RETURNING id",
                logger: logger
            )
            for try await _ in rows.decode(String.self) { deleted = true }
            if deleted { try await Self.notify(id: id, version: nil, connection, logger) }
            return deleted
        }
        if !deleted { throw .notFound(id: id) }
    }

    public func list(limit: Int, after cursor: String?) async throws(DocumentStoreError) -> DocumentPage {
        let limit = max(1, min(limit, 100))
        let query: PostgresQuery
        if let cursor {
            guard let (time, id) = DocumentCursor.decode(cursor) else { throw .invalidCursor }
            query = """
                SELECT v.document_id, v.number, v.saved_at, v.author, v.body FROM lab_documents d
                JOIN lab_versions v ON v.document_id = d.id AND v.number = d.version
                WHERE (d.updated_at < \(time) OR (d.updated_at = \(time) AND d.id < \(id)))
                ORDER BY d.updated_at DESC, d.id DESC LIMIT \(limit + 1)
                """
        } else {
            query = """
                SELECT v.document_id, v.number, v.saved_at, v.author, v.body FROM lab_documents d
                JOIN lab_versions v ON v.document_id = d.id AND v.number = d.version
                ORDER BY d.updated_at DESC, d.id DESC LIMIT \(limit + 1)
                """
        }
        let documents = try await all(query)
        return DocumentPage(fetched: documents, limit: limit)
    }

    public func versions(_ id: String) async throws(DocumentStoreError) -> [DocumentVersion] {
        let versions = try await transaction { connection, logger in
            var versions: [DocumentVersion] = []
            let rows = try await connection.query(
                "SELECT number, saved_at, author FROM lab_versions WHERE document_id = \(id) ORDER BY number",
                logger: logger
            )
            for try await (number, time, author) in rows.decode((Int, Date, String).self) {
                versions.append(DocumentVersion(number: number, time: time, author: author))
            }
            return versions
        }
        guard !versions.isEmpty else { throw .notFound(id: id) }
        return versions
    }

    public func version(_ id: String, number: Int) async throws(DocumentStoreError) -> StoredDocument {
        let found = try await first(
            """
            SELECT document_id, number, saved_at, author, body FROM lab_versions
            WHERE document_id = \(id) AND number = \(number)
            """
        )
        guard let found else { throw .notFound(id: id) }
        return found
    }

    public func latestVersion(_ id: String) async throws(DocumentStoreError) -> Int {
        let found = try await transaction { connection, logger in
            var found: Int?
            let rows = try await connection.query(
                "SELECT version FROM lab_documents WHERE id = \(id)",
                logger: logger
            )
            for try await version in rows.decode(Int.self) { found = version }
            return found
        }
        guard let found else { throw .notFound(id: id) }
        return found
    }

    // MARK: Helpers

    private func transaction<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Value
    ) async throws(DocumentStoreError) -> Value {
        try await ready.wait()
        do {
            return try await within(timeout, "PostgreSQL did not answer") {
                try await self.client.withTransaction(logger: self.logger) { connection in
                    try await body(connection, self.logger)
                }
            }
        } catch let error as DocumentStoreError {
            throw error
        } catch {
            throw Self.storageError(error)
        }
    }

    private func all(_ query: PostgresQuery) async throws(DocumentStoreError) -> [StoredDocument] {
        try await transaction { connection, logger in try await Self.documents(query, connection, logger) }
    }

    private func first(_ query: PostgresQuery) async throws(DocumentStoreError) -> StoredDocument? {
        try await all(query).first
    }

    private static func documents(
        _ query: PostgresQuery,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> [StoredDocument] {
        var documents: [StoredDocument] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, number, time, author, body) in rows.decode((String, Int, Date, String, Data).self)
        {
            documents.append(
                try StoredDocument(id: id, version: number, updatedAt: time, author: author, body: body)
            )
        }
        return documents
    }

    private static func insertVersion(
        _ stored: StoredDocument,
        body: Data,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO lab_versions (document_id, number, saved_at, author, body)
            VALUES (\(stored.id), \(stored.version), \(stored.updatedAt), \(stored.author), \(body))
            """,
            logger: logger
        )
    }

    /// Tells every instance, when the transaction commits, what changed.
    private static func notify(
        id: String,
        version: Int?,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        try await connection.query(
            "SELECT pg_notify(\(channel), \(payload(id: id, version: version)))",
            logger: logger
        )
    }

    /// What `operation` returns, or a storage error saying `failure` after `duration`.
    private func within<Value: Sendable>(
        _ duration: Duration,
        _ failure: String,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: duration)
                throw DocumentStoreError.storage("\(failure) within \(duration.components.seconds) seconds")
            }
            defer { group.cancelAll() }
            guard let value = try await group.next() else { throw CancellationError() }
            return value
        }
    }

    private static func storageError(_ error: any Error) -> DocumentStoreError {
        if let error = error as? DocumentStoreError { return error }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return .storage(message) }
            return .storage("PostgreSQL: \(error.code)")
        }
        if let error = error as? PostgresTransactionError {
            return storageError(error.closureError ?? error.beginError ?? error.commitError ?? error)
        }
        return .storage(String(describing: error))
    }
}

/// Opens once; whoever waits before then waits, and whoever comes later passes at once.
private final class Readiness: Sendable {
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
