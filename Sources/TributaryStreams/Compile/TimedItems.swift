import Foundation
import Tributary

/// A stream's items as a publisher: each item waits its delay after the one before, then is
/// published; then the publisher finishes.
///
/// This is what appending one delayed `Just` per item does, without nesting a publisher per
/// item (a stream of thousands of items would otherwise subscribe thousands deep). An item's
/// wait starts once the item before it is out and the subscriber has asked for more.
///
/// It never fails itself; `Failure` is whatever the pipeline it starts carries.
struct TimedItems<Context: Scheduler, Failure: Error>: Publisher {
    typealias Output = StreamValue

    let items: [StreamItem]
    let scheduler: Context

    func receive<S: Subscriber>(subscriber: S) where S.Input == StreamValue, S.Failure == Failure {
        let scheduler = scheduler
        // The subscription is not generic: it reaches the scheduler and the subscriber through
        // closures made here, so delivering an item needs no generic metadata at run time.
        let inner = TimedItemsSubscription(
            items: items,
            schedule: { seconds, action in
                scheduler.schedule(
                    after: scheduler.now.advanced(by: .seconds(seconds)),
                    tolerance: .zero,
                    options: nil,
                    action
                )
            },
            downstream: .init(
                receive: { subscriber.receive($0) },
                finish: { subscriber.receive(completion: .finished) }
            )
        )
        subscriber.receive(subscription: inner)
        inner.start()
    }
}

/// The subscription of ``TimedItems``.
///
/// @unchecked Sendable: the state is reached only under `lock`; the downstream is called by
/// one caller at a time, as `isDelivering` ensures.
private final class TimedItemsSubscription: Subscription, @unchecked Sendable {
    struct Downstream {
        let receive: (StreamValue) -> Subscribers.Demand
        let finish: () -> Void
    }

    private let items: [StreamItem]
    private let schedule: (Double, @escaping () -> Void) -> Void
    private let lock = NSLock()
    private var downstream: Downstream?
    private var index = 0
    private var demand = Subscribers.Demand.none
    private var isWaiting = false
    private var isDelivering = false
    /// Whether the next item's wait is over.
    private var dueNow = false
    /// Nothing is published while the subscriber chain is still being set up, as with
    /// appended publishers, whose first item starts only once the one before (an empty start)
    /// has finished: an operator that asks for values before its own subscriber has asked
    /// would otherwise drop the first ones.
    private var isStarted = false

    init(
        items: [StreamItem],
        schedule: @escaping (Double, @escaping () -> Void) -> Void,
        downstream: Downstream
    ) {
        self.items = items
        self.schedule = schedule
        self.downstream = downstream
    }

    private func waitEnded() {
        lock.withLock {
            isWaiting = false
            dueNow = true
        }
        pump()
    }

    func start() {
        lock.withLock { isStarted = true }
        pump()
    }

    func request(_ demand: Subscribers.Demand) {
        let started = lock.withLock {
            self.demand += demand
            return isStarted
        }
        if started { pump() }
    }

    func cancel() {
        lock.withLock { downstream = nil }
    }

    private enum Step {
        case deliver(StreamValue, (StreamValue) -> Subscribers.Demand)
        case finish(Downstream)
        case wait(Double)
        case stop
    }

    /// Publishes every item that is due and asked for, and starts the wait for the next.
    private func pump() {
        var more = Subscribers.Demand.none
        var delivered = false
        while true {
            let step: Step = lock.withLock {
                if delivered {
                    isDelivering = false
                    demand += more
                }
                guard let downstream, !isDelivering, !isWaiting else { return .stop }
                guard index < items.count else {
                    self.downstream = nil
                    return .finish(downstream)
                }
                guard demand > 0 else { return .stop }
                let item = items[index]
                if item.delay > 0, !dueNow {
                    isWaiting = true
                    return .wait(item.delay)
                }
                dueNow = false
                index += 1
                demand -= 1
                isDelivering = true
                return .deliver(item.value, downstream.receive)
            }
            switch step {
            case .deliver(let value, let receive):
                more = receive(value)
                delivered = true
            case .finish(let downstream):
                downstream.finish()
                return
            case .wait(let seconds):
                schedule(seconds) { [self] in waitEnded() }
                return
            case .stop:
                return
            }
        }
    }
}
