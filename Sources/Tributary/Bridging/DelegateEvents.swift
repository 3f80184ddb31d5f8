import DequeModule

#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// Carries one family of delegate callbacks to any number of subscribers, honouring each
/// one's demand.
///
/// A publicist — an object that implements a delegate protocol — owns one `DelegateEvents`
/// per callback family and calls ``send(_:)`` from each callback:
///
/// ```swift
/// final class ParserPublicist: NSObject, XMLParserDelegate {
///     let elements = DelegateEvents<String, Never>()
///
///     func parser(_ parser: XMLParser, didStartElement name: String, ...) {
///         elements.send(name)
///     }
/// }
/// ```
///
/// Delegate callbacks cannot wait, so values a subscriber has not asked for yet are kept
/// according to ``Buffering``; completion is delivered after the values kept before it.
/// ``init(buffering:onActive:onInactive:)`` takes hooks that run when the first subscriber
/// arrives and when the last one leaves — by cancelling or by receiving completion — so a
/// publicist can install itself on demand and take its handlers away when nobody listens.
/// After completion, later subscribers receive the same completion at once.
public final class DelegateEvents<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: every stored property but the immutable hooks is reached only under `lock`.

    /// What a subscriber keeps of the values sent while it has no demand.
    public enum Buffering: Sendable, Equatable {
        /// Keeps every value.
        case unbounded
        /// Keeps the newest `n` values, dropping older ones.
        case newest(Int)
        /// Keeps the oldest `n` values, dropping newer ones.
        case oldest(Int)
    }

    /// What each subscriber keeps of undelivered values.
    public let buffering: Buffering
    private let onActive: (@Sendable () -> Void)?
    private let onInactive: (@Sendable () -> Void)?
    private let lock = Lock()
    private var subscriptions: [ObjectIdentifier: Inner] = [:]
    private var completion: Subscribers.Completion<Failure>?

    /// Creates a channel.
    ///
    /// - Parameters:
    ///   - buffering: What each subscriber keeps of values sent while it has no demand.
    ///   - onActive: Runs when the number of subscribers goes from zero to one.
    ///   - onInactive: Runs when it goes back to zero.
    public init(
        buffering: Buffering = .unbounded,
        onActive: (@Sendable () -> Void)? = nil,
        onInactive: (@Sendable () -> Void)? = nil
    ) {
        if case .newest(let count) = buffering { precondition(count >= 0, "a buffer cannot be negative") }
        if case .oldest(let count) = buffering { precondition(count >= 0, "a buffer cannot be negative") }
        self.buffering = buffering
        self.onActive = onActive
        self.onInactive = onInactive
    }

    /// Whether anyone is subscribed.
    public var hasSubscribers: Bool {
        lock.withLock { !subscriptions.isEmpty }
    }

    /// Sends `value` to every subscriber.
    public func send(_ value: Output) {
        for subscription in lock.withLock({ Array(subscriptions.values) }) {
            subscription.offer(value)
        }
    }

    /// Ends every subscription, now and later, with `completion`.
    public func send(completion: Subscribers.Completion<Failure>) {
        let current: [Inner]? = lock.withLock {
            guard self.completion == nil else { return nil }
            self.completion = completion
            return Array(subscriptions.values)
        }
        for subscription in current ?? [] {
            subscription.finish(completion)
        }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        attach(AnySubscriber(subscriber), initial: nil)
    }

    /// Subscribes `subscriber`, first delivering `initial()`, unless a value is sent while it
    /// subscribes: that value is newer than anything `initial()` could have read.
    ///
    /// `initial` is the publicist's code, so it runs outside the lock, after the subscriber is
    /// registered: nothing sent from then on can be missed.
    func attach(_ subscriber: AnySubscriber<Output, Failure>, initial: (@Sendable () -> Output)?) {
        let inner = Inner(downstream: subscriber, buffering: buffering, owner: self)
        let (isFirst, finished): (Bool, Subscribers.Completion<Failure>?) = lock.withLock {
            guard completion == nil else { return (false, completion) }
            subscriptions[ObjectIdentifier(inner)] = inner
            return (subscriptions.count == 1, nil)
        }
        // The hook runs first, so that whatever it installs is in place before the subscriber
        // can ask for anything.
        if isFirst { onActive?() }
        if let initial { inner.seed(initial()) }
        subscriber.receive(subscription: inner)
        if let finished { inner.finish(finished) }
    }

    fileprivate func remove(_ inner: Inner) {
        let wasLast: Bool = lock.withLock {
            guard subscriptions.removeValue(forKey: ObjectIdentifier(inner)) != nil else { return false }
            return subscriptions.isEmpty
        }
        if wasLast { onInactive?() }
    }

    /// One subscriber's demand, buffer and pending completion.
    fileprivate final class Inner: Subscription, CustomStringConvertible, @unchecked Sendable {
        // @unchecked: mutable state is reached only under `lock`; the downstream is called
        // outside it by one draining caller at a time.
        private let lock = Lock()
        private var downstream: AnySubscriber<Output, Failure>?
        private var buffer = Deque<Output>()
        private var demand = Subscribers.Demand.none
        private var completion: Subscribers.Completion<Failure>?
        private var isDraining = false
        /// Whether a value was offered, which makes a seed read meanwhile out of date.
        private var wasOffered = false
        private let buffering: Buffering
        private weak var owner: DelegateEvents?

        init(downstream: AnySubscriber<Output, Failure>, buffering: Buffering, owner: DelegateEvents) {
            self.downstream = downstream
            self.buffering = buffering
            self.owner = owner
        }

        var description: String { "DelegateEvents" }

        /// Puts the current value first, unless a newer one was offered already.
        func seed(_ value: Output) {
            lock.withLock {
                if !wasOffered { buffer.prepend(value) }
            }
        }

        func offer(_ value: Output) {
            lock.withLock {
                guard downstream != nil, completion == nil else { return }
                wasOffered = true
                switch buffering {
                case .unbounded:
                    buffer.append(value)
                case .newest(let limit):
                    buffer.append(value)
                    // Values the subscriber can take now are not held back by the limit.
                    let kept = Swift.max(limit, demand.max ?? Int.max)
                    while buffer.count > kept { buffer.removeFirst() }
                case .oldest(let limit):
                    if buffer.count < Swift.max(limit, demand.max ?? Int.max) { buffer.append(value) }
                }
            }
            drain()
        }

        func finish(_ completion: Subscribers.Completion<Failure>) {
            lock.withLock {
                guard downstream != nil, self.completion == nil else { return }
                self.completion = completion
            }
            drain()
        }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "demand must be positive")
            lock.withLock { self.demand += demand }
            drain()
        }

        func cancel() {
            let wasActive = lock.withLock {
                defer {
                    downstream = nil
                    buffer.removeAll()
                }
                return downstream != nil
            }
            if wasActive { owner?.remove(self) }
        }

        private enum Step {
            case value(Output, AnySubscriber<Output, Failure>)
            case completion(Subscribers.Completion<Failure>, AnySubscriber<Output, Failure>)
            case stop
        }

        /// Delivers what demand allows, one caller at a time, so callbacks that arrive while a
        /// value is being delivered wait their turn instead of nesting.
        private func drain() {
            while true {
                let step: Step = lock.withLock {
                    guard !isDraining, let downstream else { return .stop }
                    if demand > 0, let value = buffer.popFirst() {
                        demand -= 1
                        isDraining = true
                        return .value(value, downstream)
                    }
                    if buffer.isEmpty, let completion {
                        self.downstream = nil
                        return .completion(completion, downstream)
                    }
                    return .stop
                }
                switch step {
                case .value(let value, let downstream):
                    let more = downstream.receive(value)
                    lock.withLock {
                        isDraining = false
                        demand += more
                    }
                case .completion(let completion, let downstream):
                    downstream.receive(completion: completion)
                    owner?.remove(self)
                    return
                case .stop:
                    return
                }
            }
        }
    }
}

