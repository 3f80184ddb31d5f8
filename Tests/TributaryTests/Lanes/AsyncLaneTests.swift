import Foundation
import Testing
import Tributary
import TributaryTestSupport

/// A sequence that can be iterated again and again, each time from its first value.
struct Replayed: AsyncSequence, Sendable {
    let values: [Int]

    init(_ values: [Int]) {
        self.values = values
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var rest: ArraySlice<Int>

        mutating func next() async -> Int? { rest.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: values[...]) }
}

/// `AsyncSequence.lane`: an iteration is a subscription, each `next()` a demand of one.
@Suite(.timeLimit(.minutes(5))) struct AsyncLaneTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the source broke" }
    }

    private func kinds(_ memory: LaneMemory, lane: String) -> [LaneEvent.Kind] {
        memory.events(lane: lane).map(\.kind)
    }

    @Test func recordsAnIterationToItsEnd() async {
        let memory = LaneMemory()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        for value in [1, 2] { continuation.yield(value) }
        continuation.finish()
        var seen: [Int] = []
        for await value in stream.lane("numbers", recorder: memory) { seen.append(value) }
        #expect(seen == [1, 2])
        #expect(
            kinds(memory, lane: "numbers") == [
                .subscribed, .requested(.max(1)), .value("1"), .requested(.max(1)), .value("2"),
                .requested(.max(1)), .finished,
            ]
        )
        let events = memory.events
        #expect(events.allSatisfy { $0.source.hasPrefix("TributaryTests/AsyncLaneTests.swift:") })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test func recordsAFailureAndRethrowsIt() async {
        let memory = LaneMemory()
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        continuation.yield("a")
        continuation.finish(throwing: Broken())
        var seen: [String] = []
        await #expect(throws: Broken.self) {
            for try await value in stream.lane("words", recorder: memory) { seen.append(value) }
        }
        #expect(seen == ["a"])
        #expect(
            kinds(memory, lane: "words") == [
                .subscribed, .requested(.max(1)), .value("a"), .requested(.max(1)),
                .failed("the source broke"),
            ]
        )
    }

    @Test func anIterationLeftEarlyIsCancelled() async {
        let memory = LaneMemory()
        for await value in AsyncStream<Int>(unfolding: { 7 }).lane("endless", recorder: memory) {
            if value == 7 { break }
        }
        #expect(
            kinds(memory, lane: "endless") == [.subscribed, .requested(.max(1)), .value("7"), .cancelled]
        )
    }

    @Test func aTaskCancelledWhileWaitingIsCancelledNotFinished() async {
        let memory = LaneMemory()
        let (stream, _) = AsyncStream<Int>.makeStream()
        let waiting = Task {
            for await _ in stream.lane("waiting", recorder: memory) {}
        }
        try? await waitUntil { memory.events(lane: "waiting").count == 2 }
        waiting.cancel()
        await waiting.value
        #expect(kinds(memory, lane: "waiting") == [.subscribed, .requested(.max(1)), .cancelled])
    }

    @Test func numbersEachIterationAndKeepsTheFilter() async {
        let memory = LaneMemory()
        let lane = "twice-\(UUID().uuidString)"
        let numbers = Replayed([1, 2, 3]).lane(lane, filter: .subscriptions, recorder: memory)
        for await _ in numbers {}
        for await _ in numbers {}
        let events = memory.events(lane: lane)
        #expect(events.map(\.kind) == [.subscribed, .finished, .subscribed, .finished])
        #expect(events.map(\.subscription) == [1, 1, 2, 2])
    }

    @Test func writesElementsAsDescribeSays() async {
        let memory = LaneMemory()
        for await _ in Replayed([1, 2]).lane("described", recorder: memory, describe: { "#\($0)" }) {}
        let values = kinds(memory, lane: "described").filter { if case .value = $0 { true } else { false } }
        #expect(values == [.value("#1"), .value("#2")])
    }
}

/// These set the process-wide recorder, so they run one at a time with the other suite that does.
extension ProcessRecorderTests {
    @Test func anAsyncLaneUsesTheProcessRecorderWhenIterationBegins() async {
        let memory = LaneMemory()
        let lane = "async-process-\(UUID().uuidString)"
        let numbers = Replayed([4]).lane(lane)
        for await _ in numbers {}
        Lanes.recorder = memory
        for await _ in numbers {}
        Lanes.recorder = nil
        #expect(
            memory.events(lane: lane).map(\.kind) == [
                .subscribed, .requested(.max(1)), .value("4"), .requested(.max(1)), .finished,
            ]
        )
    }
}
