#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// A publisher that runs an async operation once per subscription and publishes its result.
///
/// Nothing runs before a subscriber asks for a value; each subscription runs the operation
/// anew in its own task; cancelling the subscription cancels that task, so the operation sees
/// `Task.isCancelled` and its awaits throw `CancellationError`.
///
/// ```swift
/// let page = AsyncOperationPublisher { () async throws(APIError) -> Page in
///     try await client.send(request)
/// }
/// ```
public struct AsyncOperationPublisher<Output: Sendable, Failure: Error>: Publisher {
    let operation: @Sendable () async throws(Failure) -> Output

    /// Creates a publisher that runs `operation` for each subscriber.
    public init(_ operation: @escaping @Sendable () async throws(Failure) -> Output) {
        self.operation = operation
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Inner(downstream: AnySubscriber(subscriber), operation: operation))
    }
}

extension AsyncOperationPublisher {
    /// Runs `operation` in a new task and hands its result to `deliver`.
    fileprivate static func start(
        _ operation: @escaping @Sendable () async throws(Failure) -> Output,
        then deliver: @escaping @Sendable (Result<Output, Failure>) -> Void
    ) -> Task<Void, Never> {
        Task {
            do throws(Failure) {
                deliver(.success(try await operation()))
            } catch {
                deliver(.failure(error))
            }
        }
    }

    /// @unchecked Sendable: `state` is only read or written under `lock`; the downstream it
    /// holds is taken out under the lock by exactly one caller and used once.
    /// The downstream is type-erased so that the task delivering to it captures no
    /// subscriber type.
    private final class Inner: Subscription, CustomStringConvertible, @unchecked Sendable {
        typealias Downstream = AnySubscriber<Output, Failure>

        private enum State {
            case waiting(Downstream)
            case running(Downstream, Task<Void, Never>?)
            case done
        }

        private let lock = Lock()
        private var state: State
        private let operation: @Sendable () async throws(Failure) -> Output

        init(downstream: Downstream, operation: @escaping @Sendable () async throws(Failure) -> Output) {
            state = .waiting(downstream)
            self.operation = operation
        }

        var description: String { "AsyncOperation" }

        func request(_ demand: Subscribers.Demand) {
            let shouldStart = lock.withLock {
                guard demand > .none, case .waiting(let downstream) = state else { return false }
                state = .running(downstream, nil)
                return true
            }
            guard shouldStart else { return }
            let task = AsyncOperationPublisher.start(operation) { [self] result in
                finish(with: result)
            }
            let isCancelled = lock.withLock {
                guard case .running(let downstream, nil) = state else { return true }
                state = .running(downstream, task)
                return false
            }
            if isCancelled {
                task.cancel()
            }
        }

        func cancel() {
            let task: Task<Void, Never>? = lock.withLock {
                defer { state = .done }
                guard case .running(_, let task) = state else { return nil }
                return task
            }
            task?.cancel()
        }

        private func finish(with result: Result<Output, Failure>) {
            let downstream: Downstream? = lock.withLock {
                defer { state = .done }
                guard case .running(let downstream, _) = state else { return nil }
                return downstream
            }
            guard let downstream else { return }
            switch result {
            case .success(let output):
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            case .failure(let failure):
                downstream.receive(completion: .failure(failure))
            }
        }
    }
}
