import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTestSupport

/// A subscriber that keeps its subscription, as hand-written subscribers often do, is freed
/// once its stream ends: merge, combineLatest, collect(byTime:) and the delegate bridge let go
/// of their downstream when it finishes, fails or is cancelled, as Combine's own operators do.
@Suite struct ReleaseTests {
    enum Ending: CaseIterable {
        case finished
        case failed
        case cancelled
        /// Cancelled by the subscriber while it receives a value.
        case cancelledWhileReceiving
    }

    typealias Subject = PassthroughSubject<Int, TestError>

    @Test(arguments: Ending.allCases)
    func mergeReleasesItsSubscriber(ending: Ending) {
        let subjects = [Subject(), Subject()]
        #expect(isReleased(subjects[0].merge(with: subjects[1]), ending: ending, subjects: subjects))
    }

    @Test(arguments: Ending.allCases)
    func mergeOfManyReleasesItsSubscriber(ending: Ending) {
        let subjects = (0..<5).map { _ in Subject() }
        let merged = Publishers.MergeMany(subjects)
        #expect(isReleased(merged, ending: ending, subjects: subjects))
    }

    @Test(arguments: Ending.allCases)
    func combineLatestReleasesItsSubscriber(ending: Ending) {
        let subjects = [Subject(), Subject(), Subject()]
        let combined = subjects[0].combineLatest(subjects[1], subjects[2]) { $0 + $1 + $2 }
        #expect(isReleased(combined, ending: ending, subjects: subjects))
    }

    @Test(arguments: Ending.allCases)
    func collectByTimeReleasesItsSubscriber(ending: Ending) {
        let scheduler = DispatchQueue.test
        let subject = Subject()
        let collected = subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1))
        #expect(isReleased(collected, ending: ending, subjects: [subject]))
        scheduler.advance(by: .seconds(3))
    }

    @Test(arguments: Ending.allCases)
    func delegateEventsReleaseTheirSubscriber(ending: Ending) {
        let events = DelegateEvents<Int, TestError>()
        let subject = Subject()
        let forwarding = subject.sink(
            receiveCompletion: { events.send(completion: $0) },
            receiveValue: { events.send($0) }
        )
        #expect(isReleased(events, ending: ending, subjects: [subject]))
        forwarding.cancel()
    }

    /// Subscribes a recorder that keeps its subscription to `publisher`, sends a value through
    /// every subject, ends the stream as `ending` says and lets go of the recorder: whether the
    /// recorder is then freed.
    private func isReleased<P: Publisher>(
        _ publisher: P,
        ending: Ending,
        subjects: [Subject]
    ) -> Bool where P.Output: Equatable, P.Failure == TestError {
        weak var released: Recorder<P.Output, P.Output, TestError>?
        do {
            let recorder = Recorder<P.Output, P.Output, TestError>(demand: .unlimited)
            if ending == .cancelledWhileReceiving {
                recorder.onValue = { [weak recorder] _ in
                    recorder?.cancel()
                    return .none
                }
            }
            publisher.subscribe(recorder)
            for subject in subjects { subject.send(1) }
            switch ending {
            case .finished: for subject in subjects { subject.send(completion: .finished) }
            case .failed: subjects[0].send(completion: .failure(.boom))
            case .cancelled: recorder.cancel()
            case .cancelledWhileReceiving: break
            }
            #expect(!recorder.values.isEmpty)
            #expect(recorder.subscription != nil)
            released = recorder
        }
        return released == nil
    }
}
