import Foundation

/// Reads a `Retry-After` header value: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// The delay `value` asks for, counted from `now`; nil when it is not a valid value.
    /// A date in the past asks for no delay.
    static func delay(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = InternetDate.parse(trimmed) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int((interval * 1000).rounded(.up)))
    }
}
