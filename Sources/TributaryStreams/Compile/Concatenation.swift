import Foundation
import Tributary

/// The `append` node: each input's values in turn, the next input subscribed to once the one
/// before has finished, as Combine's `append` does.
///
/// Chaining Combine's `append` nests one publisher in another for every input, and subscribing
/// to the outermost subscribes through all of them, a call within a call: two thousand inputs
/// overflowed a run thread's stack. This one keeps the inputs in an array and moves from one
/// to the next in a loop, so that any number of inputs, finishing at once or not, take the
/// stack of one.
struct Concatenation: Publisher {
    typealias Output = StreamValue
    typealias Failure = any Error

    let inputs: [AnyPublisher<StreamValue, any Error>]

    func receive<S: Subscriber>(subscriber: S) where S.Input == StreamValue, S.Failure == any Error {
        let inner = ConcatenationInner(inputs: inputs, downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: inner)
        inner.subscribeToNext()
    }
}

/// One subscription of a ``Concatenation``: which input is playing, the demand not yet met,
/// and whether the loop that subscribes is running.
///
/// @unchecked Sendable: `state` is reached only under `lock`; the subscriber is called outside
/// it, by whichever input is playing, one event at a time.
private final class ConcatenationInner: Subscription, @unchecked Sendable {
    private struct State {
        /// The input playing, or about to.
        var index = 0
        var demand = Subscribers.Demand.none
        var current: (any Subscription)?
        /// Whether the loop is subscribing to an input now; an input that finishes meanwhile
        /// leaves the next one to the loop.
        var isSubscribing = false
        /// Whether the input being subscribed to finished before its subscribe call returned.
        var finishedWhileSubscribing = false
        var isDone = false
    }

    private let inputs: [AnyPublisher<StreamValue, any Error>]
    private let downstream: AnySubscriber<StreamValue, any Error>
    private let lock = NSLock()
    private var state = State()

    init(inputs: [AnyPublisher<StreamValue, any Error>], downstream: AnySubscriber<StreamValue, any Error>) {
        self.inputs = inputs
        self.downstream = downstream
    }

    /// Subscribes to the input at the current index, and on to the next for as long as each
    /// finishes before its subscribe call returns; finishes after the last.
    func subscribeToNext() {
        while true {
            let index = lock.withLock { () -> Int? in
                guard !state.isDone else { return nil }
                guard state.index < inputs.count else {
                    state.isDone = true
                    return inputs.count
                }
                state.isSubscribing = true
                state.finishedWhileSubscribing = false
                return state.index
            }
            guard let index else { return }
            guard index < inputs.count else {
                downstream.receive(completion: .finished)
                return
            }
            inputs[index].subscribe(Segment(index: index, owner: self))
            let goOn = lock.withLock { () -> Bool in
                state.isSubscribing = false
                return state.finishedWhileSubscribing
            }
            guard goOn else { return }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        let current = lock.withLock { () -> (any Subscription)? in
            state.demand += demand
            return state.current
        }
        current?.request(demand)
    }

    func cancel() {
        let current = lock.withLock { () -> (any Subscription)? in
            state.isDone = true
            defer { state.current = nil }
            return state.current
        }
        current?.cancel()
    }

    fileprivate func received(subscription: any Subscription, from index: Int) {
        let demand = lock.withLock { () -> Subscribers.Demand? in
            guard !state.isDone, index == state.index else { return nil }
            state.current = subscription
            return state.demand
        }
        guard let demand else { return subscription.cancel() }
        if demand > 0 { subscription.request(demand) }
    }

    fileprivate func received(_ value: StreamValue, from index: Int) -> Subscribers.Demand {
        let isPlaying = lock.withLock { () -> Bool in
            guard !state.isDone, index == state.index else { return false }
            if state.demand != .unlimited, state.demand > 0 { state.demand -= 1 }
            return true
        }
        guard isPlaying else { return .none }
        let more = downstream.receive(value)
        lock.withLock { state.demand += more }
        return more
    }

    fileprivate func received(completion: Subscribers.Completion<any Error>, from index: Int) {
        enum Next { case ignore, fail(any Error), subscribeHere, leaveToLoop }
        let next = lock.withLock { () -> Next in
            guard !state.isDone, index == state.index else { return .ignore }
            state.current = nil
            if case .failure(let error) = completion {
                state.isDone = true
                return .fail(error)
            }
            state.index += 1
            guard !state.isSubscribing else {
                state.finishedWhileSubscribing = true
                return .leaveToLoop
            }
            return .subscribeHere
        }
        switch next {
        case .ignore, .leaveToLoop: break
        case .fail(let error): downstream.receive(completion: .failure(error))
        case .subscribeHere: subscribeToNext()
        }
    }

    /// What subscribes to one input, telling the owner which input its events come from.
    private final class Segment: Subscriber, @unchecked Sendable {
        // @unchecked: immutable; the owner locks what it changes.
        let combineIdentifier = CombineIdentifier()
        let index: Int
        let owner: ConcatenationInner

        init(index: Int, owner: ConcatenationInner) {
            self.index = index
            self.owner = owner
        }

        func receive(subscription: any Subscription) {
            owner.received(subscription: subscription, from: index)
        }
        func receive(_ input: StreamValue) -> Subscribers.Demand { owner.received(input, from: index) }
        func receive(completion: Subscribers.Completion<any Error>) {
            owner.received(completion: completion, from: index)
        }
    }
}
