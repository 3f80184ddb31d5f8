import Foundation
import Tributary

/// Combine's `tryScan`, for the `scan` node.
///
/// OpenCombine's own keeps its upstream subscription after the stream ends. An upstream that
/// holds its subscriber until then — a delay, a debounce, another scan — and the scan then keep
/// each other, and all they hold, alive for good. This one lets go of its upstream when the
/// stream finishes, fails or is cancelled.
struct FallibleScan<Upstream: Publisher>: Publisher where Upstream.Failure == any Error {
    typealias Output = StreamValue
    typealias Failure = any Error

    let upstream: Upstream
    let initial: StreamValue
    let next: (StreamValue, Upstream.Output) throws -> StreamValue

    func receive<S: Subscriber>(subscriber: S) where S.Input == StreamValue, S.Failure == any Error {
        upstream.subscribe(FallibleScanInner(downstream: subscriber, initial: initial, next: next))
    }
}

/// The subscriber and subscription of ``FallibleScan``.
///
/// @unchecked Sendable: `upstream` and `isTerminal` are reached only under `lock`;
/// `accumulator` only from the upstream's calls, which come one at a time.
private final class FallibleScanInner<Input, Downstream: Subscriber>: Subscriber, Subscription,
    @unchecked Sendable
where Downstream.Input == StreamValue, Downstream.Failure == any Error {
    typealias Failure = any Error

    private let downstream: Downstream
    private let next: (StreamValue, Input) throws -> StreamValue
    private var accumulator: StreamValue
    private let lock = NSLock()
    private var upstream: (any Subscription)?
    private var isTerminal = false

    init(
        downstream: Downstream,
        initial: StreamValue,
        next: @escaping (StreamValue, Input) throws -> StreamValue
    ) {
        self.downstream = downstream
        self.accumulator = initial
        self.next = next
    }

    func receive(subscription: any Subscription) {
        let accepted = lock.withLock {
            guard upstream == nil, !isTerminal else { return false }
            upstream = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        // A value that arrives after a cancel, a failure or the end is dropped: an upstream
        // may still be delivering one when it is told to stop.
        guard lock.withLock({ !isTerminal }) else { return .none }
        do {
            accumulator = try next(accumulator, input)
        } catch {
            let upstream = end()
            upstream?.cancel()
            if upstream != nil { downstream.receive(completion: .failure(error)) }
            return .none
        }
        return downstream.receive(accumulator)
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        guard end() != nil else { return }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        end()?.cancel()
    }

    /// Marks the scan ended and hands over its upstream: nil when it had ended already.
    @discardableResult
    private func end() -> (any Subscription)? {
        lock.withLock {
            isTerminal = true
            defer { upstream = nil }
            return upstream
        }
    }
}
