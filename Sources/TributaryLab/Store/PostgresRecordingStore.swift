public import Foundation
import Logging
import PostgresNIO
import Tributary
public import TributaryLabWire

/// A ``RecordingStore`` in the PostgreSQL database of a ``PostgresDocumentStore``, which hands
/// it out as its ``PostgresDocumentStore/recordings`` and keeps its connections.
///
/// Each append is one transaction that also sends `NOTIFY tributary_lab` with
/// `{"recording", "events"}` (no `events` for a deletion), so that every instance brings its
/// viewers what any of them stored.
public struct PostgresRecordingStore: SharedRecordingStore {
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

    public func create(name: String) async throws(RecordingStoreError) -> RecordingSummary {
        let made = Recordings.new(named: name)
        let inserted = try await transaction { connection, logger in
            try await Self.insert(made, connection, logger)
        }
        guard inserted else { throw .nameTaken(name) }
        return made
    }

    public func open(name: String) async throws(RecordingStoreError) -> RecordingSummary {
        let made = Recordings.new(named: name)
        let found = try await transaction { connection, logger in
            _ = try await Self.insert(made, connection, logger)
            return try await Self.summary(
                "SELECT id, name, events, dropped, updated_at FROM lab_recordings WHERE name = \(name)",
                connection,
                logger
            )
        }
        guard let found else { throw .storage("the recording named \(name) vanished as it was made") }
        return found
    }

    public func recording(_ id: String) async throws(RecordingStoreError) -> RecordingSummary {
        let found = try await transaction { connection, logger in
            try await Self.summary(Self.byID(id), connection, logger)
        }
        guard let found else { throw .notFound(id: id) }
        return found
    }

    public func list(limit: Int) async throws(RecordingStoreError) -> [RecordingSummary] {
        try await transaction { connection, logger in
            try await Self.summaries(
                """
                SELECT id, name, events, dropped, updated_at FROM lab_recordings
                ORDER BY updated_at DESC, id DESC LIMIT \(max(1, limit))
                """,
                connection,
                logger
            )
        }
    }

    public func events(
        _ id: String,
        from first: Int,
        limit: Int
    ) async throws(RecordingStoreError) -> RecordingSlice {
        try await slice(id, limit: limit) { _ in max(0, first) }
    }

    public func latestEvents(_ id: String, limit: Int) async throws(RecordingStoreError) -> RecordingSlice {
        try await slice(id, limit: limit) { max(0, $0.events - limit) }
    }

    public func events(
        _ id: String,
        lanes: Set<String>
    ) async throws(RecordingStoreError) -> [RecordedLaneEvent] {
        let lanes = Array(lanes)
        let bodies = try await transaction { connection, logger -> [String]? in
            guard try await Self.summary(Self.byID(id), connection, logger) != nil else { return nil }
            return try await Self.strings(
                """
                SELECT body FROM lab_recording_events
                WHERE recording_id = \(id) AND lane = ANY(\(lanes)::text[]) ORDER BY number
                """,
                connection,
                logger
            )
        }
        guard let bodies else { throw .notFound(id: id) }
        return try bodies.map { body throws(RecordingStoreError) in try Recordings.event(from: body) }
    }

    public func lanes(_ id: String) async throws(RecordingStoreError) -> [String] {
        let lanes = try await transaction { connection, logger -> [String]? in
            guard try await Self.summary(Self.byID(id), connection, logger) != nil else { return nil }
            return try await Self.strings(
                "SELECT DISTINCT lane FROM lab_recording_events WHERE recording_id = \(id) ORDER BY lane",
                connection,
                logger
            )
        }
        guard let lanes else { throw .notFound(id: id) }
        return lanes
    }

    public func next(_ id: String, recorder: UUID) async throws(RecordingStoreError) -> Int {
        let recorder = recorder.uuidString.lowercased()
        let next = try await transaction { connection, logger -> Int? in
            guard try await Self.summary(Self.byID(id), connection, logger) != nil else { return nil }
            let rows = try await connection.query(
                "SELECT next FROM lab_recorders WHERE recording_id = \(id) AND recorder = \(recorder)",
                logger: logger
            )
            var next = 0
            for try await value in rows.decode(Int.self) { next = value }
            return next
        }
        guard let next else { throw .notFound(id: id) }
        return next
    }

