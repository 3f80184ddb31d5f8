import Foundation
import GRDB
public import TributaryLabWire
public import TributaryStreams

/// A ``DocumentStore`` in one SQLite file, through GRDB: write-ahead logging, schema
/// migrations, and each save in one transaction.
///
/// ```swift
/// let store = try SQLiteDocumentStore(path: LabPaths.defaultDatabase().path)
/// ```
public final class SQLiteDocumentStore: DocumentStore {
    private let pool: DatabasePool
    /// For the one-row read of a document's latest version, which every read of a document
    /// begins with.
    let inPlace: InPlaceReaders

    /// Opens the database at `path`, creating it and its folder when missing, and brings its
    /// schema up to date.
    public init(path: String) throws(DocumentStoreError) {
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(10)
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
            inPlace = try InPlaceReaders(path: path, count: 2)
        } catch {
            throw .storage("\(error)")
        }
    }

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("documents and versions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE documents (
                        id TEXT PRIMARY KEY NOT NULL,
                        version INTEGER NOT NULL,
                        updated_at REAL NOT NULL
                    );
                    CREATE INDEX documents_by_time ON documents (updated_at DESC, id DESC);
                    CREATE TABLE versions (
                        document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
                        number INTEGER NOT NULL,
                        saved_at REAL NOT NULL,
                        author TEXT NOT NULL,
                        body BLOB NOT NULL,
                        PRIMARY KEY (document_id, number)
                    );
                    """
            )
        }
        SQLiteRecordingStore.registerMigrations(&migrator)
        return migrator
    }()

    /// The recordings, in tables of their own in the same file.
    public var recordings: (any RecordingStore)? { SQLiteRecordingStore(pool: pool) }

    public func create(
        _ document: StreamDocument,
        author: String
    ) async throws(DocumentStoreError) -> SharedDocument {
        let body = try SharedDocument.body(of: document)
        let stored = SharedDocument.first(document, author: author)
        try await write { db in
            try db.execute(
                sql: "INSERT INTO documents (id, version, updated_at) VALUES (?, 1, ?)",
                arguments: [stored.id.description, stored.updatedAt.timeIntervalSince1970]
            )
            try Self.insertVersion(db, stored, body: body)
        }
        return stored
    }

    public func document(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument {
        let found = try await read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT v.document_id, v.number, v.saved_at, v.author, v.body FROM documents d
                    JOIN versions v ON v.document_id = d.id AND v.number = d.version WHERE d.id = ?
                    """,
                arguments: [id.description]
            ).map(Self.stored)
        }
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
        let outcome: Result<SharedDocument, DocumentStoreError> = try await write { db in
            guard
                let latest = try Int.fetchOne(
                    db,
                    sql: "SELECT version FROM documents WHERE id = ?",
                    arguments: [id.description]
                )
            else {
                return .failure(.notFound(id: id))
            }
            guard latest == baseVersion else {
                let row = try Row.fetchOne(
                    db,
                    sql:
                        "SELECT document_id, number, saved_at, author, body FROM versions WHERE document_id = ? AND number = ?",
                    arguments: [id.description, latest]
                )
                return .failure(
                    row.map { (try? Self.stored($0)).map(DocumentStoreError.conflict) ?? .notFound(id: id) }
                        ?? .notFound(id: id)
                )
            }
            let stored = SharedDocument.next(id, after: latest, document, author: author)
            try db.execute(
                sql: "UPDATE documents SET version = ?, updated_at = ? WHERE id = ?",
                arguments: [stored.version, stored.updatedAt.timeIntervalSince1970, id.description]
            )
            try Self.insertVersion(db, stored, body: body)
            return .success(stored)
        }
        return try outcome.get()
    }

    public func delete(_ id: DocumentID) async throws(DocumentStoreError) {
        let deleted = try await write { db in
            try db.execute(sql: "DELETE FROM documents WHERE id = ?", arguments: [id.description])
            return db.changesCount
        }
        if deleted == 0 { throw .notFound(id: id) }
    }

    public func list(limit: Int, after cursor: String?) async throws(DocumentStoreError) -> DocumentPage {
        let limit = max(1, min(limit, 100))
        var where_ = ""
        var values: StatementArguments = []
        if let cursor {
            guard let (time, id) = DocumentCursor.decode(cursor) else { throw .invalidCursor }
            where_ = "WHERE (d.updated_at < ? OR (d.updated_at = ? AND d.id < ?))"
            values = [time.timeIntervalSince1970, time.timeIntervalSince1970, id.description]
        }
        values += [limit + 1]
        let (condition, arguments) = (where_, values)
        let documents = try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT v.document_id, v.number, v.saved_at, v.author, v.body, d.updated_at FROM documents d
                    JOIN versions v ON v.document_id = d.id AND v.number = d.version
                    \(condition) ORDER BY d.updated_at DESC, d.id DESC LIMIT ?
                    """,
                arguments: arguments
            ).map(Self.stored)
        }
        return DocumentPage(fetched: documents, limit: limit)
    }

    public func versions(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion] {
        let versions = try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT number, saved_at, author FROM versions WHERE document_id = ? ORDER BY number",
                arguments: [id.description]
            )
            .map {
                DocumentVersion(
                    number: $0["number"],
                    time: Date(timeIntervalSince1970: $0["saved_at"]),
                    author: $0["author"]
                )
            }
        }
        guard !versions.isEmpty else { throw .notFound(id: id) }
        return versions
    }

    public func version(_ id: DocumentID, number: Int) async throws(DocumentStoreError) -> SharedDocument {
        let found = try await read { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT document_id, number, saved_at, author, body FROM versions WHERE document_id = ? AND number = ?",
                arguments: [id.description, number]
            ).map(Self.stored)
        }
        guard let found else { throw .notFound(id: id) }
        return found
    }

    /// One indexed row, read on a reader's queue like every other read: a read made in place
    /// would block one of the few threads that all tasks share while it waits for a reader, and
    /// enough readers at once would hold every such thread, and the lab, for good.
    public func latestVersion(_ id: DocumentID) async throws(DocumentStoreError) -> Int {
        let query = { @Sendable (db: Database) throws -> Int? in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT version FROM documents WHERE id = ?"),
                arguments: [id.description]
            )
        }
        let found: Int?
        if let read = inPlace.read(query) {
            found = read
        } else {
            found = try await read(query)
        }
        guard let found else { throw .notFound(id: id) }
        return found
    }

    // MARK: Helpers

    private func read<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws(DocumentStoreError) -> Value {
        try await pool.access(reading: true, failure: DocumentStoreError.storage, body)
    }

    private func write<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws(DocumentStoreError) -> Value {
        try await pool.access(reading: false, failure: DocumentStoreError.storage, body)
    }

    private static func insertVersion(_ db: Database, _ stored: SharedDocument, body: Data) throws {
        try db.execute(
            sql: "INSERT INTO versions (document_id, number, saved_at, author, body) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                stored.id.description, stored.version, stored.updatedAt.timeIntervalSince1970, stored.author,
                body,
            ]
        )
    }

    private static func stored(_ row: Row) throws(DocumentStoreError) -> SharedDocument {
        try SharedDocument(
            id: row["document_id"] as String,
            version: row["number"],
            updatedAt: Date(timeIntervalSince1970: row["saved_at"]),
            author: row["author"],
            body: row["body"]
        )
    }
}

extension DatabasePool {
    /// What `body` returns, run on a reader's queue or the writer's; a failure of the database
    /// is thrown as `failure` of its description.
    func access<Value: Sendable, Failure: Error>(
        reading: Bool,
        failure: (String) -> Failure,
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws(Failure) -> Value {
        do {
            return reading ? try await read(body) : try await write(body)
        } catch {
            throw failure("\(error)")
        }
    }
}
