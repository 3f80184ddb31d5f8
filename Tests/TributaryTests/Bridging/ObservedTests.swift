import CombineSchedulers
import Foundation
import Observation
import Testing
import Tributary
import TributaryTestSupport

@Observable final class QueryModel: @unchecked Sendable {
    // @unchecked: each test reads and writes it from one task only.
    var query = ""
    var category = "general"
    var isAdvanced = false
    var advanced = "none"
}

@MainActor @Observable final class MainSearch {
    var query = ""
}

@MainActor
@Suite(.timeLimit(.minutes(5)))
struct ObservedTests {
    let scheduler = DispatchQueue.test

    @Test func sendsTheValueAtSubscriptionAtOnce() {
        let model = QueryModel()
        model.query = "swift"
        let recorder = Recorder<String, String, Never>(demand: .unlimited)
        Observed(on: scheduler) { model.query }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value("swift")])
    }

    /// The value sent is the one after the change, on the scheduler, however many changes
    /// came before the scheduler ran: they make one value, the latest.
    @Test func sendsTheValueAfterEachChangeOnTheSchedulerCoalesced() async {
        let model = QueryModel()
        let recorder = Recorder<String, String, Never>(demand: .unlimited)
        Observed(on: scheduler) { model.query }.subscribe(recorder)
        model.query = "s"
        #expect(recorder.values == [""])
        await scheduler.advance()
        #expect(recorder.values == ["", "s"])
        model.query = "sw"
        model.query = "swi"
        model.query = "swift"
        await scheduler.advance()
        #expect(recorder.values == ["", "s", "swift"])
        model.query = "swiftly"
        await scheduler.advance()
        #expect(recorder.values == ["", "s", "swift", "swiftly"])
        #expect(recorder.overlappingDeliveries == 0)
    }

    @Test func readsSeveralPropertiesAtOnce() async {
        let model = QueryModel()
        var seen: [String] = []
        let cancellable = Observed(on: scheduler) { (model.query, model.category) }
            .sink { seen.append("\($0.0)/\($0.1)") }
        model.category = "science"
        await scheduler.advance()
        model.query = "mars"
        await scheduler.advance()
        #expect(seen == ["/general", "/science", "mars/science"])
        cancellable.cancel()
    }

    /// Without demand only the latest value waits; it goes, on the scheduler, when asked for.
    @Test func honoursDemandKeepingOnlyTheLatestValue() async {
        let model = QueryModel()
        let recorder = Recorder<String, String, Never>(demand: .none)
        Observed(on: scheduler) { model.query }.subscribe(recorder)
        model.query = "a"
        await scheduler.advance()
        #expect(recorder.values == [])
        recorder.request(.max(1))
        #expect(recorder.values == [])
        await scheduler.advance()
        #expect(recorder.values == ["a"])
        model.query = "b"
        await scheduler.advance()
        model.query = "c"
        await scheduler.advance()
        #expect(recorder.values == ["a"])
        recorder.request(.max(5))
        await scheduler.advance()
        #expect(recorder.values == ["a", "c"])
        model.query = "d"
        await scheduler.advance()
        #expect(recorder.values == ["a", "c", "d"])
    }

    /// The value read at subscription goes at once when demand first arrives.
    @Test func sendsTheFirstValueWithTheFirstDemand() {
        let model = QueryModel()
        model.query = "first"
        let recorder = Recorder<String, String, Never>(demand: .none)
        Observed(on: scheduler) { model.query }.subscribe(recorder)
        #expect(recorder.values == [])
        recorder.request(.max(1))
        #expect(recorder.values == ["first"])
    }

    /// A property read on some paths only is tracked exactly while it is read.
    @Test func tracksWhatTheLastReadTouched() async {
        let model = QueryModel()
        let reads = Locked(0)
        let recorder = Recorder<String, String, Never>(demand: .unlimited)
        Observed(on: scheduler) { () -> String in
            reads.withLock { $0 += 1 }
            return model.isAdvanced ? model.advanced : model.query
        }
        .subscribe(recorder)
        model.advanced = "ignored"
        await scheduler.advance()
        #expect(recorder.values == [""])
        model.isAdvanced = true
        await scheduler.advance()
        #expect(recorder.values == ["", "ignored"])
        model.query = "not read now"
        await scheduler.advance()
        #expect(recorder.values == ["", "ignored"])
        model.advanced = "read"
        await scheduler.advance()
        #expect(recorder.values == ["", "ignored", "read"])
        #expect(reads.current == 3)
    }

    /// Cancelling stops observing and lets go of the model.
    @Test func cancellingStopsObservingAndReleasesTheModel() async {
        weak var released: QueryModel?
        let recorder = Recorder<String, String, Never>(demand: .unlimited)
        do {
            let model = QueryModel()
            released = model
            Observed(on: scheduler) { model.query }.subscribe(recorder)
            recorder.cancel()
            model.query = "after"
            await scheduler.advance()
        }
        #expect(recorder.values == [""])
        #expect(released == nil)
    }

    /// A change made while the value before it is being received is not lost.
    @Test func aChangeMadeWhileReceivingIsSentNext() async {
        let model = QueryModel()
        let recorder = Recorder<String, String, Never>(demand: .unlimited)
        recorder.onValue = { value in
            if value == "a" { model.query = "b" }
            return .none
        }
        Observed(on: scheduler) { model.query }.subscribe(recorder)
        model.query = "a"
        await scheduler.advance()
        await scheduler.advance()
        #expect(recorder.values == ["", "a", "b"])
    }

    /// The common case: a main-actor model, read on the main queue, with a debounce after it.
    @Test func readsAMainActorModelOnTheMainQueue() async throws {
        let model = MainSearch()
        let seen = Locked<[String]>([])
        let cancellable = Observed { model.query }
            .removeDuplicates()
            .sink { value in seen.withLock { $0.append(value) } }
        #expect(seen.current == [""])
        model.query = "swift"
        try await waitUntil { seen.current == ["", "swift"] }
        cancellable.cancel()
    }

    /// Changes sent to the model's queue from many threads at once end in the latest value,
    /// read on that queue between them.
    @Test func changesFromOtherThreadsEndInTheLatestValue() async throws {
        let queue = DispatchQueue(label: "observed")
        let seen = Locked<[Int]>([])
        let counter = CounterModel()
        let cancellable = Observed(on: queue) { counter.count }
            .sink { value in seen.withLock { $0.append(value) } }
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in queue.async { counter.increment() } }
        try await waitUntil { seen.current.last == 1_000 }
        #expect(seen.current == seen.current.sorted())
        cancellable.cancel()
    }
}

/// A model whose property may change on any thread: its storage is under a lock, and it
/// tells its registrar of each change as `@Observable` would.
final class CounterModel: Observable, @unchecked Sendable {
    // @unchecked: `storage` is reached only under `lock`; the registrar is thread-safe.
    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    private var storage = 0

    var count: Int {
        registrar.access(self, keyPath: \.count)
        return lock.withLock { storage }
    }

    func increment() {
        registrar.withMutation(of: self, keyPath: \.count) { lock.withLock { storage += 1 } }
    }
}
