import Foundation
import Testing
import Tributary
import TributaryTestSupport

@Suite(.timeLimit(.minutes(5)))
struct AsyncEventsPublisherTests {
    /// Values wait for demand, in order; returning finishes, and each subscription runs anew.
    @Test func publishesWhatTheOperationSendsAsDemandAllows() async throws {
        let runs = Locked(0)
        let publisher = AsyncEventsPublisher<Int, TestError> { send in
            runs.withLock { $0 += 1 }
            for value in 1...3 { send(value) }
        }
        let recorder = Recorder<Int, Int, TestError>(demand: .max(1))
        publisher.subscribe(recorder)
        try await waitUntil { recorder.values == [1] }
        recorder.request(.unlimited)
        try await waitUntil { recorder.events.last == .finished }
        #expect(recorder.values == [1, 2, 3])
        let second = Recorder<Int, Int, TestError>(demand: .unlimited)
        publisher.subscribe(second)
        try await waitUntil { second.events.last == .finished }
        #expect(runs.current == 2)
    }

    @Test func failsWithWhatTheOperationThrows() async throws {
        let recorder = Recorder<Int, Int, TestError>(demand: .unlimited)
        AsyncEventsPublisher<Int, TestError> { send throws(TestError) in
            send(1)
            throw .boom
        }
        .subscribe(recorder)
        try await waitUntil { recorder.events.count == 3 }
        #expect(recorder.events == [.subscription, .value(1), .failure(.boom)])
    }

    /// Cancelling the subscription cancels the operation's task.
    @Test func cancellingCancelsTheOperation() async throws {
        let (ended, endedContinuation) = AsyncStream<Bool>.makeStream()
        let recorder = Recorder<Int, Int, Never>(demand: .unlimited)
        AsyncEventsPublisher<Int, Never> { send in
            send(1)
            do {
                try await Task.sleep(for: .seconds(30))
                endedContinuation.yield(false)
            } catch {
                endedContinuation.yield(true)
            }
        }
        .subscribe(recorder)
        try await waitUntil { recorder.values == [1] }
        recorder.cancel()
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() == true)
    }
}
