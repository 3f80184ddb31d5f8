import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTestSupport
import TributaryTesting

@Suite struct CombineLatestTests {
    typealias Rec = Recorder<[Int], [Int], TestError>

    private func subscribe(_ upstreams: [IntUpstream], demand: Subscribers.Demand) -> Rec {
        let recorder = Rec(demand: demand)
        combineLatest(upstreams).subscribe(recorder)
        return recorder
    }

    @Test(arguments: [2, 3, 4])
    func publishesOnlyOnceEveryUpstreamHasAValue(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        for index in 0..<(arity - 1) {
            u[index].send(index + 1)
        }
        #expect(recorder.events == [.subscription])

        u[arity - 1].send(arity)
        u[0].send(10)
        u[arity - 1].send(20)

        let first = Array(1...arity)
        var second = first
        second[0] = 10
        var third = second
        third[arity - 1] = 20
        #expect(recorder.events == [.subscription, .value(first), .value(second), .value(third)])
        for upstream in u {
            #expect(upstream.history == [.requested(.unlimited)])
        }
    }

    @Test(arguments: [2, 3, 4])
    func passesDemandToEveryUpstreamAndPublishesNoMoreThanAsked(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .max(2))
        for upstream in u {
            #expect(upstream.history == [.requested(.max(2))])
        }
        for (index, upstream) in u.enumerated() {
            upstream.send(index)
        }
        u[0].send(100)
        u[0].send(101)  // no demand left: waits
        u[0].send(102)  // replaces 101, which is no longer the latest
        #expect(recorder.values.map(\.[0]) == [0, 100])

        recorder.request(.max(1))
        for upstream in u {
            #expect(upstream.history == [.requested(.max(2)), .requested(.max(1))])
        }
        #expect(recorder.values.map(\.[0]) == [0, 100, 102])

