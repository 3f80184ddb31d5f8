public import Dispatch
public import Tributary

/// A scheduler of `DispatchQueue`'s time whose clock moves only when told to, from one
/// scheduled action to the next, so that a pipeline written for the main queue runs in
/// virtual time, the same every time.
///
/// ``MarbleTest`` runs one; it also serves alone wherever a pipeline takes a
/// `DispatchQueue`-timed scheduler:
///
/// ```swift
/// let scheduler = MarbleScheduler()
/// let cancellable = Just(1).delay(for: .seconds(1), scheduler: scheduler).sink { print($0) }
/// scheduler.flush()   // prints 1; `scheduler.elapsed` is one second
/// ```
///
/// Actions due at the same instant run in the order they were scheduled, as RxJS's
/// `TestScheduler` and combine-schedulers' `TestScheduler` run them.
public final class MarbleScheduler: Scheduler, Sendable {
    public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    public typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    /// Frame zero, in `DispatchTime` nanoseconds: one, as `DispatchTime(uptimeNanoseconds: 0)`
    /// means "now" to Dispatch.
    static let origin: UInt64 = 1

    private let state = Protected(Queue())

    /// Creates a scheduler whose clock stands at frame zero.
    public init() {}

    public var now: SchedulerTimeType {
        SchedulerTimeType(DispatchTime(uptimeNanoseconds: state.withLock { $0.now }))
    }

    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Virtual time since frame zero.
    public var elapsed: Duration { .nanoseconds(Int64(clamping: state.withLock { $0.now } - Self.origin)) }

    /// Whether an action is waiting to run.
    public var hasScheduledActions: Bool { state.withLock { !$0.actions.isEmpty } }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        state.withLock { $0.add(Action(action), at: nil) }
    }

    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        state.withLock { $0.add(Action(action), at: date.dispatchTime.uptimeNanoseconds) }
    }

    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let timer = Repeating(every: UInt64(max(interval.magnitude, 1)), action)
        fire(timer, at: date.dispatchTime.uptimeNanoseconds)
        return AnyCancellable { timer.cancel() }
    }

    /// Runs every action due until none is left, moving the clock to each as it runs, but not
    /// further than `limit` from now, where a timer that repeats for ever stops. The clock
    /// ends at the last action run.
    ///
    /// - Parameter limit: How far the clock may move at most.
    /// - Returns: Whether actions are left, due past `limit`.
    @discardableResult
    public func flush(within limit: Duration = .seconds(3_600)) -> Bool {
        runActions(within: limit)
        return hasScheduledActions
    }

    /// Moves the clock on by `duration`, running every action due on the way.
    public func advance(by duration: Duration) {
        let end = runActions(within: duration)
        state.withLock { $0.now = max($0.now, end) }
    }

    /// Runs every action due within `duration` from now, in order; returns that end.
    @discardableResult
    private func runActions(within duration: Duration) -> UInt64 {
        let end = state.withLock { $0.now } &+ Self.nanoseconds(duration)
        while let action = state.withLock({ $0.next(through: end) }) {
            action.run()
        }
        return end
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : whole + UInt64(attoseconds / 1_000_000_000)
    }

    private func fire(_ timer: Repeating, at due: UInt64) {
        state.withLock {
            $0.add(
                Action { [weak self] in
                    guard let self, timer.isRunning else { return }
                    timer.action()
                    fire(timer, at: due &+ timer.interval)
                },
                at: due
            )
        }
    }

    /// An action and when it was scheduled.
    private struct Action: @unchecked Sendable {
        // @unchecked: actions are run by whoever flushes, one at a time, as a scheduler's
        // actions are.
        var run: () -> Void
        var due: UInt64 = 0
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// The clock and the actions waiting, in the order they run.
    private struct Queue {
        var now = MarbleScheduler.origin
        var actions: [Action] = []

        /// Adds `action` at `due`, or now; after every action due at the same instant.
        mutating func add(_ action: Action, at due: UInt64?) {
            var action = action
            action.due = max(due ?? now, now)
            var low = 0
            var high = actions.count
            while low < high {
                let middle = (low + high) / 2
                if actions[middle].due <= action.due { low = middle + 1 } else { high = middle }
            }
            actions.insert(action, at: low)
        }

        /// Takes the first action due by `end`, moving the clock to it.
        mutating func next(through end: UInt64) -> Action? {
            guard let first = actions.first, first.due <= end else { return nil }
            actions.removeFirst()
            now = max(now, first.due)
            return first
        }
    }

    /// A timer that schedules its next firing as it fires, until cancelled.
    private final class Repeating: Sendable {
        let interval: UInt64
        private let running = Protected(true)
        private let body: Action

        init(every interval: UInt64, _ action: @escaping () -> Void) {
            self.interval = interval
            body = Action(action)
        }

        var isRunning: Bool { running.withLock { $0 } }
        func action() { body.run() }
        func cancel() { running.withLock { $0 = false } }
    }
}
