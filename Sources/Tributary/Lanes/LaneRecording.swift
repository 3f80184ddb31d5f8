/// Where lanes send their events.
///
/// `record(_:)` is called on whichever thread the event happened, and often: a recorder keeps
/// it short and never blocks on anything slow, handing the event on to be dealt with elsewhere.
///
/// ```swift
/// let memory = LaneMemory()
/// let values = [1, 2, 3].publisher.lane("numbers", recorder: memory).map { $0 * 2 }
/// ```
public protocol LaneRecording: Sendable {
    /// Takes one event; events of one subscription arrive in the order they happened.
    func record(_ event: LaneEvent)
    /// The instant event times count from; by default when the process first used a lane.
    var began: ContinuousClock.Instant { get }
}

extension LaneRecording {
    public var began: ContinuousClock.Instant { Lanes.processBegan }
}

/// The process-wide lane settings.
public enum Lanes {
    private static let shared = Protected<(any LaneRecording)?>(nil)
    private static let counters = Protected<[String: Int]>([:])

    /// The recorder lanes use when they name none: nobody, unless the app sets one.
    ///
    /// Read when a subscription is made, so a recorder set at launch sees every pipeline
    /// subscribed after it. With nobody recording, a lane subscribes its subscriber straight to
    /// its upstream and costs nothing per value.
    ///
    /// ```swift
    /// Lanes.recorder = LabLaneRecorder(lab: labURL, token: token, recording: "my app")
    /// ```
    public static var recorder: (any LaneRecording)? {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }

    static let processBegan = ContinuousClock.now

    /// The next subscription number for lanes named `lane`.
    static func nextSubscription(of lane: String) -> Int {
        counters.withLock { counters in
            let next = counters[lane, default: 0] + 1
            counters[lane] = next
            return next
        }
    }
}
