import Foundation
import Tributary

/// Runs a document in virtual time to a ``Timeline``.
///
/// ```swift
/// let timeline = try StreamRunner().run(document)
/// print(try TextLanes.render(timeline, document: document))
/// ```
///
/// Every stream and node is subscribed to on one ``VirtualTimeScheduler``, whose clock jumps
/// from one scheduled action to the next, so a run of minutes takes microseconds and is the same
/// every time. Guards stop a run that would record too many events or too many bytes of values,
/// cover too much virtual time or take too much real time, and refuse one that would run too
/// many operators; ``Timeline/stoppedBy`` names the guard that stopped a run.
public struct StreamRunner: Sendable {
    /// The most events a run records before it stops.
    public var maximumEvents: Int
    /// The most bytes of values a run records before it stops, counting each value's
    /// ``StreamValue/byteCount``.
    public var maximumBytes: Int
    /// The longest virtual time a run covers, in seconds.
    public var maximumDuration: Double
    /// The most operators and streams a run may subscribe to, over all its lanes. Each lane
    /// runs its own copy of everything it reads, so a chain of 500 nodes runs over 125,000.
    public var maximumOperators: Int
    /// The longest a run may take in real time, once its pipelines are built; nil for no limit.
    public var timeLimit: Duration?

    /// Makes a runner with the guards given.
    ///
    /// - Parameters:
    ///   - maximumEvents: The most events a run records before it stops.
    ///   - maximumBytes: The most bytes of values a run records before it stops.
    ///   - maximumDuration: The longest virtual time a run covers, in seconds.
    ///   - maximumOperators: The most operators and streams a run may subscribe to, over all
    ///     its lanes.
    ///   - timeLimit: The longest a run may take in real time; nil, the default, for no limit.
    public init(
        maximumEvents: Int = 1_000_000,
        maximumBytes: Int = 64 << 20,
        maximumDuration: Double = 86_400,
        maximumOperators: Int = 100_000,
        timeLimit: Duration? = nil
    ) {
        self.maximumEvents = maximumEvents
        self.maximumBytes = maximumBytes
        self.maximumDuration = maximumDuration
        self.maximumOperators = maximumOperators
        self.timeLimit = timeLimit
    }

    /// Runs `lanes` of `document` (by default every stream and node).
    public func run(_ document: StreamDocument, lanes: [String]? = nil) throws(StreamError) -> Timeline {
        try run(document, lanes: lanes, on: VirtualTimeScheduler())
    }

