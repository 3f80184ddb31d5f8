import Foundation
import Testing
import Tributary
import TributaryTestSupport

/// A subscriber that asks for nothing and lets go of its subscription when it cancels, so that
/// a test can tell who else holds the subscription: the task of a running operation does.
private final class Holder: Subscriber, @unchecked Sendable {
    // @unchecked: used from the test's task only; the publisher calls it only while subscribing.
    typealias Input = Int
    typealias Failure = TestError
    var subscription: (any Subscription)?
    var received: [String] = []

    func receive(subscription: any Subscription) { self.subscription = subscription }
    func receive(_ input: Int) -> Subscribers.Demand {
        received.append("\(input)")
        return .none
    }
    func receive(completion: Subscribers.Completion<TestError>) { received.append("\(completion)") }

    func cancel() {
        subscription?.cancel()
        subscription = nil
    }
}

@Suite(.timeLimit(.minutes(5)))
struct AsyncOperationPublisherTests {
    @Test func runsNothingBeforeDemandAndOnceForEachSubscription() async {
        let runs = Locked(0)
        let publisher = AsyncOperationPublisher { () async throws(TestError) -> Int in
            runs.withLock { count in
                count += 1
                return count
            }
        }
        // Without demand no task is started: once the subscriber lets go of its subscription,
        // nothing holds it any more, and the operation never ran.
        weak var idle: AnyObject?
        do {
            let holder = Holder()
            publisher.subscribe(holder)
            idle = holder.subscription as AnyObject?
            #expect(idle != nil)
            holder.cancel()
        }
        #expect(idle == nil)
        #expect(runs.current == 0)

        for expected in 1...2 {
            let finished = await withCheckedContinuation {
                (continuation: CheckedContinuation<[Event<Int, TestError>], Never>) in
                let recorder = Recorder<Int, Int, TestError>(demand: .max(1))
                recorder.onCompletion = { continuation.resume(returning: recorder.events) }
                publisher.subscribe(recorder)
            }
            #expect(finished == [.subscription, .value(expected), .finished])
        }
        #expect(runs.current == 2)
    }

    @Test func publishesTheOperationsFailure() async {
        let publisher = AsyncOperationPublisher { () async throws(TestError) -> Int in throw .boom }
        let events = await withCheckedContinuation {
            (continuation: CheckedContinuation<[Event<Int, TestError>], Never>) in
            let recorder = Recorder<Int, Int, TestError>(demand: .unlimited)
            recorder.onCompletion = { continuation.resume(returning: recorder.events) }
            publisher.subscribe(recorder)
        }
        #expect(events == [.subscription, .failure(.boom)])
    }

    @Test func cancellingTheSubscriptionCancelsTheTask() async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let (ended, endedContinuation) = AsyncStream<Bool>.makeStream()
        let publisher = AsyncOperationPublisher { () async throws(TestError) -> Int in
            startedContinuation.yield()
            do {
                try await Task.sleep(for: .seconds(30))
                endedContinuation.yield(false)
            } catch {
                endedContinuation.yield(true)
            }
            return 1
        }
        let holder = Holder()
        publisher.subscribe(holder)
        weak let running = holder.subscription as AnyObject?
        holder.subscription?.request(.unlimited)
        var startedIterator = started.makeAsyncIterator()
        _ = await startedIterator.next()
        holder.cancel()
        var endedIterator = ended.makeAsyncIterator()
        #expect(await endedIterator.next() == true)
        // The task lets go of the subscription once it has handed over the operation's value;
        // by then anything it delivered would have arrived.
        try await waitUntil { running == nil }
        #expect(holder.received.isEmpty)
    }
}
