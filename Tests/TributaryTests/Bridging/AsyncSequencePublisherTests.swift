import Foundation
import Testing
import Tributary
import TributaryTestSupport

/// A sequence that counts how many elements were pulled from it and throws a typed error
/// after `count` of them when told to.
struct Counting: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestError

    let count: Int
    let fails: Bool
    let pulled: Locked<Int>

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: Counting
        var next = 1

        mutating func next(isolation actor: isolated (any Actor)?) async throws(TestError) -> Int? {
            guard next <= sequence.count else {
                if sequence.fails { throw .boom }
                return nil
            }
            sequence.pulled.withLock { $0 += 1 }
            defer { next += 1 }
            return next
        }

        mutating func next() async throws(TestError) -> Int? {
            try await next(isolation: nil)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
}

@Suite(.timeLimit(.minutes(5)))
struct AsyncSequencePublisherTests {
    @Test func publishesTheElementsThenFinishes() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let recorder = Recorder<Int, Int, Never>(demand: .unlimited)
        stream.publisher.subscribe(recorder)
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
        try await waitUntil { recorder.events.last == .finished }
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    /// The failure type is the sequence's own: `TestError` here, not `any Error`.
    @Test func keepsATypedFailure() async throws {
        let publisher: AsyncSequencePublisher<Counting> = Counting(count: 2, fails: true, pulled: Locked(0))
            .publisher
        let failure: TestError.Type = type(of: publisher).Failure.self
        #expect(failure == TestError.self)
        let recorder = Recorder<Int, Int, TestError>(demand: .unlimited)
        publisher.subscribe(recorder)
        try await waitUntil { recorder.events.count == 4 }
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.boom)])
    }

    @Test func anUntypedThrowingSequenceFailsWithAnyError() async throws {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
        let failed = Locked<(any Error)?>(nil)
        let values = Locked<[Int]>([])
        let cancellable = stream.publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { failed.withLock { $0 = error } }
            },
            receiveValue: { value in values.withLock { $0.append(value) } }
        )
        continuation.yield(7)
        continuation.finish(throwing: TestError.other)
        try await waitUntil { failed.current != nil }
        #expect(values.current == [7])
        #expect(failed.current as? TestError == .other)
        cancellable.cancel()
    }

    /// No element is pulled from the sequence before the subscriber asks for it.
    @Test func pullsNoElementWithoutDemand() async throws {
        let pulled = Locked(0)
        let recorder = Recorder<Int, Int, TestError>(demand: .none)
        Counting(count: 100, fails: false, pulled: pulled).publisher.subscribe(recorder)
        recorder.request(.max(2))
        try await waitUntil { recorder.values == [1, 2] }
        #expect(pulled.current == 2)
        recorder.request(.max(1))
        try await waitUntil { recorder.values == [1, 2, 3] }
        #expect(pulled.current == 3)
        recorder.cancel()
    }

    /// Cancelling the subscription cancels the task that iterates the sequence.
    @Test func cancellingCancelsTheIteration() async throws {
        let (ended, endedContinuation) = AsyncStream<Bool>.makeStream()
        let ticks = AsyncStream<Int> { continuation in
            continuation.yield(1)
            continuation.onTermination = { termination in
                if case .cancelled = termination { endedContinuation.yield(true) }
            }
        }
        let recorder = Recorder<Int, Int, Never>(demand: .unlimited)
        ticks.publisher.subscribe(recorder)
        try await waitUntil { recorder.values == [1] }
        recorder.cancel()
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() == true)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    /// Each subscription iterates anew.
    @Test func eachSubscriptionIteratesTheSequence() async throws {
        let pulled = Locked(0)
        let publisher = Counting(count: 3, fails: false, pulled: pulled).publisher
        let first = Recorder<Int, Int, TestError>(demand: .unlimited)
        let second = Recorder<Int, Int, TestError>(demand: .unlimited)
        publisher.subscribe(first)
        publisher.subscribe(second)
        try await waitUntil { first.events.last == .finished && second.events.last == .finished }
        #expect(first.values == [1, 2, 3] && second.values == [1, 2, 3])
        #expect(pulled.current == 6)
    }

    /// A publisher and its `loadLatest` states read with `for await`, on OpenCombine as on
    /// Apple's Combine.
    @Test func loadLatestStatesReadWithForAwait() async throws {
        let (requests, continuation) = AsyncStream.makeStream(of: Int?.self)
        let states = requests.publisher
            .loadLatest { request in Just(request * 10).setFailureType(to: TestError.self) }
        continuation.yield(1)
        var seen: [String] = []
        for await state in states.values {
            switch state {
            case .idle:
                seen.append("idle")
                continuation.yield(2)
            case .loading(let request): seen.append("loading \(request)")
            case .loaded(let value):
                seen.append("loaded \(value)")
                if value == 10 { continuation.yield(nil) } else { continuation.finish() }
            case .failed(let error): seen.append("failed \(error)")
            }
        }
        #expect(seen == ["loading 1", "loaded 10", "idle", "loading 2", "loaded 20"])
    }

    /// `loadLatest` with an async fetch: a newer request cancels the fetch under way.
    @Test func loadLatestWithAnAsyncFetchCancelsTheStaleOne() async throws {
        let (requests, continuation) = AsyncStream.makeStream(of: String?.self)
        let gate = Gate()
        let states = requests.publisher.loadLatest { (request: String) async throws(TestError) -> String in
            if request == "slow" { await gate.wait() }
            return request.uppercased()
        }
        continuation.yield("slow")
        var iterator = states.values.makeAsyncIterator()
        #expect(await iterator.next()?.request == "slow")
        continuation.yield("fast")
        #expect(await iterator.next()?.request == "fast")
        #expect(await iterator.next()?.value == "FAST")
        gate.open()
        continuation.finish()
        #expect(await iterator.next() == nil)
    }
}