    /// Runs `lanes` of `document` on `scheduler`, which is left with nothing waiting.
    func run(
        _ document: StreamDocument,
        lanes: [String]?,
        on scheduler: VirtualTimeScheduler
    ) throws(StreamError) -> Timeline {
        let lanes = lanes ?? document.ids
        let counts = try document.operatorCounts()
        let operators = lanes.reduce(0) { $0 + (counts[$1] ?? 0) }
        guard operators <= maximumOperators else {
            throw StreamError(.runTooLarge(operators: operators, limit: maximumOperators), path: "$")
        }
        let elements = document.elements
        var events: [Timeline.Event] = []
        var bytes = 0
        var stoppedBy: Timeline.Guard?
        var subscriptions: [AnyCancellable] = []
        // Whether the run ends or a lane fails to build, the pipelines stop and what they left
        // waiting on the scheduler, which would keep them and the scheduler alive, goes.
        defer {
            subscriptions.forEach { $0.cancel() }
            scheduler.discardPendingActions()
        }
        func time() -> Double { scheduler.now.seconds }
        let deadline = timeLimit.map { RunDeadline(ContinuousClock.now.advanced(by: $0)) }
        for lane in lanes {
            // The pipeline without the conversion of its failure, which is done here once.
            let publisher = try document.pipeline(
                for: lane,
                in: elements,
                scheduler: scheduler,
                deadline: deadline
            )
            subscriptions.append(
                publisher.sink(
                    receiveCompletion: { completion in
                        guard events.count < maximumEvents, deadline?.hasPassed != true else { return }
                        switch completion {
                        case .finished: events.append(.init(time: time(), lane: lane, kind: .finished))
                        case .failure(let error):
                            let failure = StreamDocument.failure(error, node: lane)
                            events.append(.init(time: time(), lane: lane, kind: .failure(failure.message)))
                        }
                    },
                    receiveValue: { value in
                        guard deadline?.hasPassed != true else { return }
                        let size = value.byteCount
                        guard events.count < maximumEvents, size <= maximumBytes - bytes else {
                            // Values published synchronously on subscription arrive before
                            // the subscription can be cancelled: they are not recorded.
                            if stoppedBy == nil {
                                stoppedBy =
                                    events.count < maximumEvents
                                    ? .bytes(limit: maximumBytes) : .events(limit: maximumEvents)
                                subscriptions.forEach { $0.cancel() }
                            }
                            return
                        }
                        bytes += size
                        events.append(.init(time: time(), lane: lane, kind: .value(value)))
                    }
                )
            )
        }
        if let deadline {
            _ = scheduler.advance(by: .seconds(maximumDuration)) { !deadline.hasPassed }
        } else {
            scheduler.advance(by: .seconds(maximumDuration))
        }
        if let timeLimit, deadline?.hasPassed == true, stoppedBy == nil {
            stoppedBy = .time(
                limit: Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
            )
        }
        let ended = Set(events.filter { $0.kind.isEnd }.map(\.lane))
        // A lane still open when the guard ran out was cut short, unless it never ends.
        let neverEnding = Set(document.streams.filter { $0.ending == .never }.map(\.id))
        var canEnd: [String: Bool] = [:]
        if stoppedBy == nil,
            lanes.contains(where: {
                !ended.contains($0) && !neverEnding.contains($0)
                    && Self.canEnd($0, elements: elements, neverEnding: neverEnding, known: &canEnd)
            })
        {
            stoppedBy = .duration(limit: maximumDuration)
        }
        // Virtual time only moves forward, so the events are recorded in time order already;
        // were they not, a stable sort keeps the order of events at one time.
        if zip(events, events.dropFirst()).contains(where: { $0.time > $1.time }) {
            events = events.indices.sorted { (events[$0].time, $0) < (events[$1].time, $1) }.map {
                events[$0]
            }
        }
        return Timeline(lanes: lanes, events: events, stoppedBy: stoppedBy)
    }

    /// Whether `lane` can end: it reads no never-ending stream. What is `known` is not
    /// worked out again.
    private static func canEnd(
        _ lane: String,
        elements: [String: StreamDocument.Element],
        neverEnding: Set<String>,
        known: inout [String: Bool]
    ) -> Bool {
        if let answer = known[lane] { return answer }
        guard case .node(let node)? = elements[lane] else { return !neverEnding.contains(lane) }
        let answer = node.inputs.allSatisfy {
            canEnd($0, elements: elements, neverEnding: neverEnding, known: &known)
        }
        known[lane] = answer
        return answer
    }
}

/// The moment a run must stop by, in real time. It is read on the run's own thread only.
final class RunDeadline: @unchecked Sendable {
    /// What a stream fails with once the deadline has passed; the runner records nothing
    /// after it.
    struct Passed: Error {}

    private let instant: ContinuousClock.Instant
    private var checks = 0
    /// Whether a check found the deadline passed; it stays passed.
    private(set) var hasPassedOnce = false

    init(_ instant: ContinuousClock.Instant) { self.instant = instant }

    /// Whether the deadline has passed; the clock is read every 64 asks, often enough to stop
    /// within a millisecond or so, rarely enough to cost nothing next to the work between.
    var hasPassed: Bool {
        if hasPassedOnce { return true }
        checks &+= 1
        if checks & 63 == 0, ContinuousClock.now >= instant { hasPassedOnce = true }
        return hasPassedOnce
    }

    /// Throws ``Passed`` once the deadline has passed.
    func check() throws {
        if hasPassed { throw Passed() }
    }
}
