import Foundation
import Logging
import PostgresNIO
import Tributary
import TributaryLabWire

/// A ``RecordingStore`` in the PostgreSQL database of a ``PostgresDocumentStore``, which hands
/// it out as its ``PostgresDocumentStore/recordings`` and keeps its connections.
///
/// Each append is one transaction that also sends `NOTIFY tributary_lab` with
/// `{"recording", "events"}` (no `events` for a deletion), so that every instance brings its
/// viewers what any of them stored.
public struct PostgresRecordingStore: SharedRecordingStore, RecordingTables {
    let database: PostgresDocumentStore

    static let migrations: [(name: String, sql: [PostgresQuery])] = [
        (
            "recordings",
            [
                """
                CREATE TABLE lab_recordings (
                    id text COLLATE "C" PRIMARY KEY,
                    name text NOT NULL UNIQUE,
                    events bigint NOT NULL DEFAULT 0,
                    dropped bigint NOT NULL DEFAULT 0,
                    updated_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX lab_recordings_by_time ON lab_recordings (updated_at DESC, id DESC)",
                """
                CREATE TABLE lab_recorders (
                    recording_id text COLLATE "C" NOT NULL REFERENCES lab_recordings (id) ON DELETE CASCADE,
                    recorder text NOT NULL,
                    next bigint NOT NULL,
                    dropped bigint NOT NULL,
                    PRIMARY KEY (recording_id, recorder)
                )
                """,
                """
                CREATE TABLE lab_recording_events (
                    recording_id text COLLATE "C" NOT NULL REFERENCES lab_recordings (id) ON DELETE CASCADE,
                    number bigint NOT NULL,
                    lane text NOT NULL,
                    body text NOT NULL,
                    PRIMARY KEY (recording_id, number)
                )
                """,
            ]
        )
    ]

    public func changes() -> AsyncStream<StoreChange> { database.recordingFollowers.stream() }

    func insert(_ made: RecordingSummary) async throws(RecordingStoreError) -> Bool {
        try await transaction { connection, logger in
            let inserted = try await connection.values(
                """
                INSERT INTO lab_recordings (id, name, events, dropped, updated_at)
                VALUES (\(made.id), \(made.name), 0, 0, \(made.updatedAt))
                ON CONFLICT (name) DO NOTHING RETURNING id
                """,
                logger
            ) { try $0.decode(String.self) }
            return !inserted.isEmpty
        }
    }

    func summary(named name: String) async throws(RecordingStoreError) -> RecordingSummary? {
        try await summaries(
            "SELECT id, name, events, dropped, updated_at FROM lab_recordings WHERE name = \(name)"
        ).first
    }

    func summary(_ id: String) async throws(RecordingStoreError) -> RecordingSummary? {
        try await summaries(Self.byID(id)).first
    }

    func summaries(count: Int) async throws(RecordingStoreError) -> [RecordingSummary] {
        try await summaries(
            """
            SELECT id, name, events, dropped, updated_at FROM lab_recordings
            ORDER BY updated_at DESC, id DESC LIMIT \(count)
            """
        )
    }

    func bodies(
        _ id: String,
        from start: @escaping @Sendable (RecordingSummary) -> Int,
        count: Int
    ) async throws(RecordingStoreError) -> (recording: RecordingSummary, first: Int, bodies: [String])? {
        try await transaction { connection, logger in
            guard
                let recording = try await connection.values(
                    Self.byID(id),
                    logger,
                    RecordingSummary.init(row:)
                ).first
            else {
                return nil
            }
            let first = start(recording)
            let bodies = try await connection.values(
                """
                SELECT body FROM lab_recording_events WHERE recording_id = \(id) AND number >= \(first)
                ORDER BY number LIMIT \(count)
                """,
                logger
            ) { try $0.decode(String.self) }
            return (recording, first, bodies)
        }
    }

    func bodies(_ id: String, lanes: [String]) async throws(RecordingStoreError) -> [String]? {
        try await strings(
            ifRecording: id,
            """
            SELECT body FROM lab_recording_events
            WHERE recording_id = \(id) AND lane = ANY(\(lanes)::text[]) ORDER BY number
            """
        )
    }

    func bodyBytes(_ id: String, lanes: [String]) async throws(RecordingStoreError) -> Int? {
        try await transaction { connection, logger -> Int? in
            guard try await !connection.values(Self.byID(id), logger, RecordingSummary.init(row:)).isEmpty
            else { return nil }
            let query: PostgresQuery = """
                SELECT COALESCE(SUM(octet_length(body)), 0)::bigint FROM lab_recording_events
                WHERE recording_id = \(id) AND lane = ANY(\(lanes)::text[])
                """
            return try await connection.values(query, logger) { try $0.decode(Int.self) }.first ?? 0
        }
    }

    func laneNames(_ id: String) async throws(RecordingStoreError) -> [String]? {
        try await strings(
            ifRecording: id,
            "SELECT DISTINCT lane FROM lab_recording_events WHERE recording_id = \(id) ORDER BY lane"
        )
    }

    func recorderNext(_ id: String, recorder: String) async throws(RecordingStoreError) -> Int?? {
        try await transaction { connection, logger -> Int?? in
            guard try await !connection.values(Self.byID(id), logger, RecordingSummary.init(row:)).isEmpty
            else { return nil }
            return .some(
                try await connection.values(
                    "SELECT next FROM lab_recorders WHERE recording_id = \(id) AND recorder = \(recorder)",
                    logger
                ) { try $0.decode(Int.self) }.first
            )
        }
    }

    func remove(_ id: String) async throws(RecordingStoreError) -> Bool {
        try await transaction { connection, logger in
            let gone = try await connection.values(
                "DELETE FROM lab_recordings WHERE id = \(id) RETURNING id",
                logger
            ) { try $0.decode(String.self) }
            if !gone.isEmpty { try await Self.notify(id: id, events: nil, connection, logger) }
            return !gone.isEmpty
        }
    }

    func store(_ pending: PendingAppend) async throws(RecordingStoreError) -> RecordingAppend? {
        let (batch, bodies, id, recorder, cap) = (
            pending.batch, pending.bodies, pending.id, pending.recorder, pending.cap
        )
        return try await transaction { connection, logger -> RecordingAppend? in
            guard
                let before = try await connection.values(
                    "SELECT id, name, events, dropped, updated_at FROM lab_recordings WHERE id = \(id) FOR UPDATE",
                    logger,
                    RecordingSummary.init(row:)
                ).first
            else { return nil }
            var known = (next: 0, dropped: 0)
            let rows = try await connection.query(
                "SELECT next, dropped FROM lab_recorders WHERE recording_id = \(id) AND recorder = \(recorder)",
                logger: logger
            )
            for try await row in rows.decode((Int, Int).self) { known = row }
            let plan = Recordings.append(batch, to: before, recorder: known, cap: cap)
            if !plan.fresh.isEmpty {
                let (numbers, lanes) = (Array(plan.numbers), plan.fresh.map(\.lane))
                let stored = Array(bodies[plan.fresh.indices])
                try await connection.query(
                    """
                    INSERT INTO lab_recording_events (recording_id, number, lane, body)
                    SELECT \(id), number, lane, body
                    FROM unnest(\(numbers)::bigint[], \(lanes)::text[], \(stored)::text[]) AS t(number, lane, body)
                    """,
                    logger: logger
                )
            }
            if plan.recorderChanged {
                try await connection.query(
                    """
                    INSERT INTO lab_recorders (recording_id, recorder, next, dropped)
                    VALUES (\(id), \(recorder), \(plan.recorder.next), \(plan.recorder.dropped))
                    ON CONFLICT (recording_id, recorder) DO UPDATE SET next = excluded.next, dropped = excluded.dropped
                    """,
                    logger: logger
                )
            }
            if let after = plan.recording {
                try await connection.query(
                    """
                    UPDATE lab_recordings SET events = \(after.events), dropped = \(after.dropped),
                    updated_at = \(after.updatedAt) WHERE id = \(id)
                    """,
                    logger: logger
                )
                try await Self.notify(id: id, events: after.events, connection, logger)
            }
            return plan.outcome
        }
    }

    // MARK: Notifications

    struct Notice: Codable {
        var recording: String
        var events: Int?
    }

    static func notify(
        id: String,
        events: Int?,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        let data = (try? JSONEncoder().encode(Notice(recording: id, events: events))) ?? Data()
        let payload = String(decoding: data, as: UTF8.self)
        try await connection.query(
            "SELECT pg_notify(\(PostgresDocumentStore.channel), \(payload))",
            logger: logger
        )
    }

    static func change(_ payload: String) -> StoreChange? {
        guard let notice = try? JSONDecoder().decode(Notice.self, from: Data(payload.utf8)),
            let id = DocumentID(notice.recording)
        else { return nil }
        return notice.events.map { .changed(id: id, count: $0) } ?? .deleted(id: id)
    }

    // MARK: Helpers

    private func transaction<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Value
    ) async throws(RecordingStoreError) -> Value {
        do throws(DocumentStoreError) {
            return try await database.transaction(body)
        } catch {
            switch error {
            case .storage(let reason): throw .storage(reason)
            default: throw .storage(error.description)
            }
        }
    }

    private func summaries(_ query: PostgresQuery) async throws(RecordingStoreError) -> [RecordingSummary] {
        try await transaction { connection, logger in
            try await connection.values(query, logger, RecordingSummary.init(row:))
        }
    }

    /// What `query` reads, in the transaction that finds the recording `id`; nil when there is no
    /// such recording.
    private func strings(
        ifRecording id: String,
        _ query: PostgresQuery
    ) async throws(RecordingStoreError) -> [String]? {
        try await transaction { connection, logger -> [String]? in
            guard try await !connection.values(Self.byID(id), logger, RecordingSummary.init(row:)).isEmpty
            else { return nil }
            return try await connection.values(query, logger) { try $0.decode(String.self) }
        }
    }

    private static func byID(_ id: String) -> PostgresQuery {
        "SELECT id, name, events, dropped, updated_at FROM lab_recordings WHERE id = \(id)"
    }

}
