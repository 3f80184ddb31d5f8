import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTestSupport
import TributaryTesting

@Suite struct MergeTests {
    typealias Rec = Recorder<Int, Int, TestError>

    /// Merge, Merge3 … Merge8, and MergeMany over nine.
    static let arities = Array(2...9)

    private func subscribe(_ upstreams: [IntUpstream], demand: Subscribers.Demand) -> Rec {
        let recorder = Rec(demand: demand)
        merge(upstreams).subscribe(recorder)
        return recorder
    }

    @Test(arguments: arities)
    func deliversValuesInArrivalOrder(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        var sent: [Int] = []
        for round in 0..<3 {
            for index in (0..<arity).reversed() where (index + round) % 2 == 0 {
                let value = round * 100 + index
                u[index].send(value)
                sent.append(value)
            }
        }
        #expect(recorder.values == sent)
        for upstream in u {
            #expect(upstream.history == [.requested(.unlimited)])
        }
    }

    @Test(arguments: arities)
    func finishesAfterEveryUpstreamHasFinished(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        for upstream in u.dropLast() {
            upstream.send(completion: .finished)
        }
        u[arity - 1].send(1)
        #expect(recorder.events == [.subscription, .value(1)])
        u[arity - 1].send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test(arguments: arities)
    func passesDemandOnAndKeepsWhatArrivesBeyondIt(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .max(2))
        for (index, upstream) in u.enumerated() {
            #expect(upstream.history == [.requested(.max(2))])
            upstream.send(index)
        }
        #expect(recorder.values == [0, 1])

        recorder.request(.max(1))
        #expect(recorder.values == Array(0..<min(3, arity)))
        for upstream in u {
            #expect(upstream.history == [.requested(.max(2)), .requested(.max(1))])
        }
        recorder.request(.unlimited)
        #expect(recorder.values == Array(0..<arity))
    }

    @Test(arguments: arities)
    func holdsFinishedUntilTheKeptValuesAreDelivered(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .max(1))
        for (index, upstream) in u.enumerated() {
            upstream.send(index)
            upstream.send(completion: .finished)
        }
        #expect(recorder.events == [.subscription, .value(0)])
        recorder.request(.max(arity))
        #expect(recorder.events == [.subscription] + (0..<arity).map { .value($0) } + [.finished])
    }

    @Test(arguments: arities)
    func forwardsTheFirstFailureAndCancelsTheOtherUpstreams(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        u[0].send(1)
        u[arity - 1].send(completion: .failure(.boom))
        u[0].send(2)
        u[0].send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .value(1), .failure(.boom)])
        for upstream in u.dropLast() {
            #expect(upstream.history == [.requested(.unlimited), .cancelled])
        }
        #expect(u[arity - 1].history == [.requested(.unlimited)])
    }

    @Test(arguments: arities)
    func cancellationReachesEveryUpstream(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        recorder.cancel()
        for upstream in u {
            #expect(upstream.send(1) == .none)
            #expect(upstream.history == [.requested(.unlimited), .cancelled])
        }
        #expect(recorder.events == [.subscription])
    }

    @Test(arguments: arities)
    func handsOverItsSubscriptionOnceEveryUpstreamHasSubscribed(arity: Int) {
        let u = upstreams(arity, subscribesLater: true)
        let recorder = subscribe(u, demand: .unlimited)
        for upstream in u.dropLast() {
            upstream.handOverSubscription()
        }
        #expect(recorder.events.isEmpty)
        u[arity - 1].handOverSubscription()
        #expect(recorder.events == [.subscription])
    }

    @Test(arguments: arities)
    func queuesValuesAndCompletionThatArriveDuringDelivery(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        recorder.onValue = { value in
            if value == 0 {
                for (index, upstream) in u.enumerated().reversed() {
                    upstream.send(index + 10)
                    upstream.send(completion: .finished)
                }
            }
            return .none
        }
        u[0].send(0)
        let reentered = (0..<arity).reversed().map { $0 + 10 }
        #expect(recorder.values == [0] + reentered)
        #expect(recorder.events.last == .finished)
        #expect(recorder.overlappingDeliveries == 0)
    }

    @Test func returnsTheDownstreamsNewDemandToTheUpstreamThatTriggeredIt() {
        let u = upstreams(3)
        let recorder = subscribe(u, demand: .max(1))
        recorder.onValue = { _ in .max(2) }
        #expect(u[1].send(5) == .max(2))
        #expect(u[0].history == [.requested(.max(1)), .requested(.max(2))])
        #expect(u[1].history == [.requested(.max(1))])
        #expect(u[2].history == [.requested(.max(1)), .requested(.max(2))])
    }

    @Test func keepsOrderWhenAnUpstreamAnswersDemandSynchronously() {
        let u = upstreams(2)
        let recorder = subscribe(u, demand: .max(1))
        u[0].send(1)
        u[0].send(2)  // kept: no demand
        u[1].onRequest = { _ in u[1].send(3) }
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.overlappingDeliveries == 0)
    }

    @Test func chainsMergeWithOnEveryArity() {
        let recorder = Recorder<Int, Int, Never>(demand: .unlimited)
        Publishers.Merge(Just(1), Just(2)).merge(with: Just(3))
            .merge(with: Just(4)).merge(with: Just(5), Just(6)).merge(with: Just(7), Just(8))
            .subscribe(recorder)
        #expect(recorder.events == [.subscription] + (1...8).map { .value($0) } + [.finished])

        let wide = Recorder<Int, Int, Never>(demand: .unlimited)
        Publishers.Merge(Just(1), Just(2)).merge(with: Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))
            .subscribe(wide)
        #expect(wide.values == Array(1...8))

        let many = Recorder<Int, Int, Never>(demand: .unlimited)
        Publishers.MergeMany(Just(1), Just(2)).merge(with: Just(3)).subscribe(many)
        #expect(many.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func mergeManyOfNothingFinishesAtOnce() {
        let recorder = Recorder<Int, Int, Never>(demand: .unlimited)
        Publishers.MergeMany([Just<Int>]()).subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func interleavesByTimeInVirtualTime() {
        let test = MarbleTest(frame: .milliseconds(50))
        let fast = test.cold("--a--b--(c|)")
        let slow = test.cold("----x-(y|)")
        test.expect(fast.merge(with: slow), toBe: "--a-xby-(c|)")
    }

    @Test func comparesEqualWhenItsUpstreamsDo() {
        #expect(Publishers.Merge(Just(1), Just(2)) == Publishers.Merge(Just(1), Just(2)))
        #expect(Publishers.Merge3(Just(1), Just(2), Just(3)) != Publishers.Merge3(Just(1), Just(2), Just(4)))
        #expect(
            Publishers.Merge8(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))
                == Publishers.Merge8(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))
        )
        #expect(Publishers.MergeMany(Just(1), Just(2)) == Publishers.MergeMany([Just(1), Just(2)]))
        #expect(Publishers.MergeMany(Just(1)) != Publishers.MergeMany(Just(2)))
    }
}
