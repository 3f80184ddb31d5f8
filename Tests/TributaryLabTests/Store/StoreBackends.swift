import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing
import TributaryLab
import TributaryLabWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stores the store suite runs on: SQLite always, PostgreSQL on the server that
/// `TRIBUTARY_TEST_POSTGRES` names (`.ci/postgres` starts one). With
/// `TRIBUTARY_REQUIRE_POSTGRES` set, as in CI, a missing server fails the PostgreSQL cases
/// instead of leaving them out.
enum StoreBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static var available: [StoreBackend] {
        let environment = ProcessInfo.processInfo.environment
        let postgres =
            environment["TRIBUTARY_TEST_POSTGRES"] != nil || environment["TRIBUTARY_REQUIRE_POSTGRES"] != nil
        return postgres ? allCases : [.sqlite]
    }

    /// A place of its own for a test's documents: a SQLite file, or a new PostgreSQL database.
    /// `body` may open several stores on it, as several lab instances would.
    func withPlace<Result: Sendable>(
        _ body: @Sendable (StorePlace) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appending(path: "store-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await body(.sqlite(folder.appending(path: "lab.sqlite").path))
        case .postgres:
            return try await PostgresTestServer.withDatabase { url in try await body(.postgres(url)) }
        }
    }
}

/// Where a test's stores keep their documents.
enum StorePlace: Sendable {
    case sqlite(String)
    case postgres(String)

    /// Opens a store here, running for the duration of `body` when it is a service.
    func withStore<Result: Sendable>(
        _ body: @Sendable (any DocumentStore) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .sqlite(let path):
            return try await body(try SQLiteDocumentStore(path: path))
        case .postgres(let url):
            let store = try PostgresDocumentStore(url: url, logger: quietLogger)
            return try await withRunning(store) { try await body(store) }
        }
    }
}

extension StorePlace {
    /// Runs `statement` on the documents' tables directly, as another program would; `versions`
    /// in it names the table of versions on either backend.
    func execute(_ statement: String) async throws {
        switch self {
        case .sqlite(let path):
            try await DatabaseQueue(path: path).write { try $0.execute(sql: statement) }
        case .postgres(let url):
            try await PostgresTestServer.administer(
                statement.replacingOccurrences(of: "versions", with: "lab_versions"),
                at: url
            )
        }
    }
}

/// Runs `service` for the duration of `body`, then cancels it.
func withRunning<Result: Sendable>(
    _ store: PostgresDocumentStore,
    _ body: @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await store.run() }
        defer { group.cancelAll() }
        return try await body()
    }
}

let quietLogger: Logger = {
    var logger = Logger(label: "TributaryLabTests")
    logger.logLevel = .critical
    return logger
}()

/// The PostgreSQL server of the tests, on which each test makes a database of its own.
enum PostgresTestServer {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String {
            "TRIBUTARY_TEST_POSTGRES names no PostgreSQL server; `eval \"$(.ci/postgres)\"` starts one."
        }
    }

    static var url: String? { ProcessInfo.processInfo.environment["TRIBUTARY_TEST_POSTGRES"] }

    /// A new, empty database for the duration of `body`, which gets its URL; dropped afterwards.
    static func withDatabase<Result: Sendable>(
        _ body: @Sendable (String) async throws -> Result
    ) async throws -> Result {
        guard let server = url, var components = URLComponents(string: server) else { throw Unavailable() }
        let name = "lab_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await administer("CREATE DATABASE \(name)")
        components.path = "/\(name)"
        do {
            let result = try await body(components.string ?? server)
            try await administer("DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            _ = try? await administer("DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    /// Ends the connections that listen for the lab's notifications on the database of `url`,
    /// as a failing network would; returns how many it ended.
    static func terminateListeners(in database: String) async throws -> Int {
        try await administer(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()
            """,
            at: database
        )
    }

    @discardableResult
    static func administer(_ statement: String, at database: String? = nil) async throws -> Int {
        guard let url = database ?? url else { throw Unavailable() }
        let client = PostgresClient(
            configuration: try PostgresDocumentStore.configuration(url: url),
            backgroundLogger: quietLogger
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            var rows = 0
            for try await _ in try await client.query(
                PostgresQuery(unsafeSQL: statement),
                logger: quietLogger
            ) {
                rows += 1
            }
            return rows
        }
    }
}

/// A loopback port that nothing listens on.
func closedPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
    return Int(UInt16(bigEndian: address.sin_port))
}
