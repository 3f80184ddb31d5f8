import Foundation
import Tributary

/// A publisher under the test's control that records what its subscriber asks of it.
///
/// It serves one subscriber. The test sends values and completion by hand and sees the demand
/// each value was answered with; `history` lists the requests and cancellations it received.
final class Upstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    enum Event: Equatable {
        case requested(Subscribers.Demand)
        case cancelled
    }

    private final class Handle: Subscription {
        weak var owner: Upstream?
        init(owner: Upstream) { self.owner = owner }
        func request(_ demand: Subscribers.Demand) { owner?.record(.requested(demand)) }
        func cancel() { owner?.record(.cancelled) }
    }

    private let lock = NSLock()
    private var events: [Event] = []
    private var subscriber: AnySubscriber<Output, Failure>?
    private var handle: Handle?
    private let subscribesLater: Bool
    /// Runs after a request is recorded, for publishers that answer demand synchronously.
    var onRequest: (Subscribers.Demand) -> Void = { _ in }

    /// - Parameter subscribesLater: Keep the subscription until ``handOverSubscription()``.
    init(subscribesLater: Bool = false) {
        self.subscribesLater = subscribesLater
    }

    var history: [Event] { lock.withLock { events } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.withLock {
            self.subscriber = AnySubscriber(subscriber)
            handle = Handle(owner: self)
        }
        if !subscribesLater {
            handOverSubscription()
        }
    }

    func handOverSubscription() {
        let (subscriber, handle) = lock.withLock { (self.subscriber, self.handle) }
        if let subscriber, let handle {
            subscriber.receive(subscription: handle)
        }
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        lock.withLock { subscriber }?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock { subscriber }?.receive(completion: completion)
    }

    private func record(_ event: Event) {
        lock.withLock { events.append(event) }
        if case .requested(let demand) = event {
            onRequest(demand)
        }
    }
}
