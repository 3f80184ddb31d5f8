import Foundation
import Tributary

/// A stream's items as a publisher: each item waits its delay after the one before, then is
/// published; then the publisher finishes.
///
/// This is what appending one delayed `Just` per item does, without nesting a publisher per
/// item (a stream of thousands of items would otherwise subscribe thousands deep). An item's
/// wait starts once the item before it is out and the subscriber has asked for more.
struct TimedItems<Context: Scheduler>: Publisher {
    typealias Output = StreamValue
    typealias Failure = StreamFailure

    let items: [StreamItem]
    let scheduler: Context

    func receive<S: Subscriber>(subscriber: S) where S.Input == StreamValue, S.Failure == StreamFailure {
        let inner = Inner(items: items, scheduler: scheduler, downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: inner)
        inner.start()
    }

    /// @unchecked Sendable: the state is reached only under `lock`; the downstream is called
    /// by one caller at a time, as `isDelivering` ensures.
    private final class Inner: Subscription, @unchecked Sendable {
        private let items: [StreamItem]
        private let scheduler: Context
        private let lock = NSLock()
        private var downstream: AnySubscriber<StreamValue, StreamFailure>?
        private var index = 0
        private var demand = Subscribers.Demand.none
        private var isWaiting = false
        private var isDelivering = false

        init(items: [StreamItem], scheduler: Context, downstream: AnySubscriber<StreamValue, StreamFailure>) {
            self.items = items
            self.scheduler = scheduler
            self.downstream = downstream
        }

        /// Nothing is published while the subscriber chain is still being set up, as with
        /// appended publishers, whose first item starts only once the one before (an empty
        /// start) has finished: an operator that asks for values before its own subscriber
        /// has asked would otherwise drop the first ones.
        private var isStarted = false

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
            case deliver(StreamValue, AnySubscriber<StreamValue, StreamFailure>)
            case finish(AnySubscriber<StreamValue, StreamFailure>)
            case wait(Double)
            case stop
        }

        /// Publishes every item that is due and asked for, and starts the wait for the next.
        private func pump() {
            while true {
                let step: Step = lock.withLock {
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
                    return .deliver(item.value, downstream)
                }
                switch step {
                case .deliver(let value, let downstream):
                    let more = downstream.receive(value)
                    lock.withLock {
                        isDelivering = false
                        demand += more
                    }
                case .finish(let downstream):
                    downstream.receive(completion: .finished)
                    return
                case .wait(let seconds):
                    scheduler.schedule(after: scheduler.now.advanced(by: .seconds(seconds))) { [self] in
                        lock.withLock {
                            isWaiting = false
                            dueNow = true
                        }
                        pump()
                    }
                    return
                case .stop:
                    return
                }
            }
        }

        /// Whether the next item's wait is over.
        private var dueNow = false
    }
}
