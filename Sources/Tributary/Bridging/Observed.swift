public import Dispatch
import Observation

#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
    import OpenCombineDispatch
#endif

/// A publisher of whatever `read` returns from `@Observable` models: the value at once, then
/// the value after each change to anything `read` touched, on `scheduler`.
///
/// It is the bridge Observation lacks: an `@Observable` model has no `$property`, so its
/// inputs reach a Combine pipeline (a debounce, a `removeDuplicates`, a `Publisher.loadLatest(_:)`)
/// through `Observed`:
///
/// ```swift
/// @Observable final class Search { var query = ""; var category = "general" }
///
/// Observed { search.query }
///     .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
/// Observed(on: scheduler) { (search.query, search.category) }   // several properties at once
/// ```
///
/// - The first value is read as the subscription is made and sent as soon as there is demand.
/// - A change to any property `read` read last time schedules one new read on `scheduler`;
///   the value sent is the one *after* the change, never the old one that Observation's
///   `onChange` sees. Changes made before that read runs make one value: the latest.
/// - Only what the last read touched is tracked, so a property read on some paths only is
///   tracked exactly while it is read.
/// - Without demand the latest value waits, and only it; it is sent, on `scheduler`, when
///   demand arrives.
/// - Cancelling stops observing and lets go of `read`, and so of the models it captures.
///
/// `read` runs where the model may be read: as the subscription is made, and on `scheduler`.
/// A `@MainActor` model is read on the main queue, the default; a model confined to another
/// queue takes that queue as its scheduler (`Observed(on: queue) { model.state }`). For a
/// model confined to an actor, subscribe from that actor and pass a scheduler that runs on
/// its executor, or read on the main queue what the actor publishes there.
///
/// Change the model where it is read, on the scheduler's queue or actor: Observation tells of a
/// change just *before* it is made, so the read is scheduled to run after it, which holds when
/// both happen on one serial queue. A change made on another thread at the very moment the
/// scheduler reads may be missed. For the same reason the scheduler must run its actions later,
/// not at once: `ImmediateScheduler` would read the old value.
public struct Observed<Output>: Publisher {
    public typealias Failure = Never

    private let read: () -> Output
    private let enqueue: Enqueue

    /// Creates a publisher of what `read` returns.
    ///
    /// - Parameters:
    ///   - scheduler: Where values after changes are read and delivered; the main queue by
    ///     default.
    ///   - read: Reads the observed properties; it runs as the subscription is made and on
    ///     `scheduler` after every change.
    public init<S: Scheduler>(on scheduler: S = DispatchQueue.main, _ read: @escaping () -> Output) {
        self.read = read
        enqueue = SchedulerBox(scheduler).enqueue
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let inner = Inner(read: read, enqueue: enqueue, downstream: AnySubscriber(subscriber))
        inner.start()
        subscriber.receive(subscription: inner)
    }
}

extension Observed {
    typealias Enqueue = @Sendable (@escaping @Sendable () -> Void) -> Void

    /// A scheduler handed to whichever thread a change happens on.
    private final class SchedulerBox: @unchecked Sendable {
        // @unchecked: the scheduler is only asked to schedule, which every Combine scheduler
        // accepts from any thread.
        private let schedule: (@escaping () -> Void) -> Void

        init<S: Scheduler>(_ scheduler: S) {
            schedule = { action in scheduler.schedule(action) }
        }

        func enqueue(_ action: @escaping @Sendable () -> Void) {
            schedule(action)
        }
    }

    /// What one subscription knows, changed only under its lock.
    struct State {
        var downstream: AnySubscriber<Output, Never>?
        var read: (() -> Output)?
        var demand = Subscribers.Demand.none
        /// The latest value not yet sent.
        var pending: Output?
        /// Whether `pending` is the value read as the subscription was made.
        var pendingIsFirst = false
        /// Whether a value is being sent right now.
        var isSending = false
        /// Whether a delivery is scheduled on the scheduler.
        var isDrainScheduled = false

        var isCancelled: Bool { downstream == nil }

        /// What to do once `value` has been read after a change.
        mutating func store(_ value: Output) {
            pending = value
            pendingIsFirst = false
        }

