import Foundation
public import Tributary

public enum TestError: Error, Equatable {
    case boom
    case other
}

/// What a downstream subscriber sees.
public enum Event<Value: Equatable, Failure: Error & Equatable>: Equatable, CustomStringConvertible {
    case subscription
    case value(Value)
    case completion(Subscribers.Completion<Failure>)

    public static var finished: Self { .completion(.finished) }

    public static func failure(_ error: Failure) -> Self { .completion(.failure(error)) }

    public var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "value(\(value))"
        case .completion(.finished): "finished"
        case .completion(.failure(let error)): "failure(\(error))"
        }
    }
}

/// A downstream subscriber that records everything it receives, asks for the demand it is
/// told to, and notices deliveries that overlap (re-entrant or concurrent).
public final class Recorder<Input, Value: Equatable, Failure: Error & Equatable>: Subscriber,
    @unchecked Sendable
{
    // @unchecked: every mutable field is guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [Event<Value, Failure>] = []
    private var upstream: (any Subscription)?
    private var isReceiving = false
    private var overlaps = 0
    private let initialDemand: Subscribers.Demand
    private let transform: (Input) -> Value
    /// Runs while a value is being received; returns the demand to hand back.
    public var onValue: (Input) -> Subscribers.Demand = { _ in .none }
    /// Runs while the completion is being received.
    public var onCompletion: () -> Void = {}

    public init(demand: Subscribers.Demand, transform: @escaping (Input) -> Value) {
        initialDemand = demand
        self.transform = transform
    }

    public var events: [Event<Value, Failure>] { lock.withLock { recorded } }
    public var values: [Value] {
        events.compactMap {
            guard case .value(let value) = $0 else { return nil }
            return value
        }
    }
    /// How many deliveries started while another was still under way.
    public var overlappingDeliveries: Int { lock.withLock { overlaps } }
    public var subscription: (any Subscription)? { lock.withLock { upstream } }

    public func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    public func cancel() {
        subscription?.cancel()
    }

    public func receive(subscription: any Subscription) {
        lock.withLock {
            upstream = subscription
            recorded.append(.subscription)
        }
        if initialDemand > .none {
            subscription.request(initialDemand)
        }
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock {
            if isReceiving { overlaps += 1 }
            isReceiving = true
            recorded.append(.value(transform(input)))
        }
        let more = onValue(input)
        lock.withLock { isReceiving = false }
        return more
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { recorded.append(.completion(completion)) }
        onCompletion()
    }
}

extension Recorder where Input == Value {
    public convenience init(demand: Subscribers.Demand) {
        self.init(demand: demand) { $0 }
    }
}
