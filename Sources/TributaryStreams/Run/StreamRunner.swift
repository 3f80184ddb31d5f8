import Foundation
import Tributary

/// Runs a document in virtual time to a ``Timeline``.
///
/// ```swift
/// let timeline = try StreamRunner().run(document)
/// print(Marbles.lanes(timeline))
/// ```
///
/// Every stream and node is subscribed to on one ``VirtualTimeScheduler``, whose clock jumps
/// from one scheduled action to the next, so a run of minutes takes microseconds and is the same
/// every time. Guards stop a run that would publish too many events or last too long.
public struct StreamRunner: Sendable {
    /// The most events a run records before it stops.
    public var maximumEvents: Int
    /// The longest virtual time a run covers, in seconds.
    public var maximumDuration: Double

    public init(maximumEvents: Int = 1_000_000, maximumDuration: Double = 86_400) {
        self.maximumEvents = maximumEvents
        self.maximumDuration = maximumDuration
    }

    /// Runs `lanes` of `document` (by default every stream and node).
    public func run(_ document: StreamDocument, lanes: [String]? = nil) throws(StreamError) -> Timeline {
        let scheduler = VirtualTimeScheduler()
        let lanes = lanes ?? document.ids
        var events: [Timeline.Event] = []
        var truncated = false
        var subscriptions: [AnyCancellable] = []
        func time() -> Double { scheduler.now.seconds }
        for lane in lanes {
            // The pipeline without the conversion of its failure, which is done here once.
            let publisher = try document.pipeline(for: lane, scheduler: scheduler)
            subscriptions.append(
                publisher.sink(
                    receiveCompletion: { completion in
                        guard events.count < maximumEvents else { return }
                        switch completion {
                        case .finished: events.append(.init(time: time(), lane: lane, kind: .finished))
                        case .failure(let error):
                            let failure = StreamDocument.failure(error, node: lane)
                            events.append(.init(time: time(), lane: lane, kind: .failure(failure.message)))
                        }
                    },
                    receiveValue: { value in
                        guard events.count < maximumEvents else {
                            // Values published synchronously on subscription arrive before
                            // the subscription can be cancelled: they are not recorded.
                            if !truncated {
                                truncated = true
                                subscriptions.forEach { $0.cancel() }
                            }
                            return
                        }
                        events.append(.init(time: time(), lane: lane, kind: .value(value)))
                    }
                )
            )
        }
        scheduler.advance(by: .seconds(maximumDuration))
        subscriptions.forEach { $0.cancel() }
        let ended = Set(events.filter { $0.kind.isEnd }.map(\.lane))
        // A lane still open when the guard ran out was cut short, unless it never ends.
        let neverEnding = Set(document.streams.filter { $0.ending == .never }.map(\.id))
        if !truncated,
            lanes.contains(where: {
                !ended.contains($0) && !neverEnding.contains($0)
                    && Self.dependsOnlyOnEnding(document, $0, neverEnding)
            })
        {
            truncated = true
        }
        events.sort { $0.time < $1.time }
        return Timeline(lanes: lanes, events: events, isTruncated: truncated)
    }

    /// Whether `lane` can end: it reads no never-ending stream.
    private static func dependsOnlyOnEnding(
        _ document: StreamDocument,
        _ lane: String,
        _ neverEnding: Set<String>
    ) -> Bool {
        guard case .node(let node)? = document.element(lane) else { return !neverEnding.contains(lane) }
        return node.inputs.allSatisfy { dependsOnlyOnEnding(document, $0, neverEnding) }
    }
}
