import GRDB
import Tributary

/// A few read-only connections for reads as short as one row by its key, made in place on the
/// calling thread: for those, the hop to a reader's queue and back costs more than the read.
/// Through the queue, `GET /api/streams/{id}` answered at 0.59× of a Hummingbird route serving
/// the same bytes from memory; in place, at 0.98–1.18× (docs/Benchmarks.md, the lab's table).
///
/// A read never waits: when every connection is in use, or SQLite is busy, ``read(_:)`` returns
/// nil and the caller reads through the pool as usual, so a thread the server answers on is
/// never held waiting for a connection.
final class InPlaceReaders: Sendable {
    private let connections: [DatabaseQueue]
    /// The connections not in use.
    private let free: Protected<[Int]>

    init(path: String, count: Int) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .immediateError
        connections = try (0..<count).map { _ in try DatabaseQueue(path: path, configuration: configuration) }
        free = Protected(Array(connections.indices))
    }

    /// What `body` reads on a free connection, on this thread; nil when no connection is free or
    /// the read fails, for the caller to read the usual way.
    ///
    /// `body` runs outside a transaction: it is for one statement, which SQLite runs on one
    /// snapshot anyway, and a transaction around it would cost as much as the read.
    func read<Value>(_ body: (Database) throws -> Value) -> Value? {
        guard let index = free.withLock({ $0.popLast() }) else { return nil }
        defer { free.withLock { $0.append(index) } }
        return try? connections[index].inDatabase(body)
    }
}
