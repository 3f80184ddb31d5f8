import Dispatch
public import Tributary

/// A publisher written as marbles, made by ``MarbleTest/cold(_:values:error:sourceLocation:)`` or
/// ``MarbleTest/hot(_:values:error:sourceLocation:)``, that keeps a log of its subscriptions for
/// ``MarbleTest/expectSubscriptions(_:toBe:sourceLocation:)``.
///
/// A cold publisher plays its marbles from the start for each subscriber, frame zero being
/// the moment it subscribes; a hot one plays them once, frame zero being its `^` (or its
/// first character) at the moment it was made, to whoever is subscribed at the time, and
/// tells a subscriber that comes after its end that it ended, as a subject does.
///
/// Either honours demand: values a subscriber has not asked for wait, in order, and the end
/// follows them.
public final class TestPublisher<Output, Failure: Error>: Publisher, Sendable {
    /// One event of the marbles, `offset` nanoseconds after frame zero.
    struct Planned: @unchecked Sendable {
        // @unchecked: the values come from the test's own table and are handed to
        // subscribers on the scheduler's thread alone.
        var offset: Int64
        var event: Event
    }

    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// When one subscriber subscribed and left, in nanoseconds since frame zero of the test.
    struct Visit: Sendable {
        var start: UInt64
        var end: UInt64?
    }

    private let isHot: Bool
    private let planned: [Planned]
    private let scheduler: MarbleScheduler
    private let shared = Protected(Shared())

    /// What every subscription of the publisher shares.
    private struct Shared: @unchecked Sendable {
        // @unchecked: reached under the lock only.
        var visits: [Visit] = []
        var subscribers: [Int: Inner] = [:]
        var nextID = 0
        var ended: Subscribers.Completion<Failure>?
    }

    init(hot: Bool, planned: [Planned], scheduler: MarbleScheduler) {
        isHot = hot
        self.planned = planned
        self.scheduler = scheduler
        if hot { playOnce() }
    }

    /// Every subscription so far.
    var visits: [Visit] { shared.withLock { $0.visits } }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let now = scheduler.now.dispatchTime.uptimeNanoseconds - MarbleScheduler.origin
        let (inner, ended) = shared.withLock { shared -> (Inner, Subscribers.Completion<Failure>?) in
            let inner = Inner(
                publisher: self,
                visit: shared.visits.count,
                downstream: AnySubscriber(subscriber)
            )
            shared.visits.append(Visit(start: now))
            if isHot, shared.ended == nil {
                shared.subscribers[shared.nextID] = inner
                inner.id = shared.nextID
                shared.nextID += 1
            }
            return (inner, isHot ? shared.ended : nil)
        }
        subscriber.receive(subscription: inner)
        if let ended {
            inner.receive(.completion(ended))
        } else if !isHot {
            let zero = scheduler.now
            for plan in planned {
                // The schedule keeps the subscription until its marbles are played, as a timer
                // keeps its own, whether or not the subscriber holds it.
                scheduler.schedule(after: zero.advanced(by: .nanoseconds(Int(plan.offset)))) {
                    inner.receive(plan.event)
                }
            }
        }
    }

    /// Schedules a hot publisher's marbles once, to reach whoever is subscribed as each comes.
    private func playOnce() {
        let zero = scheduler.now
        for plan in planned where plan.offset >= 0 {
            scheduler.schedule(after: zero.advanced(by: .nanoseconds(Int(plan.offset)))) { [weak self] in
                guard let self else { return }
                let subscribers = shared.withLock { shared -> [Inner] in
                    if case .completion(let completion) = plan.event { shared.ended = completion }
                    return shared.subscribers.sorted { $0.key < $1.key }.map(\.value)
                }
                for subscriber in subscribers { subscriber.receive(plan.event) }
            }
        }
    }

    private func left(_ inner: Inner) {
        let now = scheduler.now.dispatchTime.uptimeNanoseconds - MarbleScheduler.origin
        shared.withLock { shared in
            if shared.visits[inner.visit].end == nil { shared.visits[inner.visit].end = now }
            if let id = inner.id { shared.subscribers[id] = nil }
        }
    }

    /// One subscriber's view: what waits for its demand.
    private final class Inner: Subscription, @unchecked Sendable {
        // @unchecked: reached on the scheduler's thread, where the test runs it, one action
        // at a time.
        let visit: Int
        var id: Int?
        private weak var publisher: TestPublisher?
        private var downstream: AnySubscriber<Output, Failure>?
        private var demand = Subscribers.Demand.none
        private var waiting: [Output] = []
        private var completion: Subscribers.Completion<Failure>?
        private var isSending = false

        init(publisher: TestPublisher, visit: Int, downstream: AnySubscriber<Output, Failure>) {
            self.publisher = publisher
            self.visit = visit
            self.downstream = downstream
        }

        func receive(_ event: Event) {
            guard downstream != nil, completion == nil else { return }
            switch event {
            case .value(let value): waiting.append(value)
            case .completion(let end): completion = end
            }
            drain()
        }

        func request(_ more: Subscribers.Demand) {
            demand += more
            drain()
        }

        func cancel() {
            guard downstream != nil else { return }
            downstream = nil
            waiting = []
            publisher?.left(self)
        }

        private func drain() {
            guard !isSending else { return }
            isSending = true
            defer { isSending = false }
            while let downstream {
                if demand > 0, !waiting.isEmpty {
                    demand -= 1
                    demand += downstream.receive(waiting.removeFirst())
                } else if waiting.isEmpty, let completion {
                    self.downstream = nil
                    publisher?.left(self)
                    downstream.receive(completion: completion)
                } else {
                    return
                }
            }
        }
    }
}
