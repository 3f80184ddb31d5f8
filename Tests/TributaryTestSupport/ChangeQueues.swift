import Dispatch
import Observation

/// Whether each change of what `read` reads was made on the main queue, in order. Tracking is
/// set again on the main queue after each change, so that changes made before that count once.
public final class ChangeQueues: @unchecked Sendable {
    // @unchecked: `seen` is locked; the key is only read, and set once on the main queue.
    private let seen = Locked<[Bool]>([])
    private let key = DispatchSpecificKey<Bool>()

    @MainActor
    public init(_ read: @escaping @MainActor () -> Void) {
        DispatchQueue.main.setSpecific(key: key, value: true)
        arm(read)
    }

    /// Whether each change so far was made on the main queue.
    public var onMain: [Bool] { seen.current }

    @MainActor
    private func arm(_ read: @escaping @MainActor () -> Void) {
        withObservationTracking(read) { [self] in
            seen.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) }
            DispatchQueue.main.async { MainActor.assumeIsolated { self.arm(read) } }
        }
    }
}
