import Foundation
import GRDB
import GRDBSQLite
import TributaryLabWire

/// A ``RecordingStore`` in the SQLite file of a ``SQLiteDocumentStore``, which hands it out as
/// its ``SQLiteDocumentStore/recordings``.
public struct SQLiteRecordingStore: RecordingTables, PooledStore {
    let pool: DatabasePool

    static func registerMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("recordings") { db in
            try db.execute(
                sql: """
                    CREATE TABLE recordings (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL UNIQUE,
                        events INTEGER NOT NULL DEFAULT 0,
                        dropped INTEGER NOT NULL DEFAULT 0,
                        updated_at REAL NOT NULL
                    );
                    CREATE INDEX recordings_by_time ON recordings (updated_at DESC, id DESC);
                    CREATE TABLE recorders (
                        recording_id TEXT NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
                        recorder TEXT NOT NULL,
                        next INTEGER NOT NULL,
                        dropped INTEGER NOT NULL,
                        PRIMARY KEY (recording_id, recorder)
                    );
                    CREATE TABLE recording_events (
                        recording_id TEXT NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
                        number INTEGER NOT NULL,
                        lane TEXT NOT NULL,
                        body TEXT NOT NULL,
                        PRIMARY KEY (recording_id, number)
                    ) WITHOUT ROWID;
                    """
            )
        }
    }

    func insert(_ made: RecordingSummary) async throws(RecordingStoreError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO recordings (id, name, events, dropped, updated_at) VALUES (?, ?, 0, 0, ?)
                    ON CONFLICT (name) DO NOTHING
                    """,
                arguments: [made.id, made.name, made.updatedAt.timeIntervalSince1970]
            )
            return db.changesCount > 0
        }
    }

    func summary(named name: String) async throws(RecordingStoreError) -> RecordingSummary? {
        try await read { db in try Self.summary(db, where: "name = ?", name) }
    }

    func summary(_ id: String) async throws(RecordingStoreError) -> RecordingSummary? {
        try await read { db in try Self.summary(db, where: "id = ?", id) }
    }

    func summaries(count: Int) async throws(RecordingStoreError) -> [RecordingSummary] {
        try await read { db in
            try RecordingRecord.fetchAll(
                db,
                sql: "SELECT * FROM recordings ORDER BY updated_at DESC, id DESC LIMIT ?",
                arguments: [count]
            )
            .map(\.summary)
        }
    }

    func bodies(
        _ id: String,
        from start: @escaping @Sendable (RecordingSummary) -> Int,
        count: Int
    ) async throws(RecordingStoreError) -> (recording: RecordingSummary, first: Int, bodies: [String])? {
        try await read { db in
            guard let recording = try Self.summary(db, where: "id = ?", id) else { return nil }
            let first = start(recording)
            let bodies = try String.fetchAll(
                db,
                sql: """
                    SELECT body FROM recording_events WHERE recording_id = ? AND number >= ?
                    ORDER BY number LIMIT ?
                    """,
                arguments: [id, first, count]
            )
            return (recording, first, bodies)
        }
    }

    func bodies(_ id: String, lanes: [String]) async throws(RecordingStoreError) -> [String]? {
        try await read { db -> [String]? in
            guard try Self.summary(db, where: "id = ?", id) != nil else { return nil }
            guard !lanes.isEmpty else { return [] }
            return try String.fetchAll(
                db,
                sql: """
                    SELECT body FROM recording_events
                    WHERE recording_id = ? AND lane IN (\(databaseQuestionMarks(count: lanes.count)))
                    ORDER BY number
                    """,
                arguments: StatementArguments([id] + lanes)
            )
        }
    }

    func bodyBytes(_ id: String, lanes: [String]) async throws(RecordingStoreError) -> Int? {
        try await read { db -> Int? in
            guard try Self.summary(db, where: "id = ?", id) != nil else { return nil }
            guard !lanes.isEmpty else { return 0 }
            return try Int.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(SUM(length(CAST(body AS BLOB))), 0) FROM recording_events
                    WHERE recording_id = ? AND lane IN (\(databaseQuestionMarks(count: lanes.count)))
                    """,
                arguments: StatementArguments([id] + lanes)
            ) ?? 0
        }
    }

    func laneNames(_ id: String) async throws(RecordingStoreError) -> [String]? {
        try await read { db -> [String]? in
            guard try Self.summary(db, where: "id = ?", id) != nil else { return nil }
            return try String.fetchAll(
                db,
                sql: "SELECT DISTINCT lane FROM recording_events WHERE recording_id = ? ORDER BY lane",
                arguments: [id]
            )
        }
    }

    func recorderNext(_ id: String, recorder: String) async throws(RecordingStoreError) -> Int?? {
        try await read { db -> Int?? in
            guard try Self.summary(db, where: "id = ?", id) != nil else { return nil }
            return .some(
                try Int.fetchOne(
                    db,
                    sql: "SELECT next FROM recorders WHERE recording_id = ? AND recorder = ?",
                    arguments: [id, recorder]
                )
            )
        }
    }

    func remove(_ id: String) async throws(RecordingStoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM recordings WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    func store(_ pending: PendingAppend) async throws(RecordingStoreError) -> RecordingAppend? {
        let (batch, bodies, id, recorder, cap) = (
            pending.batch, pending.bodies, pending.id, pending.recorder, pending.cap
        )
        return try await write { db -> RecordingAppend? in
            guard let before = try Self.summary(db, where: "id = ?", id) else { return nil }
            let row = try RecorderRecord.fetchOne(
                db,
                sql: "SELECT next, dropped FROM recorders WHERE recording_id = ? AND recorder = ?",
                arguments: [id, recorder]
            )
            let known = (next: row?.next ?? 0, dropped: row?.dropped ?? 0)
            let plan = Recordings.append(batch, to: before, recorder: known, cap: cap)
            let insert = try db.makeStatement(
                sql: "INSERT INTO recording_events (recording_id, number, lane, body) VALUES (?, ?, ?, ?)"
            )
            var rows = EventRows(insert, db)
            try rows.bind(text: id, at: 1)
            for (number, index) in zip(plan.numbers, plan.fresh.indices) {
                try rows.insert(number: number, lane: batch.events[index].lane, body: bodies[index])
            }
            if plan.recorderChanged {
                try db.execute(
                    sql: """
                        INSERT INTO recorders (recording_id, recorder, next, dropped) VALUES (?, ?, ?, ?)
                        ON CONFLICT (recording_id, recorder) DO UPDATE SET next = excluded.next, dropped = excluded.dropped
                        """,
                    arguments: [id, recorder, plan.recorder.next, plan.recorder.dropped]
                )
            }
            if let after = plan.recording {
                try db.execute(
                    sql: "UPDATE recordings SET events = ?, dropped = ?, updated_at = ? WHERE id = ?",
                    arguments: [after.events, after.dropped, after.updatedAt.timeIntervalSince1970, id]
                )
            }
            return plan.outcome
        }
    }

    // MARK: Helpers

    private static func summary(
        _ db: Database,
        where condition: String,
        _ value: String
    ) throws -> RecordingSummary? {
        try RecordingRecord.fetchOne(
            db,
            sql: "SELECT * FROM recordings WHERE \(condition)",
            arguments: [value]
        )?
        .summary
    }

}

