import Tributary

/// A clock whose sleeps return at once, move its time forward and are recorded, so that
/// tests of retries neither wait nor guess.
///
/// ```swift
/// let clock = ImmediateClock()
/// let client = APIClient(baseURL: url, transport: transport, clock: RetryClock(clock))
/// _ = try await client.send(request)
/// #expect(clock.sleeps == [.seconds(1)])
/// ```
public final class ImmediateClock: Clock, Sendable {
    /// A point in the clock's time.
    public struct Instant: InstantProtocol {
        /// The time since the clock was made.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleeps: [Duration] = []
    }

    private let state = Protected(State())

    /// Creates a clock at time zero.
    public init() {}

    /// The clock's time, moved only by sleeps and ``advance(by:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock's time is exact.
    public var minimumResolution: Duration { .zero }

    /// Every sleep asked for so far, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// Moves the clock forward by `duration` without recording a sleep.
    public func advance(by duration: Duration) {
        state.withLock { $0.now = $0.now.advanced(by: duration) }
    }

    /// Returns at once, recording the time from now to `deadline` as a sleep and moving the
    /// clock forward to `deadline`; throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            state.now = max(state.now, deadline)
        }
    }
}