/// A delegate-reported state as a publisher: each subscriber first receives the current
/// value, then every change.
///
/// ```swift
/// let authorization = DelegateState { manager.authorizationStatus }
/// // in the delegate callback:
/// authorization.send(manager.authorizationStatus)
/// ```
public final class DelegateState<Value>: Publisher, Sendable {
    public typealias Output = Value
    public typealias Failure = Never

    private let events: DelegateEvents<Value, Never>
    private let current: @Sendable () -> Value

    /// Creates a state publisher that reads the current value with `current` for each new
    /// subscriber, on the subscriber's thread and without holding any lock of its own, so it
    /// may call anything but must be safe from any thread.
    public init(
        buffering: DelegateEvents<Value, Never>.Buffering = .newest(1),
        onActive: (@Sendable () -> Void)? = nil,
        onInactive: (@Sendable () -> Void)? = nil,
        current: @escaping @Sendable () -> Value
    ) {
        events = DelegateEvents(buffering: buffering, onActive: onActive, onInactive: onInactive)
        self.current = current
    }

    /// Publishes a change.
    public func send(_ value: Value) {
        events.send(value)
    }

    /// Whether anyone is subscribed.
    public var hasSubscribers: Bool { events.hasSubscribers }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        events.attach(AnySubscriber(subscriber), initial: current)
    }
}

/// The delegate an object had before a publicist took its place, which keeps receiving every
/// callback.
///
/// Held weakly by default, as delegates are; ``Retention/strong`` keeps it alive for as long
/// as the publicist lives.
public final class ForwardedDelegate<Delegate>: @unchecked Sendable {
    // @unchecked: the references are written once, in `init`.

    /// How the existing delegate is held.
    public enum Retention: Sendable {
        /// Held weakly, as delegates are: it lives only while something else keeps it.
        case weak
        /// Held strongly: it lives for as long as the publicist does.
        case strong
    }

    private weak var weakReference: AnyObject?
    private let strongReference: AnyObject?

    /// Keeps `delegate`, which must be a class instance or nil.
    public init(_ delegate: Delegate?, retention: Retention = .weak) {
        let object = delegate.map { $0 as AnyObject }
        weakReference = object
        strongReference = retention == .strong ? object : nil
    }

    /// The delegate, while it is alive.
    public var delegate: Delegate? {
        (strongReference ?? weakReference) as? Delegate
    }
}
