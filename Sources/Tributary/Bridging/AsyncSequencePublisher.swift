#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// Publishing an async sequence's elements.
extension AsyncSequence where Self: Sendable {
    /// This sequence as a publisher: its elements, then `.finished` when it ends, or the error
    /// it throws as the failure.
    ///
    /// Each subscription iterates the sequence in a task of its own, pulling an element only
    /// when the subscriber has asked for one; cancelling the subscription cancels the task.
    /// The failure type is the sequence's own: `Never` for an `AsyncStream`, the typed error of
    /// a sequence that throws one, `any Error` otherwise.
    ///
    /// ```swift
    /// let (ticks, continuation) = AsyncStream.makeStream(of: Int.self)
    /// ticks.publisher
    ///     .map { "tick \($0)" }
    ///     .sink { print($0) }
    /// ```
    public var publisher: AsyncSequencePublisher<Self> {
        AsyncSequencePublisher(self)
    }
}

/// A publisher of an async sequence's elements; see `AsyncSequence.publisher`.
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
    public typealias Output = Base.Element
    public typealias Failure = Base.Failure

    /// The sequence each subscription iterates.
    public let base: Base

    /// Creates a publisher of `base`'s elements.
    public init(_ base: Base) {
        self.base = base
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Inner(base: base, downstream: AnySubscriber(subscriber)))
    }
}

extension AsyncSequencePublisher {
    /// What one subscription knows, changed only under its lock.
    struct State {
        var demand = Subscribers.Demand.none
        /// Whether the iterating task has been started, by the first demand.
        var isStarted = false
        /// The iterating task, once started.
        var task: Task<Void, Never>?
        /// The iteration waiting for demand.
        var waiting: CheckedContinuation<Bool, Never>?
        var isCancelled = false

        /// Adds demand; returns the waiting iteration to resume, and whether to start one.
        mutating func add(
            _ more: Subscribers.Demand
        ) -> (resume: CheckedContinuation<Bool, Never>?, start: Bool) {
            guard !isCancelled else { return (nil, false) }
            demand += more
            guard demand > 0 else { return (nil, false) }
            defer {
                waiting = nil
                isStarted = true
            }
            return (waiting, !isStarted)
        }

        /// Takes one unit of demand: true when taken, false once cancelled, nil when the
        /// iteration must wait for some.
        mutating func takeDemand() -> Bool? {
            guard !isCancelled else { return false }
            guard demand > 0 else { return nil }
            demand -= 1
            return true
        }
    }

    private final class Inner: Subscription, @unchecked Sendable {
        // @unchecked: `state` is reached only under `lock`; the subscriber is called from the
        // iterating task alone, one event at a time; `base` is Sendable.
        private let lock = Lock()
        private var state = State()
        private let base: Base
        private let downstream: AnySubscriber<Output, Failure>

        init(base: Base, downstream: AnySubscriber<Output, Failure>) {
            self.base = base
            self.downstream = downstream
        }

        func request(_ demand: Subscribers.Demand) {
            let (resume, start) = lock.withLock { state.add(demand) }
            resume?.resume(returning: true)
            guard start else { return }
            let task = Task { await self.iterate() }
            let isCancelled = lock.withLock {
                state.task = task
                return state.isCancelled
            }
            if isCancelled { task.cancel() }
        }

        func cancel() {
            let (task, waiting) = lock.withLock {
                state.isCancelled = true
                defer { state.waiting = nil }
                return (state.task, state.waiting)
            }
            waiting?.resume(returning: false)
            task?.cancel()
        }

        /// Waits until there is demand for one more element, taking it; false once cancelled.
        private func demandForNext() async -> Bool {
            while true {
                if let taken = lock.withLock({ state.takeDemand() }) { return taken }
                let resumed = await withCheckedContinuation {
                    (continuation: CheckedContinuation<Bool, Never>) in
                    let now = lock.withLock { () -> Bool? in
                        if state.isCancelled { return false }
                        if state.demand > 0 { return true }
                        state.waiting = continuation
                        return nil
                    }
                    if let now { continuation.resume(returning: now) }
                }
                guard resumed else { return false }
            }
        }

        /// Pulls an element for each unit of demand and sends it: one lock an element, to add
        /// the demand it brings back and take the next, while demand lasts.
        private func iterate() async {
            var iterator = base.makeAsyncIterator()
            guard await demandForNext() else { return }
            do throws(Failure) {
                while true {
                    guard let element = try await iterator.next(isolation: nil) else {
                        if !Task.isCancelled { downstream.receive(completion: .finished) }
                        return
                    }
                    guard !Task.isCancelled else { return }
                    let more = downstream.receive(element)
                    let next = lock.withLock { () -> Bool? in
                        state.demand += more
                        return state.takeDemand()
                    }
                    switch next {
                    case true?: continue
                    case false?: return
                    case nil: guard await demandForNext() else { return }
                    }
                }
            } catch {
                if !Task.isCancelled { downstream.receive(completion: .failure(error)) }
            }
        }
    }
}
