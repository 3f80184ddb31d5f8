import ServiceLifecycle
public import TributaryLabWire

/// A change one lab instance made to a store that several share, for the viewers of every
/// instance: a document saved or a recording grown, or either deleted.
public enum StoreChange: Sendable, Hashable {
    /// Document `id` was saved as version `count`, or recording `id` holds `count` events now.
    case changed(id: DocumentID, count: Int)
    /// `id` was deleted.
    case deleted(id: DocumentID)
    /// Changes may have been lost — the connection that brings them was down — so whatever is
    /// shown of any document or recording is to be read again.
    case missed
}

/// Applies, in the order they were committed, the changes a shared store reports, until the
/// lab stops: how the saves and deletions made through other instances reach this one's
/// viewers, of documents (``DocumentService/follow(_:)``) and of recordings
/// (``RecordingService/follow(_:)``) alike.
struct ChangeFollower: Service {
    let changes: @Sendable () -> AsyncStream<StoreChange>
    let apply: @Sendable (StoreChange) async -> Void

    func run() async throws {
        for await change in changes().cancelOnGracefulShutdown() {
            await apply(change)
        }
    }
}
