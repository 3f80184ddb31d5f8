import Foundation
import Logging
import PostgresNIO
import Tributary
import TributaryStreams

/// The tables, brought up to date on start under an advisory lock.
extension PostgresDocumentStore {

    static let migrations: [(name: String, sql: [PostgresQuery])] = [
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
        ),
        // Versions saved before have none, and are named from their body when listed.
        ("version titles", ["ALTER TABLE lab_versions ADD COLUMN title text"]),
    ]

    /// Applies the migrations not yet applied, one instance at a time.
    func migrate() async throws {
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
            for migration in Self.migrations + PostgresRecordingStore.migrations
            where !applied.contains(migration.name) {
                for statement in migration.sql { try await connection.query(statement, logger: logger) }
                try await connection.query(
                    "INSERT INTO lab_migrations (name, applied_at) VALUES (\(migration.name), now())",
                    logger: logger
                )
            }
        }
    }
}
