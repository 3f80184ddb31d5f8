import Foundation
import Logging
import PostgresNIO
import Tributary
import TributaryLabWire
import TributaryStreams

/// Documents and their versions, each save one transaction.
extension PostgresDocumentStore {

    func insert(_ stored: SharedDocument, body: Data) async throws(DocumentStoreError) {
        try await transaction { connection, logger in
            try await connection.query(
                "INSERT INTO lab_documents (id, version, updated_at) VALUES (\(stored.id.description), 1, \(stored.updatedAt))",
                logger: logger
            )
            try await Self.insertVersion(stored, body: body, connection, logger)
        }
    }

    func head(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument? {
        try await first(
            """
            SELECT v.document_id, v.number, v.saved_at, v.author, v.body FROM lab_documents d
            JOIN lab_versions v ON v.document_id = d.id AND v.number = d.version WHERE d.id = \(id.description)
            """
        )
    }

    func stored(_ id: DocumentID, number: Int) async throws(DocumentStoreError) -> SharedDocument? {
        try await first(
            """
            SELECT document_id, number, saved_at, author, body FROM lab_versions
            WHERE document_id = \(id.description) AND number = \(number)
            """
        )
    }

    /// The document's row is locked until the transaction ends, so two saves of one version
    /// cannot both pass; the other instances hear of the new version when it commits.
    func advance(to next: SharedDocument, body: Data) async throws(DocumentStoreError) -> Int? {
        try await transaction { connection, logger in
            let latest = try await connection.values(
                "SELECT version FROM lab_documents WHERE id = \(next.id.description) FOR UPDATE",
                logger
            ) { try $0.decode(Int.self) }.first
            if latest == next.version - 1 {
                try await connection.query(
                    """
                    UPDATE lab_documents SET version = \(next.version), updated_at = \(next.updatedAt)
                    WHERE id = \(next.id.description)
                    """,
                    logger: logger
                )
                try await Self.insertVersion(next, body: body, connection, logger)
                try await Self.notify(id: next.id, version: next.version, connection, logger)
            }
            return latest
        }
    }

    func remove(_ id: DocumentID) async throws(DocumentStoreError) -> Bool {
        try await transaction { connection, logger in
            let deleted = try await connection.values(
                "DELETE FROM lab_documents WHERE id = \(id.description) RETURNING version",
                logger
            ) { try $0.decode(Int.self) }.first
            if deleted != nil { try await Self.notify(id: id, version: nil, connection, logger) }
            return deleted != nil
        }
    }

    /// The columns of a summary of each document's latest version, and the tables they are read from.
    private static let latestSummary = """
        v.document_id, v.number, v.saved_at, v.title, CASE WHEN v.title IS NULL THEN v.body END
        FROM lab_documents d JOIN lab_versions v ON v.document_id = d.id AND v.number = d.version
        """

    func page(
        after cursor: (time: Date, id: DocumentID)?,
        count: Int
    ) async throws(DocumentStoreError) -> [DocumentSummary] {
        guard let cursor else {
            return try await summaries(
                """
                SELECT \(unescaped: Self.latestSummary)
                ORDER BY d.updated_at DESC, d.id DESC LIMIT \(count)
                """
            )
        }
        return try await summaries(
            """
            SELECT \(unescaped: Self.latestSummary)
            WHERE (d.updated_at < \(cursor.time) OR (d.updated_at = \(cursor.time) AND d.id < \(cursor.id.description)))
            ORDER BY d.updated_at DESC, d.id DESC LIMIT \(count)
            """
        )
    }

    func summarize(_ id: DocumentID, number: Int?) async throws(DocumentStoreError) -> DocumentSummary? {
        guard let number else {
            return try await summaries(
                """
                SELECT \(unescaped: Self.latestSummary)
                WHERE d.id = \(id.description)
                """
            ).first
        }
        return try await summaries(
            """
            SELECT document_id, number, saved_at, title, CASE WHEN title IS NULL THEN body END FROM lab_versions
            WHERE document_id = \(id.description) AND number = \(number)
            """
        ).first
    }

    func history(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion] {
        try await transaction { connection, logger in
            var versions: [DocumentVersion] = []
            let rows = try await connection.query(
                "SELECT number, saved_at, author FROM lab_versions WHERE document_id = \(id.description) ORDER BY number",
                logger: logger
            )
            for try await (number, time, author) in rows.decode((Int, Date, String).self) {
                versions.append(DocumentVersion(number: number, time: time, author: author))
            }
            return versions
        }
    }

    func headNumber(_ id: DocumentID) async throws(DocumentStoreError) -> Int? {
        try await transaction { connection, logger in
            try await connection.values(
                "SELECT version FROM lab_documents WHERE id = \(id.description)",
                logger
            ) { try $0.decode(Int.self) }.first
        }
    }

    // MARK: Helpers

    func transaction<Value: Sendable>(
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

    func all(_ query: PostgresQuery) async throws(DocumentStoreError) -> [SharedDocument] {
        try await transaction { connection, logger in
            try await connection.values(query, logger, SharedDocument.init(row:))
        }
    }

    func first(_ query: PostgresQuery) async throws(DocumentStoreError) -> SharedDocument? {
        try await all(query).first
    }

    func summaries(_ query: PostgresQuery) async throws(DocumentStoreError) -> [DocumentSummary] {
        try await transaction { connection, logger in
            try await connection.values(query, logger, DocumentSummary.init(row:))
        }
    }

    static func insertVersion(
        _ stored: SharedDocument,
        body: Data,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO lab_versions (document_id, number, saved_at, author, body, title)
            VALUES (
                \(stored.id.description), \(stored.version), \(stored.updatedAt), \(stored.author), \(body),
                \(stored.title)
            )
            """,
            logger: logger
        )
    }

    /// Tells every instance, when the transaction commits, what changed.
    static func notify(
        id: DocumentID,
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
    func within<Value: Sendable>(
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

    static func storageError(_ error: any Error) -> DocumentStoreError {
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

extension PostgresConnection {
    /// What `make` makes of each row that `query` reads, in order.
    func values<Value>(
        _ query: PostgresQuery,
        _ logger: Logger,
        _ make: (PostgresRow) throws -> Value
    ) async throws -> [Value] {
        var values: [Value] = []
        for try await row in try await self.query(query, logger: logger) { values.append(try make(row)) }
        return values
    }
}

extension SharedDocument {
    /// A version as the PostgreSQL store reads it: id, number, time, author and body.
    init(row: PostgresRow) throws {
        let (id, number, time, author, body) = try row.decode((String, Int, Date, String, Data).self)
        try self.init(id: id, version: number, updatedAt: time, author: author, body: body)
    }
}

extension DocumentSummary {
    /// A version's summary as the PostgreSQL store reads it: id, number, time, title, and the
    /// body only when no title was kept.
    init(row: PostgresRow) throws {
        let (id, number, time, title, body) = try row.decode((String, Int, Date, String?, Data?).self)
        try self.init(id: id, version: number, updatedAt: time, title: title, body: body)
    }
}

extension RecordingSummary {
    /// A recording as the PostgreSQL store reads it: id, name, events, dropped and time.
    init(row: PostgresRow) throws {
        let (id, name, events, dropped, time) = try row.decode((String, String, Int, Int, Date).self)
        self.init(id: id, name: name, events: events, dropped: dropped, updatedAt: time)
    }
}