        /// Takes the next value to send, if there is one, demand for it, and nobody sending.
        /// On the calling thread only the first value goes; a later one waits for a drain.
        mutating func take(onScheduler: Bool) -> (Output, AnySubscriber<Output, Never>)? {
            guard !isSending, demand > 0, let value = pending, let downstream else { return nil }
            guard onScheduler || pendingIsFirst else { return nil }
            pending = nil
            pendingIsFirst = false
            demand -= 1
            isSending = true
            return (value, downstream)
        }

        /// Whether a value waits for the scheduler, so a drain must be scheduled.
        mutating func needsDrain() -> Bool {
            guard !isDrainScheduled, !isCancelled, demand > 0, pending != nil, !isSending else {
                return false
            }
            isDrainScheduled = true
            return true
        }
    }

    private final class Inner: Subscription, @unchecked Sendable {
        // @unchecked: `state` is reached only under `lock`; `read` runs where the caller
        // promised it may (as the subscription is made, and on the scheduler), and the
        // subscriber is called outside the lock, one value at a time.
        private let lock = Lock()
        private var state: State
        private let enqueue: Enqueue
        /// What Observation calls before a change, and what it schedules: made once, so that a
        /// change allocates no closure of its own.
        private var onChange: @Sendable () -> Void = {}
        private var reread: @Sendable () -> Void = {}

        init(
            read: @escaping () -> Output,
            enqueue: @escaping Enqueue,
            downstream: AnySubscriber<Output, Never>
        ) {
            state = State(downstream: downstream, read: read)
            self.enqueue = enqueue
            reread = { [weak self] in self?.readAfterChange() }
            onChange = { [weak self] in
                // Cancelled or not, the read on the scheduler finds out; no lock is taken here,
                // on the thread that is changing the model.
                guard let self else { return }
                self.enqueue(self.reread)
            }
        }

        /// Reads the first value, tracking what it touches.
        func start() {
            guard let read = lock.withLock({ state.read }) else { return }
            let value = track(read)
            lock.withLock {
                state.pending = value
                state.pendingIsFirst = true
            }
        }

        func request(_ demand: Subscribers.Demand) {
            let drain = lock.withLock {
                state.demand += demand
                return state.needsDrain()
            }
            send(onScheduler: false)
            if drain { scheduleDrain() }
        }

        func cancel() {
            lock.withLock {
                state.downstream = nil
                state.read = nil
                state.pending = nil
            }
        }

        private func track(_ read: () -> Output) -> Output {
            withObservationTracking(read, onChange: onChange)
        }

        /// Reads the value after a change, on the scheduler, and sends it if asked for.
        private func readAfterChange() {
            guard let read = lock.withLock({ state.read }) else { return }
            let value = track(read)
            let taken = lock.withLock { () -> (Output, AnySubscriber<Output, Never>)? in
                guard !state.isCancelled else { return nil }
                state.store(value)
                return state.take(onScheduler: true)
            }
            guard let (value, downstream) = taken else { return }
            deliver(value, to: downstream, onScheduler: true)
        }

        private func scheduleDrain() {
            enqueue { [weak self] in
                guard let self else { return }
                lock.withLock { state.isDrainScheduled = false }
                send(onScheduler: true)
            }
        }

        /// Sends what may be sent from here, one value at a time, adding the demand each
        /// value brings back.
        private func send(onScheduler: Bool) {
            guard let (value, downstream) = lock.withLock({ state.take(onScheduler: onScheduler) }) else {
                return
            }
            deliver(value, to: downstream, onScheduler: onScheduler)
        }

        /// Sends `value`, taken under the lock, then each value that waits, one lock a value.
        private func deliver(_ value: Output, to downstream: AnySubscriber<Output, Never>, onScheduler: Bool)
        {
            var next: (Output, AnySubscriber<Output, Never>)? = (value, downstream)
            while let (value, downstream) = next {
                let more = downstream.receive(value)
                let drain: Bool
                (next, drain) = lock.withLock {
                    state.isSending = false
                    state.demand += more
                    let next = state.take(onScheduler: onScheduler)
                    return (next, next == nil && !onScheduler && state.needsDrain())
                }
                if drain { scheduleDrain() }
            }
        }
    }
}