/// A recording as SQLite keeps it: a row of `recordings`, read by its columns.
struct RecordingRecord: FetchableRecord {
    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let events = Column("events")
        static let dropped = Column("dropped")
        static let updatedAt = Column("updated_at")
    }

    var summary: RecordingSummary

    init(row: Row) {
        summary = RecordingSummary(
            id: row[Columns.id],
            name: row[Columns.name],
            events: row[Columns.events],
            dropped: row[Columns.dropped],
            updatedAt: Date(timeIntervalSince1970: row[Columns.updatedAt])
        )
    }
}

/// What a recording holds of one recorder: a row of `recorders`.
struct RecorderRecord: FetchableRecord {
    var next: Int
    var dropped: Int

    init(row: Row) {
        next = row[Column("next")]
        dropped = row[Column("dropped")]
    }
}

/// Inserts a batch's rows through SQLite's own calls on one prepared statement: a batch holds up
/// to thousands of events, and binding each row's values through GRDB's arguments cost several
/// times what SQLite takes to store it. With these calls one recorder's 200,000 events are
/// stored at 245,000 a second, past the 200,000 the lanes' target asks (docs/Benchmarks.md,
/// the lanes' table, `LabBenchmarks` `Lane.*`).
private struct EventRows {
    let statement: Statement
    let db: Database

    init(_ statement: Statement, _ db: Database) {
        self.statement = statement
        self.db = db
    }

    /// Binds `text` to the parameter at `index` (from 1), copied by SQLite.
    func bind(text: String, at index: Int32) throws {
        var text = text
        let code = text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else {
                // An empty text's buffer may have no address, which SQLite would take for NULL.
                return sqlite3_bind_text(statement.sqliteStatement, index, "", 0, Self.transient)
            }
            return sqlite3_bind_text(
                statement.sqliteStatement,
                index,
                UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self),
                Int32(bytes.count),
                Self.transient
            )
        }
        try check(code)
    }

    mutating func insert(number: Int, lane: String, body: String) throws {
        let handle = statement.sqliteStatement
        try check(sqlite3_bind_int64(handle, 2, Int64(number)))
        try bind(text: lane, at: 3)
        try bind(text: body, at: 4)
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else { throw failure(code) }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw failure(code) }
    }

    private func failure(_ code: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
            sql: statement.sql
        )
    }

    /// SQLite's `SQLITE_TRANSIENT`: the value is copied before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
