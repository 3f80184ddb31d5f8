import Foundation
import Logging
import PostgresNIO
import Tributary
import TributaryStreams

/// Saves and deletions passed between instances: `NOTIFY` on each, a connection that listens.
extension PostgresDocumentStore {
    public func changes() -> AsyncStream<DocumentChange> {
        let (stream, continuation) = AsyncStream<DocumentChange>.makeStream()
        let number = followers.withLock { followers in
            followers.next += 1
            followers.streams[followers.next] = continuation
            return followers.next
        }
        continuation.onTermination = { [weak self] _ in
            self?.followers.withLock { $0.streams[number] = nil }
        }
        return stream
    }

    /// Listens on a connection of its own, again after a lost connection, until cancelled.
    func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        failures = 0
                        self.broadcast(.missed)
                        for try await notification in notifications {
                            if let change = Self.change(notification.payload) { self.broadcast(change) }
                        }
                    }
                }
            } catch {
                logger.warning("The lab lost its PostgreSQL notifications: \(String(reflecting: error))")
            }
            failures += 1
            let delay = min(0.05 * Double(1 << min(failures, 6)), 2)
            try? await Task.sleep(for: .seconds(delay))
        }
    }

    func broadcast(_ change: DocumentChange) {
        let current = followers.withLock { Array($0.streams.values) }
        for follower in current { follower.yield(change) }
    }

    struct Notice: Codable {
        var id: String
        var version: Int?
    }

    static func payload(id: String, version: Int?) -> String {
        let data = (try? JSONEncoder().encode(Notice(id: id, version: version))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func change(_ payload: String) -> DocumentChange? {
        guard let notice = try? JSONDecoder().decode(Notice.self, from: Data(payload.utf8)),
            DocumentID.isWellFormed(notice.id)
        else { return nil }
        return notice.version.map { .saved(id: notice.id, version: $0) } ?? .deleted(id: notice.id)
    }
}
