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
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int((interval * 1000).rounded(.up)))
    }
}

/// HTTP dates in the three forms RFC 9110 §5.6.7 requires recipients to accept.
enum HTTPDate {
    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or
    /// `Sun Nov  6 08:49:37 1994`.
    static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        if words.count == 6, words[5] == "GMT" {
            // IMF-fixdate: weekday, day, month, year, time, zone.
            return date(day: words[1], month: words[2], year: words[3], time: words[4])
        }
        if words.count == 5, words[4] == "GMT" {
            // IMF-fixdate without its weekday.
            return date(day: words[0], month: words[1], year: words[2], time: words[3])
        }
        if words.count == 4, words[3] == "GMT" {
            // RFC 850: weekday, day-month-year, time, zone.
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let shortYear = Int(parts[2]) else { return nil }
            let year = parts[2].count == 2 ? (shortYear < 70 ? 2000 : 1900) + shortYear : shortYear
            return date(day: parts[0], month: parts[1], year: String(year), time: words[2])
        }
        if words.count == 5 {
            // asctime: weekday, month, day, time, year.
            return date(day: words[2], month: words[1], year: words[4], time: words[3])
        }
        return nil
    }

    private static func date(day: String, month: String, year: String, time: String) -> Date? {
        let clock = time.split(separator: ":").compactMap { Int($0) }
        // HTTP dates write four-digit years; a longer one would overflow the arithmetic.
        guard let day = Int(day), let year = Int(year), (0...9999).contains(year),
            let month = months.firstIndex(of: month.prefix(3).lowercased()),
            clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]),
            (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month + 1, day: day)
        let seconds = days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

/// Calendar arithmetic on the proleptic Gregorian calendar, without Foundation's calendars.
enum CivilDate {
    /// Days from 1970-01-01 to the given date (Howard Hinnant's days-from-civil).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
