import Foundation
import Logging
import PostgresNIO
import Tributary
public import TributaryLabWire
public import TributaryStreams

/// Documents and their versions, each save one transaction.
extension PostgresDocumentStore {

    public func create(
        _ document: StreamDocument,
        author: String
    ) async throws(DocumentStoreError) -> SharedDocument {
        let body = try SharedDocument.body(of: document)
        let stored = SharedDocument.first(document, author: author)
        try await transaction { connection, logger in
            try await connection.query(
                "INSERT INTO lab_documents (id, version, updated_at) VALUES (\(stored.id.description), 1, \(stored.updatedAt))",
                logger: logger
            )
            try await Self.insertVersion(stored, body: body, connection, logger)
        }
        return stored
    }

    public func document(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument {
        let found = try await first(
            """
            SELECT v.document_id, v.number, v.saved_at, v.author, v.body FROM lab_documents d
            JOIN lab_versions v ON v.document_id = d.id AND v.number = d.version WHERE d.id = \(id.description)
            """
        )
        guard let found else { throw .notFound(id: id) }
        return found
    }

    public func save(
        _ id: DocumentID,
        document: StreamDocument,
        baseVersion: Int,
        author: String
    ) async throws(DocumentStoreError) -> SharedDocument {
        let body = try SharedDocument.body(of: document)
        let outcome: Result<SharedDocument, DocumentStoreError> = try await transaction {
            connection,
            logger in
            let rows = try await connection.query(
                "SELECT version FROM lab_documents WHERE id = \(id.description) FOR UPDATE",
                logger: logger
            )
            var latest: Int?
            for try await version in rows.decode(Int.self) { latest = version }
            guard let latest else { return .failure(.notFound(id: id)) }
            guard latest == baseVersion else {
                let current = try await Self.documents(
                    """
                    SELECT document_id, number, saved_at, author, body FROM lab_versions
                    WHERE document_id = \(id.description) AND number = \(latest)
                    """,
                    connection,
                    logger
                ).first
                return .failure(current.map(DocumentStoreError.conflict) ?? .notFound(id: id))
            }
            let stored = SharedDocument.next(id, after: latest, document, author: author)
            try await connection.query(
                """
                UPDATE lab_documents SET version = \(stored.version), updated_at = \(stored.updatedAt)
                WHERE id = \(id.description)
                """,
                logger: logger
            )
            try await Self.insertVersion(stored, body: body, connection, logger)
            try await Self.notify(id: id, version: stored.version, connection, logger)
            return .success(stored)
        }
        return try outcome.get()
    }

    public func delete(_ id: DocumentID) async throws(DocumentStoreError) {
        let deleted = try await transaction { connection, logger in
            var deleted = false
            let rows = try await connection.query(
                "DELETE FROM lab_documents WHERE id = \(id.description) RETURNING id",
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
                WHERE (d.updated_at < \(time) OR (d.updated_at = \(time) AND d.id < \(id.description)))
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

    public func versions(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion] {
        let versions = try await transaction { connection, logger in
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
        guard !versions.isEmpty else { throw .notFound(id: id) }
        return versions
    }

    public func version(_ id: DocumentID, number: Int) async throws(DocumentStoreError) -> SharedDocument {
        let found = try await first(
            """
            SELECT document_id, number, saved_at, author, body FROM lab_versions
            WHERE document_id = \(id.description) AND number = \(number)
            """
        )
        guard let found else { throw .notFound(id: id) }
        return found
    }

    public func latestVersion(_ id: DocumentID) async throws(DocumentStoreError) -> Int {
        let found = try await transaction { connection, logger in
            var found: Int?
            let rows = try await connection.query(
                "SELECT version FROM lab_documents WHERE id = \(id.description)",
                logger: logger
            )
            for try await version in rows.decode(Int.self) { found = version }
            return found
        }
        guard let found else { throw .notFound(id: id) }
        return found
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
        try await transaction { connection, logger in try await Self.documents(query, connection, logger) }
    }

    func first(_ query: PostgresQuery) async throws(DocumentStoreError) -> SharedDocument? {
        try await all(query).first
    }

    static func documents(
        _ query: PostgresQuery,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> [SharedDocument] {
        var documents: [SharedDocument] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, number, time, author, body) in rows.decode((String, Int, Date, String, Data).self)
        {
            documents.append(
                try SharedDocument(id: id, version: number, updatedAt: time, author: author, body: body)
            )
        }
        return documents
    }

    static func insertVersion(
        _ stored: SharedDocument,
        body: Data,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO lab_versions (document_id, number, saved_at, author, body)
            VALUES (\(stored.id.description), \(stored.version), \(stored.updatedAt), \(stored.author), \(body))
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
