import Foundation
public import Tributary

/// A scheduler whose clock moves only when told to, jumping from one scheduled action to the
/// next: a run of hours takes as long as its actions do, and is the same every time.
///
/// It behaves as combine-schedulers' `TestScheduler` does — actions due at the same instant
/// run in the order they were scheduled — but keeps its actions in a binary heap, so that a
/// run with a hundred thousand pending actions costs O(log n) per action instead of a scan
/// of them all.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// let subscription = publisher.delay(for: .seconds(1), scheduler: scheduler).sink { print($0) }
/// scheduler.advance(by: .seconds(1))
/// ```
public final class VirtualTimeScheduler: Scheduler, @unchecked Sendable {
    // @unchecked: `queue`, `now` and the counters are reached only under `lock`; actions run
    // outside it.

    /// A point in virtual time, in nanoseconds since the scheduler was made.
    public struct Time: Strideable, Hashable, Sendable {
        /// Nanoseconds since the scheduler was made.
        public var nanoseconds: Int64

        public func distance(to other: Time) -> Duration {
            Duration(nanoseconds: other.nanoseconds.clampedSubtracting(nanoseconds))
        }
        public func advanced(by duration: Duration) -> Time {
            Time(nanoseconds: nanoseconds.clampedAdding(duration.nanoseconds))
        }

        /// Seconds since the scheduler was made.
        public var seconds: Double { Double(nanoseconds) / 1e9 }
    }

    /// A span of virtual time. Arithmetic past the range of nanoseconds in an `Int64` (about
    /// 292 years) holds at its end rather than trapping, so a huge delay simply never comes.
    public struct Duration: Comparable, Hashable, Sendable, SignedNumeric, SchedulerTimeIntervalConvertible {
        /// The span's length in nanoseconds; negative for a span back in time.
        public var nanoseconds: Int64

        /// Makes a span of `nanoseconds` nanoseconds.
        public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
        public init(integerLiteral value: Int64) { nanoseconds = value.clampedMultiplied(by: 1_000_000_000) }
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let value = Int64(exactly: source) else { return nil }
            nanoseconds = value.clampedMultiplied(by: 1_000_000_000)
        }

        public var magnitude: Int64 {
            nanoseconds.magnitude > UInt64(Int64.max) ? Int64.max : Int64(nanoseconds.magnitude)
        }

        public static func < (lhs: Duration, rhs: Duration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
        public static func + (lhs: Duration, rhs: Duration) -> Duration {
            Duration(nanoseconds: lhs.nanoseconds.clampedAdding(rhs.nanoseconds))
        }
        public static func - (lhs: Duration, rhs: Duration) -> Duration {
            Duration(nanoseconds: lhs.nanoseconds.clampedSubtracting(rhs.nanoseconds))
        }
        public static func * (lhs: Duration, rhs: Duration) -> Duration {
            let (product, overflow) = lhs.nanoseconds.multipliedReportingOverflow(by: rhs.nanoseconds)
            guard overflow else { return Duration(nanoseconds: product / 1_000_000_000) }
            return Duration(
                nanoseconds: Int64(clamping: Double(lhs.nanoseconds) * Double(rhs.nanoseconds) / 1e9)
            )
        }
        public static func += (lhs: inout Duration, rhs: Duration) { lhs = lhs + rhs }
        public static func -= (lhs: inout Duration, rhs: Duration) { lhs = lhs - rhs }
        public static func *= (lhs: inout Duration, rhs: Duration) { lhs = lhs * rhs }

        public static func seconds(_ s: Int) -> Duration {
            Duration(nanoseconds: Int64(s).clampedMultiplied(by: 1_000_000_000))
        }
        /// `s` seconds; not a number is no time.
        public static func seconds(_ s: Double) -> Duration {
            Duration(nanoseconds: Int64(clamping: s * 1e9))
        }
        public static func milliseconds(_ ms: Int) -> Duration {
            Duration(nanoseconds: Int64(ms).clampedMultiplied(by: 1_000_000))
        }
        public static func microseconds(_ us: Int) -> Duration {
            Duration(nanoseconds: Int64(us).clampedMultiplied(by: 1_000))
        }
        public static func nanoseconds(_ ns: Int) -> Duration { Duration(nanoseconds: Int64(ns)) }
    }

    public typealias SchedulerTimeType = Time
    public typealias SchedulerOptions = Never

    /// What the heap orders: plain values, so that moving them costs no reference counting.
    private struct Key {
        var time: Int64
        var order: UInt64
        var slot: Int

        func runsBefore(_ other: Key) -> Bool {
            (time, order) < (other.time, other.order)
        }
    }

    /// An action waiting in the heap, stored apart from its key.
    private struct Slot {
        var action: (() -> Void)?
        var interval: Duration?
        var id: UInt64
        var isCancelled = false
    }

    private let lock = NSLock()
    private var heap: [Key] = []
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var current = Time(nanoseconds: 0)
    private var nextOrder: UInt64 = 0

    /// Creates a scheduler at time zero.
    public init() {}

