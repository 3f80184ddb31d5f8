import Foundation
import Testing
import Tributary
import TributaryTestSupport

@Suite struct DelegateEventsTests {
    @Test func honoursDemandAndKeepsTheRestInOrder() {
        let events = DelegateEvents<Int, TestError>()
        let recorder = Recorder<Int, Int, TestError>(demand: .max(2))
        events.subscribe(recorder)
        for value in 1...5 { events.send(value) }
        #expect(recorder.values == [1, 2])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3, 4])
        events.send(completion: .finished)
        #expect(recorder.events.last == .value(4))
        recorder.request(.max(1))
        #expect(
            recorder.events == [
                .subscription, .value(1), .value(2), .value(3), .value(4), .value(5), .finished,
            ]
        )
    }

    @Test(arguments: [
        (DelegateEvents<Int, TestError>.Buffering.newest(2), [4, 5]),
        (.oldest(2), [1, 2]),
        (.newest(0), []),
        (.unbounded, [1, 2, 3, 4, 5]),
    ])
    func keepsWhatItsBufferingSaysWhileThereIsNoDemand(
        buffering: DelegateEvents<Int, TestError>.Buffering,
        kept: [Int]
    ) {
        let events = DelegateEvents<Int, TestError>(buffering: buffering)
        let recorder = Recorder<Int, Int, TestError>(demand: .none)
        events.subscribe(recorder)
        for value in 1...5 { events.send(value) }
        recorder.request(.unlimited)
        events.send(6)
        #expect(recorder.values == kept + [6])
    }

    @Test func runsItsHooksForTheFirstSubscriberAndAfterTheLast() {
        let log = Locked<[String]>([])
        let events = DelegateEvents<Int, Never>(
            onActive: { log.withLock { $0.append("active") } },
            onInactive: { log.withLock { $0.append("inactive") } }
        )
        let first = events.sink { _ in }
        let second = events.sink { _ in }
        #expect(log.current == ["active"])
        #expect(events.hasSubscribers)
        first.cancel()
        #expect(log.current == ["active"])
        second.cancel()
        #expect(log.current == ["active", "inactive"])
        #expect(!events.hasSubscribers)
        let third = events.sink { _ in }
        events.send(completion: .finished)
        #expect(log.current == ["active", "inactive", "active", "inactive"])
        third.cancel()
        #expect(log.current.count == 4)
    }

    @Test func endsLateSubscribersWithTheSameCompletion() {
        let log = Locked<[String]>([])
        let events = DelegateEvents<Int, TestError>(onActive: { log.withLock { $0.append("active") } })
        events.send(completion: .failure(.boom))
        let recorder = Recorder<Int, Int, TestError>(demand: .unlimited)
        events.subscribe(recorder)
        events.send(1)
        #expect(recorder.events == [.subscription, .failure(.boom)])
        #expect(log.current.isEmpty)
    }

    @Test func queuesASendFromInsideADeliveryInsteadOfNestingIt() {
        let events = DelegateEvents<Int, TestError>()
        let recorder = Recorder<Int, Int, TestError>(demand: .unlimited)
        recorder.onValue = { value in
            if value == 1 { events.send(2) }
            return .none
        }
        events.subscribe(recorder)
        events.send(1)
        events.send(3)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.overlappingDeliveries == 0)
    }

    @Test func deliversEverythingSentFromManyThreads() async {
        let events = DelegateEvents<Int, TestError>()
        let recorder = Recorder<Int, Int, TestError>(demand: .unlimited)
        events.subscribe(recorder)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask { for value in 0..<500 { events.send(thread * 1_000 + value) } }
            }
        }
        #expect(recorder.values.count == 2_000)
        #expect(Set(recorder.values).count == 2_000)
        #expect(recorder.overlappingDeliveries == 0)
    }

    @Test func statePublishesTheCurrentValueFirstThenChanges() {
        let value = Locked(1)
        let state = DelegateState { value.current }
        let first = Recorder<Int, Int, Never>(demand: .unlimited)
        state.subscribe(first)
        value.withLock { $0 = 2 }
        state.send(2)
        let second = Recorder<Int, Int, Never>(demand: .unlimited)
        state.subscribe(second)
        value.withLock { $0 = 3 }
        state.send(3)
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [2, 3])
    }

    /// The current value is the publicist's code: it runs outside the channel's lock, so it
    /// may use the publisher itself (which deadlocked when it ran under the lock), and sees the
    /// subscriber already counted.
    @Test func readsTheCurrentValueOutsideItsLock() {
        let box = Locked<DelegateState<Bool>?>(nil)
        let state = DelegateState { box.current?.hasSubscribers ?? false }
        box.withLock { $0 = state }
        let recorder = Recorder<Bool, Bool, Never>(demand: .unlimited)
        state.subscribe(recorder)
        #expect(recorder.values == [true])
    }

    /// A change sent while a subscriber arrives is newer than whatever the current value read,
    /// so it is what the subscriber starts with.
    @Test func aChangeSentWhileSubscribingReplacesTheCurrentValue() {
        let box = Locked<DelegateState<Int>?>(nil)
        let value = Locked(1)
        let state = DelegateState { () -> Int in
            let read = value.current
            // Another thread changes the state after it was read, and says so.
            value.withLock { $0 = 2 }
            box.current?.send(2)
            return read
        }
        box.withLock { $0 = state }
        let recorder = Recorder<Int, Int, Never>(demand: .unlimited)
        state.subscribe(recorder)
        state.send(3)
        #expect(recorder.values == [2, 3])
    }

    @Test func holdsAnExistingDelegateWeaklyUnlessToldToRetainIt() {
        final class Delegate {}
        var weakOne: Delegate? = Delegate()
        var strongOne: Delegate? = Delegate()
        weak let weakProbe = weakOne
        weak let strongProbe = strongOne
        let weakly = ForwardedDelegate(weakOne)
        let strongly = ForwardedDelegate(strongOne, retention: .strong)
        #expect(weakly.delegate === weakOne)
        weakOne = nil
        strongOne = nil
        #expect(weakProbe == nil)
        #expect(weakly.delegate == nil)
        #expect(strongProbe != nil)
        #expect(strongly.delegate === strongProbe)
    }

    @Test func doesNotKeepItsSubscribersOrHooksAlive() {
        final class Owner: Sendable {}
        weak var probe: Owner?
        var cancellable: AnyCancellable?
        do {
            let owner = Owner()
            probe = owner
            let events = DelegateEvents<Int, Never>(onInactive: { _ = owner })
            cancellable = events.sink { _ in }
            cancellable?.cancel()
        }
        cancellable = nil
        #expect(probe == nil)
    }
}
