import Foundation
import Testing
import Tributary
import TributaryTestSupport

@Suite(.timeLimit(.minutes(1)))
struct AsyncOperationPublisherTests {
    @Test func runsNothingBeforeDemandAndOnceForEachSubscription() async {
        let runs = Locked(0)
        let publisher = AsyncOperationPublisher { () async throws(TestError) -> Int in
            runs.withLock { count in
                count += 1
                return count
            }
        }
        let recorder = Recorder<Int, Int, TestError>(demand: .none)
        publisher.subscribe(recorder)
        try? await Task.sleep(for: .milliseconds(50))
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

    @Test func cancellingTheSubscriptionCancelsTheTask() async {
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
        let recorder = Recorder<Int, Int, TestError>(demand: .unlimited)
        publisher.subscribe(recorder)
        var startedIterator = started.makeAsyncIterator()
        _ = await startedIterator.next()
        recorder.cancel()
        var endedIterator = ended.makeAsyncIterator()
        #expect(await endedIterator.next() == true)
        try? await Task.sleep(for: .milliseconds(20))
        #expect(recorder.events == [.subscription])
    }
}
