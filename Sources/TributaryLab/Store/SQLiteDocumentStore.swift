import Foundation
import GRDB
import TributaryLabWire
import TributaryStreams

/// A ``DocumentStore`` in one SQLite file, through GRDB: write-ahead logging, schema
/// migrations, and each save in one transaction.
///
/// ```swift
/// let store = try SQLiteDocumentStore(path: LabPaths.defaultDatabase().path)
/// ```
public final class SQLiteDocumentStore: DocumentTables, PooledStore {
    let pool: DatabasePool
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
        migrator.registerMigration("version titles") { db in
            // Versions saved before have none, and are named from their body when listed.
            try db.execute(sql: "ALTER TABLE versions ADD COLUMN title TEXT")
        }
        return migrator
    }()

    /// The recordings, in tables of their own in the same file.
    public var recordings: (any RecordingStore)? { SQLiteRecordingStore(pool: pool) }

    func insert(_ stored: SharedDocument, body: Data) async throws(DocumentStoreError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO documents (id, version, updated_at) VALUES (?, 1, ?)",
                arguments: [stored.id.description, stored.updatedAt.timeIntervalSince1970]
            )
            try Self.insertVersion(db, stored, body: body)
        }
    }

    func head(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument? {
        try await read { db in
            try VersionRecord.fetchOne(
                db,
                sql: """
                    SELECT v.document_id, v.number, v.saved_at, v.author, v.body FROM documents d
                    JOIN versions v ON v.document_id = d.id AND v.number = d.version WHERE d.id = ?
                    """,
                arguments: [id.description]
            )?.document
        }
    }

    func stored(_ id: DocumentID, number: Int) async throws(DocumentStoreError) -> SharedDocument? {
        try await read { db in
            try VersionRecord.fetchOne(
                db,
                sql:
                    "SELECT document_id, number, saved_at, author, body FROM versions WHERE document_id = ? AND number = ?",
                arguments: [id.description, number]
            )?.document
        }
    }

    func advance(to next: SharedDocument, body: Data) async throws(DocumentStoreError) -> Int? {
        try await write { db in
            let latest = try Int.fetchOne(
                db,
                sql: "SELECT version FROM documents WHERE id = ?",
                arguments: [next.id.description]
            )
            if latest == next.version - 1 {
                try db.execute(
                    sql: "UPDATE documents SET version = ?, updated_at = ? WHERE id = ?",
                    arguments: [next.version, next.updatedAt.timeIntervalSince1970, next.id.description]
                )
                try Self.insertVersion(db, next, body: body)
            }
            return latest
        }
    }

    func remove(_ id: DocumentID) async throws(DocumentStoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM documents WHERE id = ?", arguments: [id.description])
            return db.changesCount > 0
        }
    }

    func page(
        after cursor: (time: Date, id: DocumentID)?,
        count: Int
    ) async throws(DocumentStoreError) -> [DocumentSummary] {
        var condition = ""
        var arguments: StatementArguments = []
        if let cursor {
            let time = cursor.time.timeIntervalSince1970
            condition = "WHERE (d.updated_at < ? OR (d.updated_at = ? AND d.id < ?))"
            arguments = [time, time, cursor.id.description]
        }
        arguments += [count]
        let (sqlCondition, sqlArguments) = (condition, arguments)
        return try await read { db in
            try VersionSummary.fetchAll(
                db,
                sql: """
                    SELECT \(VersionSummary.columns("v")) FROM documents d
                    JOIN versions v ON v.document_id = d.id AND v.number = d.version
                    \(sqlCondition) ORDER BY d.updated_at DESC, d.id DESC LIMIT ?
                    """,
                arguments: sqlArguments
            ).map(\.summary)
        }
    }

    func summarize(_ id: DocumentID, number: Int?) async throws(DocumentStoreError) -> DocumentSummary? {
        try await read { db in
            guard let number else {
                return try VersionSummary.fetchOne(
                    db,
                    sql: """
                        SELECT \(VersionSummary.columns("v")) FROM documents d
                        JOIN versions v ON v.document_id = d.id AND v.number = d.version WHERE d.id = ?
                        """,
                    arguments: [id.description]
                )?.summary
            }
            return try VersionSummary.fetchOne(
                db,
                sql:
                    "SELECT \(VersionSummary.columns("versions")) FROM versions WHERE document_id = ? AND number = ?",
                arguments: [id.description, number]
            )?.summary
        }
    }

    func history(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion] {
        try await read { db in
            try VersionListing.fetchAll(
                db,
                sql: "SELECT number, saved_at, author FROM versions WHERE document_id = ? ORDER BY number",
                arguments: [id.description]
            )
            .map(\.version)
        }
    }

    /// One indexed row, read on a reader's queue like every other read: a read made in place
    /// would block one of the few threads that all tasks share while it waits for a reader, and
    /// enough readers at once would hold every such thread, and the lab, for good.
    func headNumber(_ id: DocumentID) async throws(DocumentStoreError) -> Int? {
        let query = { @Sendable (db: Database) throws -> Int? in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT version FROM documents WHERE id = ?"),
                arguments: [id.description]
            )
        }
        if let read = inPlace.read(query) { return read }
        return try await read(query)
    }

    // MARK: Helpers

    private static func insertVersion(_ db: Database, _ stored: SharedDocument, body: Data) throws {
        try db.execute(
            sql:
                "INSERT INTO versions (document_id, number, saved_at, author, body, title) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                stored.id.description, stored.version, stored.updatedAt.timeIntervalSince1970, stored.author,
                body, stored.title,
            ]
        )
    }
}