    public func append(
        _ batch: RecordingIngestBatch,
        to id: String,
        recorder: UUID,
        cap: Int
    ) async throws(RecordingStoreError) -> RecordingAppend {
        let bodies = batch.events.map(Recordings.body(of:))
        let recorder = recorder.uuidString.lowercased()
        let outcome = try await transaction {
            connection,
            logger -> Result<RecordingAppend, RecordingStoreError> in
            guard
                let before = try await Self.summary(
                    "SELECT id, name, events, dropped, updated_at FROM lab_recordings WHERE id = \(id) FOR UPDATE",
                    connection,
                    logger
                )
            else { return .failure(.notFound(id: id)) }
            var known = (next: 0, dropped: 0)
            let rows = try await connection.query(
                "SELECT next, dropped FROM lab_recorders WHERE recording_id = \(id) AND recorder = \(recorder)",
                logger: logger
            )
            for try await row in rows.decode((Int, Int).self) { known = row }
            guard let plan = Recordings.append(batch, to: before, recorder: known, cap: cap) else {
                return .success(.gap(next: known.next))
            }
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
            return .success(plan.outcome)
        }
        return try outcome.get()
    }

    public func delete(_ id: String) async throws(RecordingStoreError) {
        let deleted = try await transaction { connection, logger in
            let gone = try await Self.strings(
                "DELETE FROM lab_recordings WHERE id = \(id) RETURNING id",
                connection,
                logger
            )
            if !gone.isEmpty { try await Self.notify(id: id, events: nil, connection, logger) }
            return !gone.isEmpty
        }
        if !deleted { throw .notFound(id: id) }
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

    private func slice(
        _ id: String,
        limit: Int,
        from first: @escaping @Sendable (RecordingSummary) -> Int
    ) async throws(RecordingStoreError) -> RecordingSlice {
        let found = try await transaction { connection, logger -> (RecordingSummary, Int, [String])? in
            guard let recording = try await Self.summary(Self.byID(id), connection, logger) else {
                return nil
            }
            let from = first(recording)
            let bodies = try await Self.strings(
                """
                SELECT body FROM lab_recording_events WHERE recording_id = \(id) AND number >= \(from)
                ORDER BY number LIMIT \(max(0, limit))
                """,
                connection,
                logger
            )
            return (recording, from, bodies)
        }
        guard let (recording, from, bodies) = found else { throw .notFound(id: id) }
        let events = try bodies.map { body throws(RecordingStoreError) in try Recordings.event(from: body) }
        return RecordingSlice(recording: recording, first: from, events: events)
    }

    private static func byID(_ id: String) -> PostgresQuery {
        "SELECT id, name, events, dropped, updated_at FROM lab_recordings WHERE id = \(id)"
    }

    /// Inserts `made` unless its name is taken; whether it did.
    private static func insert(
        _ made: RecordingSummary,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> Bool {
        let inserted = try await strings(
            """
            INSERT INTO lab_recordings (id, name, events, dropped, updated_at)
            VALUES (\(made.id), \(made.name), 0, 0, \(made.updatedAt))
            ON CONFLICT (name) DO NOTHING RETURNING id
            """,
            connection,
            logger
        )
        return !inserted.isEmpty
    }

    private static func summary(
        _ query: PostgresQuery,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> RecordingSummary? {
        try await summaries(query, connection, logger).first
    }

    private static func summaries(
        _ query: PostgresQuery,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> [RecordingSummary] {
        var found: [RecordingSummary] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (id, name, events, dropped, time) in rows.decode((String, String, Int, Int, Date).self)
        {
            found.append(
                RecordingSummary(id: id, name: name, events: events, dropped: dropped, updatedAt: time)
            )
        }
        return found
    }

    private static func strings(
        _ query: PostgresQuery,
        _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> [String] {
        var found: [String] = []
        for try await text in try await connection.query(query, logger: logger).decode(String.self) {
            found.append(text)
        }
        return found
    }
}
