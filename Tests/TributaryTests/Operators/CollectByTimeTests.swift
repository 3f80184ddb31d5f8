import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTestSupport
import TributaryTesting

@Suite struct CollectByTimeTests {
    typealias Rec = Recorder<[Int], [Int], TestError>

    private let scheduler = DispatchQueue.test

    private func collect(
        _ upstream: IntUpstream,
        count: Int? = nil,
        demand: Subscribers.Demand = .unlimited
    ) -> Rec {
        let recorder = Rec(demand: demand)
        let strategy: Publishers.TimeGroupingStrategy<TestSchedulerOf<DispatchQueue>> =
            count.map { .byTimeOrCount(scheduler, .seconds(1), $0) } ?? .byTime(scheduler, .seconds(1))
        upstream.collect(strategy).subscribe(recorder)
        return recorder
    }

    @Test func publishesWhatArrivedInEachInterval() {
        let upstream = IntUpstream()
        let recorder = collect(upstream)
        #expect(upstream.history.allSatisfy { $0 == .requested(.max(1)) })
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.events == [.subscription])
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values == [[1, 2]])
        scheduler.advance(by: .seconds(1))  // an empty interval publishes nothing
        upstream.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[1, 2], [3]])
    }

    @Test func publishesAFullGroupAtOnceWithByTimeOrCount() {
        let upstream = IntUpstream()
        let recorder = collect(upstream, count: 2)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.values == [[1, 2]])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[1, 2], [3]])
    }

    @Test func publishesTheRestWhenTheUpstreamFinishes() {
        let upstream = IntUpstream()
        let recorder = collect(upstream)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value([1]), .finished])
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events.count == 3)
    }

    @Test func discardsTheRestWhenTheUpstreamFails() {
        let upstream = IntUpstream()
        let recorder = collect(upstream)
        upstream.send(1)
        upstream.send(completion: .failure(.boom))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .failure(.boom)])
    }

    @Test func keepsGroupsUntilTheDownstreamAsksForThem() {
        let upstream = IntUpstream()
        let recorder = collect(upstream, count: 1, demand: .max(1))
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.values == [[1]])
        recorder.request(.max(1))
        #expect(recorder.values == [[1], [2]])
        upstream.send(completion: .finished)
        #expect(recorder.events.last == .value([2]))
        recorder.request(.unlimited)
        #expect(recorder.events.suffix(2) == [.value([3]), .finished])
    }

    @Test func cancellationStopsTheUpstreamAndTheTimer() {
        let upstream = IntUpstream()
        let recorder = collect(upstream)
        upstream.send(1)
        recorder.cancel()
        scheduler.advance(by: .seconds(3))
        #expect(recorder.events == [.subscription])
        #expect(upstream.history.last == .cancelled)
        #expect(upstream.history.dropLast().allSatisfy { $0 == .requested(.max(1)) })
    }

    /// Combine's asks its upstream for one element at a time: none when subscribed, one for
    /// each request of the downstream, and one more with each element.
    @Test(arguments: [nil, 2])
    func asksItsUpstreamForOneElementAtATime(count: Int?) {
        let upstream = IntUpstream()
        let recorder = collect(upstream, count: count, demand: .max(1))
        let requests = { upstream.history.filter { $0 == .requested(.max(1)) }.count }
        #expect(upstream.history.allSatisfy { $0 == .requested(.max(1)) })
        #expect(requests() == 1)  // the downstream's first request; none on subscription
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        recorder.request(.max(3))
        #expect(requests() == 2)
        recorder.request(.max(1))
        #expect(requests() == 3)
        #expect(!upstream.history.contains(.requested(.unlimited)))
    }

    /// A suite written against Apple's Combine counts 101 requests for 100 values under one
    /// unlimited downstream request — the downstream's, and one with each value — and 102 after
    /// one more request of the downstream.
    @Test func asksAsOftenAsCombineDoesForAHundredValues() {
        let upstream = IntUpstream()
        let recorder = collect(upstream)
        var requests = upstream.history.count { $0 == .requested(.max(1)) }
        for value in 1...100 where upstream.send(value) == .max(1) { requests += 1 }
        #expect(requests == 101)
        recorder.request(.max(1))
        #expect(requests + 1 == upstream.history.count { $0 == .requested(.max(1)) } + 100)
    }

    @Test func groupsATimelineInVirtualTime() {
        let test = MarbleTest(frame: .milliseconds(100))
        let source = test.cold(
            "--1----2----3----------------------(4|)",
            values: ["1": 1, "2": 2, "3": 3, "4": 4]
        )
        test.expect(
            source.collect(.byTime(test.scheduler, .seconds(1))),
            toBe: "----------a---------b--------------(c|)",
            values: ["a": [1, 2], "b": [3], "c": [4]]
        )
    }
}