    public var now: Time { lock.withLock { current } }
    public var minimumTolerance: Duration { Duration(nanoseconds: 0) }

    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        _ = enqueue(at: nil, interval: nil, action)
    }

    public func schedule(
        after date: Time,
        tolerance: Duration,
        options: Never?,
        _ action: @escaping () -> Void
    ) {
        _ = enqueue(at: date, interval: nil, action)
    }

    public func schedule(
        after date: Time,
        interval: Duration,
        tolerance: Duration,
        options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let (slot, id) = enqueue(at: date, interval: interval, action)
        return AnyCancellable { [weak self] in
            guard let self else { return }
            // The action goes at once, not when its time comes: it may hold what holds this
            // scheduler. It is dropped outside the lock, since dropping it may cancel more.
            let action = lock.withLock { () -> (() -> Void)? in
                guard slots[slot].id == id else { return nil }
                slots[slot].isCancelled = true
                return slots[slot].action.take()
            }
            withExtendedLifetime(action) {}
        }
    }

    /// Drops every waiting action without running it; the clock stays where it is.
    ///
    /// An action waiting past the end of a run holds the pipeline that scheduled it — a
    /// debounce's pending value, say, which no `Cancellable` can withdraw — and the pipeline
    /// holds the scheduler. Discarding the actions lets both go.
    public func discardPendingActions() {
        let discarded = lock.withLock { () -> [Slot] in
            let discarded = slots
            heap = []
            slots = []
            freeSlots = []
            return discarded
        }
        withExtendedLifetime(discarded) {}
    }

    /// Runs every action due up to `now + duration`, in time order, then sets the clock there.
    public func advance(by duration: Duration = Duration(nanoseconds: 0)) {
        let target = now.advanced(by: duration)
        while let action = popDue(before: target) {
            action()
        }
        lock.withLock { current = Swift.max(current, target) }
    }

    /// Runs every action due up to `now + duration`, in time order, asking `proceed` before each;
    /// returns false, leaving the rest waiting, once it answers false.
    func advance(by duration: Duration, while proceed: () -> Bool) -> Bool {
        let target = now.advanced(by: duration)
        while proceed() {
            guard let action = popDue(before: target) else {
                lock.withLock { current = Swift.max(current, target) }
                return true
            }
            action()
        }
        return false
    }

    /// Runs actions until none is left, or until the clock would pass `limit`.
    public func run(until limit: Time) {
        while let action = popDue(before: limit) {
            action()
        }
    }

    /// Whether actions are waiting.
    public var hasPendingActions: Bool { lock.withLock { !heap.isEmpty } }

    @discardableResult
    private func enqueue(at date: Time?, interval: Duration?, _ action: @escaping () -> Void) -> (Int, UInt64)
    {
        lock.withLock {
            let order = nextOrder
            nextOrder += 1
            let entry = Slot(action: action, interval: interval, id: order)
            let slot: Int
            if let reused = freeSlots.popLast() {
                slot = reused
                slots[slot] = entry
            } else {
                slot = slots.count
                slots.append(entry)
            }
            let time = Swift.max(date ?? current, current)
            push(Key(time: time.nanoseconds, order: order, slot: slot))
            return (slot, order)
        }
    }

    /// Takes the earliest action due at or before `limit`, moving the clock to its time.
    private func popDue(before limit: Time) -> (() -> Void)? {
        lock.withLock {
            while let first = heap.first, first.time <= limit.nanoseconds {
                let key = pop()
                let slot = slots[key.slot]
                guard !slot.isCancelled, let action = slot.action else {
                    release(key.slot)
                    continue
                }
                current = Time(nanoseconds: key.time)
                // A repetition past the end of time never comes.
                if let interval = slot.interval,
                    case let (next, overflow) = key.time.addingReportingOverflow(
                        Swift.max(interval.nanoseconds, 1)
                    ),
                    !overflow
                {
                    let order = nextOrder
                    nextOrder += 1
                    push(Key(time: next, order: order, slot: key.slot))
                } else {
                    release(key.slot)
                }
                return action
            }
            return nil
        }
    }

    private func release(_ slot: Int) {
        slots[slot].action = nil
        slots[slot].isCancelled = false
        slots[slot].id = .max
        freeSlots.append(slot)
    }

    /// Sifts the new key up from the end, moving parents down into the hole rather than
    /// swapping, over the heap's storage directly.
    private func push(_ key: Key) {
        heap.append(key)
        heap.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard key.runsBefore(heap[parent]) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = key
        }
    }

    /// Removes the first key; the last one sifts down from the root into the hole.
    private func pop() -> Key {
        let first = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap.withUnsafeMutableBufferPointer { heap in
            let count = heap.count
            var parent = 0
            while true {
                var child = 2 * parent + 1
                guard child < count else { break }
                if child + 1 < count, heap[child + 1].runsBefore(heap[child]) { child += 1 }
                guard heap[child].runsBefore(last) else { break }
                heap[parent] = heap[child]
                parent = child
            }
            heap[parent] = last
        }
        return first
    }
}

extension VirtualTimeScheduler.Time: Comparable {
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}

extension Int64 {
    /// The nearest value to `value`, rounded: the range's ends for values past them, 0 for not
    /// a number.
    init(clamping value: Double) {
        let rounded = value.rounded()
        if rounded.isNaN {
            self = 0
        } else if rounded >= 0x1p63 {
            self = .max
        } else if rounded < -0x1p63 {
            self = .min
        } else {
            self = Int64(rounded)
        }
    }

    fileprivate func clampedAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    fileprivate func clampedSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    fileprivate func clampedMultiplied(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
