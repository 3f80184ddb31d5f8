import Foundation
import Logging
import PostgresNIO
import Tributary
import TributaryLabWire
import TributaryStreams

/// Saves and deletions passed between instances: `NOTIFY` on each, a connection that listens.
extension PostgresDocumentStore {
    public func changes() -> AsyncStream<StoreChange> { followers.stream() }

    /// Listens on a connection of its own, again after a lost connection, until cancelled.
    func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        failures = 0
                        self.followers.broadcast(.missed)
                        self.recordingFollowers.broadcast(.missed)
                        for try await notification in notifications {
                            if let change = Self.change(notification.payload) {
                                self.followers.broadcast(change)
                            } else if let change = PostgresRecordingStore.change(notification.payload) {
                                self.recordingFollowers.broadcast(change)
                            }
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

    struct Notice: Codable {
        var id: DocumentID
        var version: Int?
    }

    static func payload(id: DocumentID, version: Int?) -> String {
        let data = (try? JSONEncoder().encode(Notice(id: id, version: version))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func change(_ payload: String) -> StoreChange? {
        // A payload whose id is not an id does not decode.
        guard let notice = try? JSONDecoder().decode(Notice.self, from: Data(payload.utf8)) else {
            return nil
        }
        return notice.version.map { .changed(id: notice.id, count: $0) } ?? .deleted(id: notice.id)
    }
}
