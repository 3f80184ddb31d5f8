/// One subscription recorded by hand, for work that is neither a publisher nor an async
/// sequence — an HTTP exchange, a job — so that it shows in the same lanes, numbered among the
/// lane's other subscriptions, with the same guarantees: events in the order recorded, nothing
/// after the end.
///
/// ```swift
/// if let span = LaneSpan.begin("upload") {
///     span.record(.value("photo.jpg, 2.1 MB"))
///     span.record(.finished)
/// }
/// ```
public struct LaneSpan: Sendable {
    private let log: LaneLog

    /// Records a new subscription through `lane` as begun, or does nothing and returns nil
    /// when nobody records (no `recorder` and no ``Lanes/recorder``).
    public static func begin(
        _ lane: String,
        filter: LaneFilter = .all,
        recorder: (any LaneRecording)? = nil,
        source: String
    ) -> LaneSpan? {
        guard let recorder = recorder ?? Lanes.recorder, !filter.isEmpty else { return nil }
        let span = LaneSpan(
            log: LaneLog(
                recorder: recorder,
                lane: lane,
                subscription: Lanes.nextSubscription(of: lane),
                filter: filter,
                source: source
            )
        )
        span.record(.subscribed)
        return span
    }

    /// Records what happened next; anything after an end is left out.
    public func record(_ kind: LaneEvent.Kind) {
        log.record(kind)
    }
}
