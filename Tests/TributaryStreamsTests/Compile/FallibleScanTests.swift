import Foundation
import Testing
import Tributary

@testable import TributaryStreams

@Suite struct FallibleScanTests {
    /// An upstream that keeps its subscriber until the test lets go of it, as a delay or a
    /// debounce keeps theirs until the stream ends.
    private final class Upstream: Publisher, Subscription, @unchecked Sendable {
        typealias Output = StreamValue
        typealias Failure = any Error

        var subscriber: AnySubscriber<StreamValue, any Error>?
        var demand = Subscribers.Demand.none
        var isCancelled = false

        func receive<S: Subscriber>(subscriber: S) where S.Input == StreamValue, S.Failure == any Error {
            self.subscriber = AnySubscriber(subscriber)
            subscriber.receive(subscription: self)
        }
        func request(_ demand: Subscribers.Demand) { self.demand += demand }
        func cancel() { isCancelled = true }

        func send(_ value: Int) { _ = subscriber?.receive(.integer(value)) }
        func send(_ completion: Subscribers.Completion<any Error>) {
            subscriber?.receive(completion: completion)
        }
    }

    private struct Zero: Error {}

    /// A running sum that fails on a zero.
    private func sum(_ upstream: Upstream) -> FallibleScan<Upstream> {
        FallibleScan(upstream: upstream, initial: .integer(0)) { accumulator, value in
            guard case .integer(let sum) = accumulator, case .integer(let value) = value, value != 0 else {
                throw Zero()
            }
            return .integer(sum + value)
        }
    }

    /// What a subscriber receives, in order.
    private final class Events {
        var list: [String] = []
    }

    private func record(_ publisher: FallibleScan<Upstream>, into events: Events) -> AnyCancellable {
        publisher.sink(
            receiveCompletion: { completion in
                if case .failure = completion {
                    events.list.append("failed")
                } else {
                    events.list.append("finished")
                }
            },
            receiveValue: { value in events.list.append("\(value)") }
        )
    }

    @Test func accumulatesThenLetsGoOfItsUpstreamWhenTheStreamEnds() {
        let events = Events()
        weak var released: Upstream?
        do {
            let upstream = Upstream()
            released = upstream
            let cancellable = record(sum(upstream), into: events)
            #expect(upstream.demand == .unlimited)
            upstream.send(1)
            upstream.send(2)
            upstream.send(.finished)
            upstream.send(4)
            withExtendedLifetime(cancellable) {}
        }
        #expect(events.list == ["1", "3", "finished"])
        // The upstream still holds the scan as its subscriber; the scan must not hold it.
        #expect(released == nil)
    }

    @Test func aThrowFailsOnceAndCancelsTheUpstream() {
        let events = Events()
        let upstream = Upstream()
        let cancellable = record(sum(upstream), into: events)
        upstream.send(5)
        upstream.send(0)
        #expect(upstream.isCancelled)
        upstream.send(1)
        upstream.send(.finished)
        #expect(events.list == ["5", "failed"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func cancellingReachesTheUpstreamAndEndsTheScan() {
        let events = Events()
        let upstream = Upstream()
        let cancellable = record(sum(upstream), into: events)
        upstream.send(2)
        cancellable.cancel()
        #expect(upstream.isCancelled)
        upstream.send(.failure(Zero()))
        #expect(events.list == ["2"])
    }

    /// A subscriber that records whatever reaches it, also after it cancelled, as a sink would
    /// not.
    private final class Recorder: Subscriber {
        typealias Input = StreamValue
        typealias Failure = any Error
        var subscription: (any Subscription)?
        var received: [String] = []

        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }
        func receive(_ input: StreamValue) -> Subscribers.Demand {
            received.append("\(input)")
            return .none
        }
        func receive(completion: Subscribers.Completion<any Error>) { received.append("completion") }

        /// Cancels and lets go of the subscription, as a sink does.
        func cancel() {
            subscription?.cancel()
            subscription = nil
        }
    }

    /// An upstream may already be delivering a value when it is cancelled; the scan drops it
    /// without running the expression on it.
    @Test func deliversNothingAfterACancel() {
        let upstream = Upstream()
        var steps = 0
        let scan = FallibleScan(upstream: upstream, initial: .integer(0)) { accumulator, value in
            steps += 1
            return value
        }
        let recorder = Recorder()
        scan.subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        #expect(upstream.isCancelled)
        upstream.send(2)
        upstream.send(.finished)
        #expect(recorder.received == ["1"])
        #expect(steps == 1)
    }

    @Test func eachSubscriptionStartsFromTheInitialValue() {
        let events = Events()
        let first = Upstream()
        let second = Upstream()
        let cancellables = [record(sum(first), into: events), record(sum(second), into: events)]
        first.send(3)
        second.send(4)
        first.send(3)
        #expect(events.list == ["3", "4", "6"])
        withExtendedLifetime(cancellables) {}
    }
}
