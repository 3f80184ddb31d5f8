/// The time source of retries: it measures the retry budget and waits between attempts.
///
/// Any `Clock` with `Duration` will do; tests pass one whose sleeps return at once.
///
/// ```swift
/// let client = APIClient(baseURL: url, transport: transport, clock: RetryClock(ContinuousClock()))
/// ```
public struct RetryClock: Sendable {
    private let startStopwatch: @Sendable () -> @Sendable () -> Duration
    private let sleepFor: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`.
    public init<C: Clock<Duration>>(_ clock: C) {
        startStopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
        sleepFor = { duration in try await clock.sleep(for: duration) }
    }

    /// Real, monotonic time.
    public static let continuous = RetryClock(ContinuousClock())

    /// A closure that tells the time passed since this call.
    public func stopwatch() -> @Sendable () -> Duration {
        startStopwatch()
    }

    /// Waits for `duration`; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await sleepFor(duration)
    }
}
