import Foundation
import NIOCore
import Testing
import TributaryLabWire
import TributaryStreams
import TributaryTestSupport

@testable import TributaryLab

/// What one viewer of a hub was sent.
final class HubInbox: Sendable {
    private let received = Locked<[(text: ByteBuffer, isSnapshot: Bool)]>([])

    var viewer: LiveHub.Viewer {
        LiveHub.Viewer(
            deliver: { text, isSnapshot in
                self.received.withLock { $0.append((text, isSnapshot)) }
                return true
            },
            disconnect: {}
        )
    }

    /// The snapshots, as sent.
    var snapshots: [ByteBuffer] { received.current.filter(\.isSnapshot).map(\.text) }

    /// The presence messages, as text.
    var presence: [String] {
        received.current.map { String(buffer: $0.text) }.filter { $0.contains(#""presence""#) }
    }
}

/// A snapshot is encoded once per version and kept after its viewers leave, within the hub's
/// bytes: a viewer who comes back, or many who come and go, cost no read of the document.
@Suite(.timeLimit(.minutes(1)))
struct LiveHubSnapshotTests {
    static func stored(_ id: DocumentID, version: Int, name: String = "p") throws -> SharedDocument {
        let document = try JSONDecoder().decode(
            StreamDocument.self,
            from: TributaryLabTests.document(named: name)
        )
        return SharedDocument(id: id, version: version, updatedAt: Date(), author: "a", document: document)
    }

    @Test func keepsASnapshotAfterItsViewersLeave() throws {
        let hub = LiveHub()
        let id = DocumentID.random()
        let first = HubInbox()
        let viewer = hub.join(id, first.viewer)
        #expect(!hub.showKept(id, version: 1, to: viewer))
        hub.show(try Self.stored(id, version: 1), to: viewer)
        hub.leave(id, viewer)

        let again = HubInbox()
        let returning = hub.join(id, again.viewer)
        #expect(hub.showKept(id, version: 1, to: returning))
        #expect(again.snapshots == first.snapshots)
        #expect(again.snapshots.count == 1)
        // Shown that version already, the viewer is not sent it twice.
        #expect(hub.showKept(id, version: 1, to: returning))
        #expect(again.snapshots.count == 1)
        // Another version is not kept, and a deleted document keeps nothing.
        #expect(!hub.showKept(id, version: 2, to: returning))
        hub.publishDeletion(of: id)
        #expect(!hub.showKept(id, version: 1, to: hub.join(id, HubInbox().viewer)))
    }

    /// A save that reached a viewer before its snapshot is not passed over by a kept, older one.
    @Test func aSaveWaitingForTheViewerComesBeforeTheKeptSnapshot() throws {
        let hub = LiveHub()
        let id = DocumentID.random()
        let earlier = hub.join(id, HubInbox().viewer)
        hub.show(try Self.stored(id, version: 1), to: earlier)
        let inbox = HubInbox()
        let viewer = hub.join(id, inbox.viewer)
        hub.publish(try Self.stored(id, version: 2))
        #expect(!hub.showKept(id, version: 1, to: viewer))
        hub.show(try Self.stored(id, version: 1), to: viewer)
        let sent = try #require(inbox.snapshots.first)
        #expect(String(buffer: sent).contains(#""version":2"#))
    }

    /// Snapshots past the hub's bytes leave, the least recently shown first.
    @Test func keepsNoMoreThanItsBytes() throws {
        let probe = LiveMessage.snapshot(try Self.stored(DocumentID.random(), version: 1)).readableBytes
        let hub = LiveHub(snapshotBytes: probe * 2 + probe / 2)
        let ids = (0..<3).map { _ in DocumentID.random() }
        for id in ids {
            let viewer = hub.join(id, HubInbox().viewer)
            hub.show(try Self.stored(id, version: 1), to: viewer)
            hub.leave(id, viewer)
        }
        #expect(!hub.showKept(ids[0], version: 1, to: hub.join(ids[0], HubInbox().viewer)))
        #expect(hub.showKept(ids[1], version: 1, to: hub.join(ids[1], HubInbox().viewer)))
        #expect(hub.showKept(ids[2], version: 1, to: hub.join(ids[2], HubInbox().viewer)))
    }
}
