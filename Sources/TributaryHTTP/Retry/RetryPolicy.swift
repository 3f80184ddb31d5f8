public import Foundation
import HTTPTypes

/// When and how long to wait before trying a failed request again.
///
/// Only idempotent requests are retried, only after a retryable failure
/// (``APIError/isRetryable``: transport failures, timeouts, 408, 429, 500, 502, 503, 504),
/// and never more than ``maximumAttempts`` times in all or past the time ``budget``. Waits
/// grow exponentially with full jitter; a `Retry-After` from the server replaces the computed
/// wait, and when it would end past the budget the error is returned instead. A 429 without
/// `Retry-After` is not retried: the server said the client is over its limit and not when it
/// may come back, and a limit counted in hours is only spent further by asking again.
///
/// ```swift
/// var policy = RetryPolicy.standard
/// policy.maximumAttempts = 5
/// let client = APIClient(baseURL: url, transport: transport, retryPolicy: policy)
/// ```
public struct RetryPolicy: Sendable {
    /// The most attempts in all, the first included; 1 disables retries.
    public var maximumAttempts: Int
    /// The wait before the first retry, before jitter.
    public var initialDelay: Duration
    /// How much each wait grows over the one before.
    public var multiplier: Double
    /// The longest computed wait, before jitter.
    public var maximumDelay: Duration
    /// The total time the attempts and waits may take, from the first attempt.
    public var budget: Duration
    /// Picks the actual wait from the computed one; full jitter picks uniformly in
    /// `0...computed`. Tests replace it to make waits predictable.
    public var jitter: @Sendable (Duration) -> Duration

    /// Creates a policy.
    public init(
        maximumAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(250),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(10),
        budget: Duration = .seconds(60),
        jitter: @escaping @Sendable (Duration) -> Duration = RetryPolicy.fullJitter
    ) {
        precondition(maximumAttempts >= 1, "a request needs at least one attempt")
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.budget = budget
        self.jitter = jitter
    }

    /// Three attempts, waits from 250 ms growing twofold up to 10 s, within one minute.
    public static let standard = RetryPolicy()

    /// One attempt: nothing is retried.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// A wait picked uniformly between zero and `computed`.
    @Sendable public static func fullJitter(_ computed: Duration) -> Duration {
        let nanoseconds = computed / .nanoseconds(1)
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64(Double.random(in: 0...1) * nanoseconds))
    }

    /// The wait before attempt `attempt + 1`, or nil when `error` ends the request.
    ///
    /// - Parameters:
    ///   - error: Why attempt `attempt` failed.
    ///   - attempt: The attempt that failed, counting from 1.
    ///   - elapsed: The time since the first attempt started.
    ///   - isIdempotent: Whether the request may be repeated.
    ///   - now: The wall-clock time, for `Retry-After` dates.
    public func delay(
        after error: APIError,
        attempt: Int,
        elapsed: Duration,
        isIdempotent: Bool,
        now: Date
    ) -> Duration? {
        guard isIdempotent, error.isRetryable, attempt < maximumAttempts else { return nil }
        let asked = error.retryAfter(now: now)
        if error.status?.code == 429, asked == nil { return nil }
        let wait = asked ?? jitter(backoff(forRetry: attempt))
        return elapsed + wait <= budget ? wait : nil
    }

    /// The computed wait before retry number `retry` (1 for the first), before jitter.
    public func backoff(forRetry retry: Int) -> Duration {
        let factor = pow(multiplier, Double(max(0, retry - 1)))
        let computed = initialDelay * factor
        return min(computed, maximumDelay)
    }
}
