import ServiceLifecycle
import TributaryLabWire
import TributaryStreams

/// Brings this instance's viewers the saves and deletions made through other instances that
/// share the store.
struct LiveFollower: Service {
    let store: any SharedDocumentStore
    let hub: LiveHub

    func run() async throws {
        for await change in store.changes().cancelOnGracefulShutdown() {
            await apply(change)
        }
    }

    private func apply(_ change: DocumentChange) async {
        switch change {
        case .saved(let id, let version):
            // A save through this instance has reached its viewers already.
            guard hub.awaits(id, version: version) else { return }
            do throws(DocumentStoreError) {
                hub.publish(try await store.version(id, number: version))
            } catch {
                if case .notFound = error { hub.publishDeletion(of: id) }
            }
        case .deleted(let id):
            hub.publishDeletion(of: id)
        case .missed:
            for id in hub.viewedDocuments() {
                do throws(DocumentStoreError) {
                    hub.publish(try await store.document(id))
                } catch {
                    if case .notFound = error { hub.publishDeletion(of: id) }
                }
            }
        }
    }
}