/// A version as SQLite keeps it: a row of `versions`, read by its columns.
struct VersionRecord: FetchableRecord {
    enum Columns {
        static let documentID = Column("document_id")
        static let number = Column("number")
        static let savedAt = Column("saved_at")
        static let author = Column("author")
        static let body = Column("body")
        static let title = Column("title")
    }

    var document: SharedDocument

    init(row: Row) throws {
        document = try SharedDocument(
            id: row[Columns.documentID] as String,
            version: row[Columns.number],
            updatedAt: Date(timeIntervalSince1970: row[Columns.savedAt]),
            author: row[Columns.author],
            body: row[Columns.body]
        )
    }
}

/// A version as a list or a page names it: its document, number, time and title, the body read
/// only for a version saved before titles were kept.
struct VersionSummary: FetchableRecord {
    var summary: DocumentSummary

    /// The columns read from the versions table named `table`.
    static func columns(_ table: String) -> String {
        """
        \(table).document_id, \(table).number, \(table).saved_at, \(table).title,
        CASE WHEN \(table).title IS NULL THEN \(table).body END AS body
        """
    }

    init(row: Row) throws {
        summary = try DocumentSummary(
            id: row[VersionRecord.Columns.documentID] as String,
            version: row[VersionRecord.Columns.number],
            updatedAt: Date(timeIntervalSince1970: row[VersionRecord.Columns.savedAt]),
            title: row[VersionRecord.Columns.title],
            body: row[VersionRecord.Columns.body]
        )
    }
}

/// A version as the list of a document's versions has it: its number, time and author.
struct VersionListing: FetchableRecord {
    var version: DocumentVersion

    init(row: Row) {
        version = DocumentVersion(
            number: row[VersionRecord.Columns.number],
            time: Date(timeIntervalSince1970: row[VersionRecord.Columns.savedAt]),
            author: row[VersionRecord.Columns.author]
        )
    }
}

/// A store in a GRDB pool, whose failures of the database are its own error's `storage` case.
protocol PooledStore {
    associatedtype Failure: Error
    var pool: DatabasePool { get }
    /// The store's error for a failure of the database.
    static func storage(_ reason: String) -> Failure
}

extension PooledStore {
    /// What `body` returns, run on a reader's queue.
    func read<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws(Failure) -> Value {
        try await pool.access(reading: true, failure: Self.storage, body)
    }

    /// What `body` returns, run on the writer's queue in one transaction.
    func write<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws(Failure) -> Value {
        try await pool.access(reading: false, failure: Self.storage, body)
    }
}

extension SQLiteDocumentStore {
    static func storage(_ reason: String) -> DocumentStoreError { .storage(reason) }
}

extension SQLiteRecordingStore {
    static func storage(_ reason: String) -> RecordingStoreError { .storage(reason) }
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
