import ServiceLifecycle
import TributaryLabWire

/// Brings this instance's viewers of recordings the events stored, and the deletions made,
/// through other instances that share the store.
struct RecordingFollower: Service {
    let store: any SharedRecordingStore
    let service: RecordingService

    func run() async throws {
        for await change in store.changes().cancelOnGracefulShutdown() {
            await apply(change)
        }
    }

    private func apply(_ change: RecordingChange) async {
        switch change {
        case .grew(let id, let events):
            // Events stored through this instance have reached its viewers already.
            guard let behind = service.hub.behind(id, events: events) else { return }
            await service.catchUp(id, from: behind)
        case .deleted(let id):
            service.hub.publishDeletion(of: id)
        case .missed:
            for id in service.hub.viewedRecordings() {
                do throws(RecordingStoreError) {
                    let recording = try await store.recording(id)
                    if let behind = service.hub.behind(id, events: recording.events) {
                        await service.catchUp(id, from: behind)
                    }
                } catch {
                    if case .notFound = error { service.hub.publishDeletion(of: id) }
                }
            }
        }
    }
}
