package import Foundation

/// Dates as internet messages write them: the three HTTP forms recipients must accept
/// (RFC 9110 §5.6.7: IMF-fixdate, RFC 850 and asctime), and the RFC 822 / 5322 forms feeds use,
/// with or without the weekday or seconds, with two- or four-digit years, and with named or
/// numeric zones. One parser serves `Retry-After` and RSS alike.
package enum InternetDate {
    /// The date `text` names, or nil.
    ///
    /// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`,
    /// `Sun Nov  6 08:49:37 1994`, `10 Jun 03 04:00 +0200`, `Tue, 10 Jun 2003 04:00:00 EST`.
    package static func parse(_ text: String) -> Date? {
        var words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(
            String.init
        )
        if let first = words.first, first.allSatisfy(\.isLetter), first.count > 2, month(first) == nil {
            words.removeFirst()  // the weekday, which says nothing the date does not
        }
        guard words.count >= 3 else { return nil }
        if month(words[0]) != nil {
            // asctime: month, day, time, year, in GMT.
            guard words.count == 4 else { return nil }
            return date(day: words[1], month: words[0], year: words[3], time: words[2], zone: nil)
        }
        if words[0].contains("-") {
            // RFC 850: day-month-year, time, zone.
            let parts = words[0].split(separator: "-").map(String.init)
            guard parts.count == 3, words.count <= 3 else { return nil }
            return date(
                day: parts[0],
                month: parts[1],
                year: parts[2],
                time: words[1],
                zone: words.count == 3 ? words[2] : nil
            )
        }
        // RFC 822 and IMF-fixdate: day, month, year, time, zone.
        guard words.count == 4 || words.count == 5 else { return nil }
        return date(
            day: words[0],
            month: words[1],
            year: words[2],
            time: words[3],
            zone: words.count == 5 ? words[4] : nil
        )
    }

    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    /// Zones RFC 822 names, and a few more that feeds use, in hours east of UTC.
    private static let zones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7,
        "mdt": -6, "pst": -8, "pdt": -7, "cet": 1, "cest": 2, "bst": 1,
    ]

    /// The month's number from 1, by its name or its first three letters.
    private static func month(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return months.firstIndex(of: String(word.prefix(3))).map { $0 + 1 }
    }

    /// Seconds east of UTC; a missing zone is UTC, as HTTP's asctime form is.
    private static func offset(_ zone: String?) -> Int? {
        guard let zone else { return 0 }
        if let hours = zones[zone] { return hours * 3_600 }
        guard let sign = zone.first, sign == "+" || sign == "-", zone.count == 5,
            let value = Int(zone.dropFirst()), value % 100 < 60
        else { return nil }
        return (sign == "-" ? -1 : 1) * ((value / 100) * 3_600 + (value % 100) * 60)
    }

    private static func date(
        day: String,
        month name: String,
        year text: String,
        time: String,
        zone: String?
    ) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        // Four digits at most: a longer year would overflow the arithmetic.
        guard let day = Int(day), (1...31).contains(day), let month = month(name), text.count <= 4,
            var year = Int(text), year >= 0, let offset = offset(zone),
            clock.count == 2 || clock.count == 3, let hour = clock[0], let minute = clock[1],
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        let second = clock.count == 3 ? clock[2] : 0
        guard let second, (0...60).contains(second) else { return nil }
        if text.count <= 2 { year += year < 70 ? 2000 : 1900 }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
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
