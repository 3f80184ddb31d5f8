import Foundation
import Testing
import Tributary
import TributaryTestSupport

@Suite struct LaneTests {
    typealias Rec = Recorder<Int, Int, TestError>

    private func kinds(_ memory: LaneMemory, lane: String) -> [LaneEvent.Kind] {
        memory.events(lane: lane).map(\.kind)
    }

    @Test func recordsASubscriptionsLifeInOrder() throws {
        let memory = LaneMemory()
        let upstream = IntUpstream()
        let recorder = Rec(demand: .max(2))
        upstream.lane("numbers", recorder: memory).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)

        #expect(
            kinds(memory, lane: "numbers") == [
                .subscribed, .requested(.max(2)), .value("1"), .value("2"), .finished,
            ]
        )
        let events = memory.events
        #expect(Set(events.map(\.subscription)).count == 1)
        #expect(events.allSatisfy { $0.source.hasPrefix("TributaryTests/LaneTests.swift:") })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(events.allSatisfy { $0.time >= .zero })
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func recordsTheDemandASubscriberReturnsForAValue() {
        let memory = LaneMemory()
        let upstream = IntUpstream()
        let recorder = Rec(demand: .max(1))
        recorder.onValue = { _ in .max(3) }
        upstream.lane("more", recorder: memory).subscribe(recorder)
        #expect(upstream.send(7) == .max(3))
        #expect(
            kinds(memory, lane: "more") == [
                .subscribed, .requested(.max(1)), .value("7"), .requested(.max(3)),
            ]
        )
    }

    @Test func recordsAFailureWithItsDescriptionAndNothingAfterTheEnd() {
        let memory = LaneMemory()
        let upstream = IntUpstream()
        let recorder = Rec(demand: .unlimited)
        upstream.lane("failing", recorder: memory, describe: { "#\($0)" }).subscribe(recorder)
        upstream.send(4)
        upstream.send(completion: .failure(.boom))
        recorder.cancel()
        #expect(
            kinds(memory, lane: "failing") == [
                .subscribed, .requested(.unlimited), .value("#4"),
                .failed(String(describing: TestError.boom)),
            ]
        )
        #expect(recorder.events == [.subscription, .value(4), .failure(.boom)])
    }

    /// The lane passes demand and cancellation upstream exactly as they were asked for.
    @Test(arguments: [Subscribers.Demand.max(1), .max(5), .unlimited, .none])
    func changesNothingAboutThePipeline(demand: Subscribers.Demand) {
        func run(
            laned: Bool
        ) -> ([Upstream<Int, TestError>.Event], [Event<Int, TestError>], [Subscribers.Demand]) {
            let upstream = IntUpstream()
            let recorder = Rec(demand: demand)
            recorder.onValue = { $0 == 2 ? .max(1) : .none }
            if laned {
                upstream.lane("transparent", recorder: LaneMemory()).subscribe(recorder)
            } else {
                upstream.subscribe(recorder)
            }
            let answers = (1...4).map { upstream.send($0) }
            recorder.request(.max(2))
            recorder.cancel()
            upstream.send(completion: .finished)
            return (upstream.history, recorder.events, answers)
        }
        let bare = run(laned: false)
        let laned = run(laned: true)
        #expect(laned.0 == bare.0)
        #expect(laned.1 == bare.1)
        #expect(laned.2 == bare.2)
    }

    @Test func recordsACancellationDuringReceiveSubscription() {
        let memory = LaneMemory()
        let upstream = IntUpstream()
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { $0.cancel() },
            receiveValue: { _ in .none },
            receiveCompletion: { _ in }
        )
        upstream.lane("impatient", recorder: memory).subscribe(subscriber)
        #expect(kinds(memory, lane: "impatient") == [.subscribed, .cancelled])
        #expect(upstream.history == [.cancelled])
    }

    @Test func recordsARequestDuringReceiveSubscription() {
        let memory = LaneMemory()
        let values = Locked<[Int]>([])
        let cancellable = [1, 2, 3].publisher.lane("eager", recorder: memory).sink { value in
            values.withLock { $0.append(value) }
        }
        #expect(values.current == [1, 2, 3])
        #expect(
            kinds(memory, lane: "eager") == [
                .subscribed, .requested(.unlimited), .value("1"), .value("2"), .value("3"), .finished,
            ]
        )
        cancellable.cancel()
        #expect(kinds(memory, lane: "eager").last == .finished)
    }

    @Test(arguments: [
        (LaneFilter.subscriptions, [LaneEvent.Kind.subscribed, .finished]),
        (.events, [.requested(.unlimited), .value("1"), .finished]),
        (.all, [.subscribed, .requested(.unlimited), .value("1"), .finished]),
    ])
    func filtersLikeTimelane(filter: LaneFilter, expected: [LaneEvent.Kind]) {
        let memory = LaneMemory()
        let described = Locked(0)
        let cancellable = Just(1).lane("filtered", filter: filter, recorder: memory) { value in
            described.withLock { $0 += 1 }
            return "\(value)"
        }.sink { _ in }
        #expect(kinds(memory, lane: "filtered") == expected)
        #expect(described.current == (filter.contains(.events) ? 1 : 0))
        cancellable.cancel()
    }

    @Test func numbersEachSubscriptionThroughALane() {
        let memory = LaneMemory()
        let publisher = Just(1).lane("numbered", recorder: memory)
        let first = publisher.sink { _ in }
        let second = publisher.sink { _ in }
        let numbers = memory.events(lane: "numbered").map(\.subscription)
        #expect(Set(numbers).count == 2)
        first.cancel()
        second.cancel()
    }

    /// Many subscriptions at once, each fed from its own thread while another thread asks for
    /// more: every subscription's events arrive whole and in order.
    @Test func keepsEachSubscriptionsOrderAcrossThreads() {
        let memory = LaneMemory()
        let subscriptions = 8
        let values = 2_000
        DispatchQueue.concurrentPerform(iterations: subscriptions) { _ in
            let upstream = IntUpstream()
            let recorder = Rec(demand: .max(1))
            upstream.lane("threads", recorder: memory).subscribe(recorder)
            let asker = DispatchQueue(label: "asker")
            let group = DispatchGroup()
            for value in 0..<values {
                upstream.send(value)
                if value.isMultiple(of: 100) {
                    asker.async(group: group) { recorder.request(.max(1)) }
                }
            }
            group.wait()
            upstream.send(completion: .finished)
        }
        let bySubscription = Dictionary(grouping: memory.events(lane: "threads"), by: \.subscription)
        #expect(bySubscription.count == subscriptions)
        for (_, events) in bySubscription {
            let sent = events.compactMap { event -> Int? in
                if case .value(let value) = event.kind { return Int(value) }
                return nil
            }
            #expect(sent == Array(0..<values))
            #expect(events.first?.kind == .subscribed)
            #expect(events.last?.kind == .finished)
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        }
    }
}

/// These set the process-wide recorder, so they run one at a time.
@Suite(.serialized) struct ProcessRecorderTests {
    @Test func usesTheProcessRecorderWhenGivenNone() {
        let memory = LaneMemory()
        let lane = "process-\(UUID().uuidString)"
        Lanes.recorder = memory
        let cancellable = Just(5).lane(lane).sink { _ in }
        Lanes.recorder = nil
        let later = Just(6).lane(lane).sink { _ in }
        #expect(
            memory.events(lane: lane).map(\.kind) == [
                .subscribed, .requested(.unlimited), .value("5"), .finished,
            ]
        )
        cancellable.cancel()
        later.cancel()
    }

    @Test func nobodyRecordingLeavesTheSubscriptionUntouched() {
        let upstream = IntUpstream()
        let recorder = Recorder<Int, Int, TestError>(demand: .max(1))
        upstream.lane("unrecorded").subscribe(recorder)
        let subscription = recorder.subscription
        #expect(String(describing: subscription.map { type(of: $0) }).contains("Handle"))
    }
}
