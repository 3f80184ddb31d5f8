#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// A publisher of the values an async operation sends as it goes: the operation runs in a task
/// of its own for each subscription, from the first demand's arrival until it returns, throws
/// or the subscription is cancelled.
///
/// Values the subscriber has not asked for yet are kept, in order, as ``DelegateEvents`` keeps
/// them; returning finishes the publisher and throwing fails it.
///
/// ```swift
/// let ticks = AsyncEventsPublisher<Int, Never> { send in
///     for tick in 1... {
///         try? await Task.sleep(for: .seconds(1))
///         if Task.isCancelled { return }
///         send(tick)
///     }
/// }
/// ```
public struct AsyncEventsPublisher<Output: Sendable, Failure: Error>: Publisher {
    /// The operation: it calls `send` with each value.
    public typealias Operation =
        @Sendable (_ send: @escaping @Sendable (Output) -> Void) async throws(Failure) -> Void

    let operation: Operation

    /// Creates a publisher that runs `operation` for each subscriber.
    public init(_ operation: @escaping Operation) {
        self.operation = operation
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let run = Run(operation)
        run.events.handleEvents(receiveCancel: { withExtendedLifetime(run) {} }).receive(
            subscriber: subscriber
        )
    }

    /// One subscription's run of the operation.
    private final class Run: @unchecked Sendable {
        // @unchecked: `events` is written once, in `init`; the task is reached under its lock.
        private(set) var events: DelegateEvents<Output, Failure>!
        /// The operation's task, and whether the last subscriber has left.
        private let task = Protected<(running: Task<Void, Never>?, isStopped: Bool)>((nil, false))
        private let operation: Operation

        init(_ operation: @escaping Operation) {
            self.operation = operation
            events = DelegateEvents(
                onActive: { [weak self] in self?.start() },
                // The task, not the run: the run may be gone by the time the last subscriber
                // has left, and its task must end all the same.
                onInactive: { [task] in
                    task.withLock { state in
                        state.isStopped = true
                        return state.running
                    }?.cancel()
                }
            )
        }

        private func start() {
            let (events, operation) = (events!, operation)
            let started = Task {
                do throws(Failure) {
                    try await operation { events.send($0) }
                    events.send(completion: .finished)
                } catch {
                    events.send(completion: .failure(error))
                }
            }
            // A subscriber that left while the task was being made cancels it here.
            let isStopped = task.withLock { state in
                state.running = started
                return state.isStopped
            }
            if isStopped { started.cancel() }
        }
    }
}
