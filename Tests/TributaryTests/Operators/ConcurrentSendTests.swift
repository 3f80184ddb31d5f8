import Foundation
import Testing
import Tributary
import TributaryTestSupport

/// Several threads send at once; run these under `--sanitize=thread` as well.
@Suite struct ConcurrentSendTests {
    static let perThread = 20_000

    /// State written by the downstream without a lock of its own: the operator's serial
    /// delivery is all that orders those writes, which the thread sanitizer checks.
    final class Unguarded<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    @Test func mergeDeliversEveryValueSeriallyAndInEachSendersOrder() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let received = Unguarded<[Int]>([])
        let recorder = Recorder<Int, Int, Never>(demand: .unlimited)
        recorder.onValue = { value in
            received.value.append(value)
            return .none
        }
        Publishers.MergeMany(subjects).subscribe(recorder)

        let senders = Unguarded(subjects)
        DispatchQueue.concurrentPerform(iterations: subjects.count) { thread in
            let subject = senders.value[thread]
            for index in 0..<Self.perThread {
                subject.send(thread * 1_000_000 + index)
            }
            subject.send(completion: .finished)
        }

        #expect(recorder.overlappingDeliveries == 0)
        #expect(recorder.events.last == .finished)
        #expect(received.value.count == subjects.count * Self.perThread)
        for thread in subjects.indices {
            let mine = received.value.filter { $0 / 1_000_000 == thread }
            #expect(mine == (0..<Self.perThread).map { thread * 1_000_000 + $0 })
        }
    }

    @Test func combineLatestPublishesConsistentCombinationsSerially() {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let received = Unguarded<[[Int]]>([])
        let recorder = Recorder<(Int, Int), [Int], Never>(demand: .unlimited) { [$0.0, $0.1] }
        recorder.onValue = { pair in
            received.value.append([pair.0, pair.1])
            return .none
        }
        left.combineLatest(right).subscribe(recorder)

        let senders = Unguarded([left, right])
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<Self.perThread {
                senders.value[thread].send(index)
            }
            senders.value[thread].send(completion: .finished)
        }

        #expect(recorder.overlappingDeliveries == 0)
        #expect(recorder.events.last == .finished)
        let pairs = received.value
        #expect(pairs.last == [Self.perThread - 1, Self.perThread - 1])
        #expect(pairs.count <= 2 * Self.perThread)
        #expect(zip(pairs, pairs.dropFirst()).allSatisfy { $0[0] <= $1[0] && $0[1] <= $1[1] })
    }

    @Test func cancellingWhileOthersSendIsSafe() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = Recorder<Int, Int, Never>(demand: .unlimited)
        subjects[0].merge(with: subjects[1], subjects[2]).subscribe(recorder)
        let senders = Unguarded(subjects)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread == 3 {
                recorder.cancel()
                return
            }
            for index in 0..<Self.perThread {
                senders.value[thread].send(index)
            }
        }
        let count = recorder.values.count
        senders.value[0].send(-1)
        #expect(recorder.values.count == count)
        #expect(recorder.overlappingDeliveries == 0)
    }
}