        u[1].send(7)  // demand used up again
        #expect(recorder.values.count == 3)
    }

    @Test(arguments: [2, 3, 4])
    func returnsTheDownstreamsNewDemandToTheUpstreamThatTriggeredIt(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .max(1))
        recorder.onValue = { _ in .max(3) }
        for index in 0..<(arity - 1) {
            #expect(u[index].send(index) == .none)
        }
        #expect(u[arity - 1].send(9) == .max(3))
        for index in 0..<(arity - 1) {
            #expect(u[index].history == [.requested(.max(1)), .requested(.max(3))])
        }
        #expect(u[arity - 1].history == [.requested(.max(1))])
    }

    @Test(arguments: [2, 3, 4])
    func finishesOnlyWhenEveryUpstreamHasFinished(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        for upstream in u {
            upstream.send(1)
        }
        for upstream in u.dropLast() {
            upstream.send(completion: .finished)
        }
        u[arity - 1].send(2)
        #expect(recorder.events.last == .value(Array(repeating: 1, count: arity - 1) + [2]))

        u[arity - 1].send(completion: .finished)
        #expect(recorder.events.last == .finished)
        u[arity - 1].send(3)
        #expect(recorder.events.count == 4)
    }

    @Test(arguments: [2, 3, 4])
    func waitsForTheOthersWhenAnUpstreamFinishesWithoutAValue(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        u[0].send(completion: .finished)
        for upstream in u.dropFirst() {
            upstream.send(5)
        }
        #expect(recorder.events == [.subscription])
        for upstream in u.dropFirst() {
            upstream.send(completion: .finished)
        }
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test(arguments: [2, 3, 4])
    func forwardsTheFirstFailureAndCancelsTheOtherUpstreams(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        for upstream in u {
            upstream.send(1)
        }
        u[1].send(completion: .failure(.boom))
        u[0].send(completion: .failure(.other))
        u[0].send(2)

        #expect(
            recorder.events == [.subscription, .value(Array(repeating: 1, count: arity)), .failure(.boom)]
        )
        for (index, upstream) in u.enumerated() {
            let expected: [IntUpstream.Event] =
                index == 1 ? [.requested(.unlimited)] : [.requested(.unlimited), .cancelled]
            #expect(upstream.history == expected)
        }
    }

    @Test(arguments: [2, 3, 4])
    func cancellationReachesEveryUpstream(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        recorder.cancel()
        for upstream in u {
            upstream.send(1)
            #expect(upstream.history == [.requested(.unlimited), .cancelled])
        }
        recorder.cancel()
        #expect(recorder.events == [.subscription])
    }

    @Test(arguments: [2, 3, 4])
    func handsOverItsSubscriptionOnceEveryUpstreamHasSubscribed(arity: Int) {
        let u = upstreams(arity, subscribesLater: true)
        let recorder = subscribe(u, demand: .max(1))
        for upstream in u.dropLast() {
            upstream.handOverSubscription()
            #expect(recorder.events.isEmpty)
        }
        u[arity - 1].handOverSubscription()
        #expect(recorder.events == [.subscription])
        for upstream in u {
            #expect(upstream.history == [.requested(.max(1))])
        }
    }

    @Test(arguments: [2, 3, 4])
    func queuesAValueThatArrivesWhileOneIsBeingDelivered(arity: Int) {
        let u = upstreams(arity)
        let recorder = subscribe(u, demand: .unlimited)
        recorder.onValue = { value in
            if value[0] == 0 {
                u[0].send(1)
                u[1].send(2)
            }
            return .none
        }
        for upstream in u {
            upstream.send(0)
        }
        let zeros = Array(repeating: 0, count: arity)
        var afterFirst = zeros
        afterFirst[0] = 1
        var afterSecond = afterFirst
        afterSecond[1] = 2
        #expect(recorder.values == [zeros, afterFirst, afterSecond])
        #expect(recorder.overlappingDeliveries == 0)
    }

    @Test(arguments: [Subscribers.Completion<TestError>.finished, .failure(.boom)])
    func deliversACompletionThatArrivesDuringDeliveryAfterTheValue(
        completion: Subscribers.Completion<TestError>
    ) {
        let u = upstreams(2)
        let recorder = subscribe(u, demand: .unlimited)
        recorder.onValue = { _ in
            u[0].send(completion: completion)
            u[1].send(completion: completion)
            return .none
        }
        u[0].send(1)
        u[1].send(2)
        #expect(recorder.events == [.subscription, .value([1, 2]), .completion(completion)])
        #expect(recorder.overlappingDeliveries == 0)
    }

    @Test func publishesTuplesForEveryArity() {
        let two = Recorder<(Int, String), [String], Never>(demand: .unlimited) { ["\($0.0)", $0.1] }
        Publishers.CombineLatest(Just(1), Just("a")).subscribe(two)
        #expect(two.events == [.subscription, .value(["1", "a"]), .finished])

        let three = Recorder<(Int, String, Bool), [String], Never>(demand: .unlimited) {
            ["\($0.0)", $0.1, "\($0.2)"]
        }
        Just(1).combineLatest(Just("a"), Just(true)).subscribe(three)
        #expect(three.events == [.subscription, .value(["1", "a", "true"]), .finished])

        let four = Recorder<(Int, String, Bool, Double), [String], Never>(demand: .unlimited) {
            ["\($0.0)", $0.1, "\($0.2)", "\($0.3)"]
        }
        Just(1).combineLatest(Just("a"), Just(true), Just(0.5)).subscribe(four)
        #expect(four.events == [.subscription, .value(["1", "a", "true", "0.5"]), .finished])
    }

    @Test func combinesSynchronousPublishers() {
        let recorder = Recorder<[Int], [Int], Never>(demand: .unlimited)
        [1, 2, 3].publisher.combineLatest([10, 20].publisher) { [$0, $1] }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value([3, 10]), .value([3, 20]), .finished])

        let empty = Recorder<[Int], [Int], Never>(demand: .unlimited)
        Empty<Int, Never>().combineLatest(Just(1)) { [$0, $1] }.subscribe(empty)
        #expect(empty.events == [.subscription, .finished])
    }

    @Test func followsTheLatestValuesInVirtualTime() {
        let test = MarbleTest(frame: .milliseconds(100))
        let name = test.cold("-a-b--(c|)")
        let count = test.cold("--1-2(3|)", values: ["1": 1, "2": 2, "3": 3])
        test.expect(
            name.combineLatest(count) { "\($0)\($1)" },
            toBe: "--abcd(e|)",
            values: ["a": "a1", "b": "b1", "c": "b2", "d": "b3", "e": "c3"]
        )
    }

    @Test func comparesEqualWhenItsUpstreamsDo() {
        #expect(Publishers.CombineLatest(Just(1), Just(2)) == Publishers.CombineLatest(Just(1), Just(2)))
        #expect(Publishers.CombineLatest(Just(1), Just(2)) != Publishers.CombineLatest(Just(1), Just(3)))
        #expect(
            Publishers.CombineLatest3(Just(1), Just(2), Just(3))
                == Publishers.CombineLatest3(Just(1), Just(2), Just(3))
        )
        #expect(
            Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(4))
                != Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(5))
        )
        #expect(Publishers.Zip(Just(1), Just(2)) == Publishers.Zip(Just(1), Just(2)))
        #expect(Publishers.Zip3(Just(1), Just(2), Just(3)) != Publishers.Zip3(Just(1), Just(2), Just(4)))
        #expect(
            Publishers.Zip4(Just(1), Just(2), Just(3), Just(4))
                == Publishers.Zip4(Just(1), Just(2), Just(3), Just(4))
        )
    }
}
