import Foundation

/// Reads the dates feeds carry, in every form publishers have been seen to write.
///
/// W3C-DTF and ISO 8601 as Atom and RSS 1.0 write them, to any precision (`2003`, `2003-12`,
/// `2003-12-31`, `2003-12-31T10:14`, with a space for the `T`, in the basic form `20031231T101455Z`,
/// with or without a zone); RFC 822 and 1123 as RSS writes them, with or without the weekday,
/// seconds or time, two- or four-digit years, full month names, and numeric or named zones
/// (`EST`, `ET`, `PT`, `MET`, `MEST`, `GMT-01:01`, `Etc/GMT`); RFC 850; asctime with or
/// without a zone (`Sun Jan  4 16:29:06 PST 2004`); and `2006/09/15 08:19:53`.
///
/// A date without a zone is taken as UTC and a date without a time as its midnight, as
/// feedparser does. Anything it cannot read in full is no date at all: the reader never
/// guesses one.
enum FeedDate {
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 64 else { return nil }
        return iso(Array(trimmed.utf8)) ?? words(trimmed)
    }

    // MARK: ISO 8601 and W3C-DTF

    private static func iso(_ bytes: [UInt8]) -> Date? {
        var scanner = Scanner(bytes: bytes)
        guard let year = scanner.digits(exactly: 4) else { return nil }
        var month = 1
        var day = 1
        let extended = scanner.skip("-")
        if extended {
            guard let value = scanner.digits(exactly: 2) else { return nil }
            month = value
            if scanner.skip("-") {
                guard let value = scanner.digits(exactly: 2) else { return nil }
                day = value
            }
        } else if !scanner.atEnd {
            guard let value = scanner.digits(exactly: 2), let second = scanner.digits(exactly: 2) else {
                return nil
            }
            (month, day) = (value, second)
        }
        var clock = Clock()
        if scanner.skip("T") || scanner.skip("t") || (scanner.peek == UInt8(ascii: " ") && scanner.skip(" "))
        {
            guard let hour = scanner.digits(exactly: 2) else { return nil }
            clock.hour = hour
            let colon = scanner.skip(":")
            guard let minute = scanner.digits(exactly: 2) else { return nil }
            clock.minute = minute
            if !colon || scanner.skip(":") {
                if let second = scanner.digits(exactly: 2) {
                    clock.second = Double(second)
                    if scanner.skip(".") || scanner.skip(",") {
                        guard let fraction = scanner.fraction() else { return nil }
                        clock.second += fraction
                    }
                } else if colon {
                    return nil
                }
            }
        }
        var offset = 0
        if !scanner.atEnd {
            guard let zone = scanner.rest()?.trimmingCharacters(in: .whitespaces),
                let seconds = numericZone(zone) ?? (zone == "Z" || zone == "z" ? 0 : nil)
            else { return nil }
            offset = seconds
        }
        return date(year: year, month: month, day: day, clock: clock, offset: offset)
    }

    // MARK: RFC 822 and the forms around it

    private static func words(_ text: String) -> Date? {
        // A comment in parentheses, as mail writes `-0500 (EST)`, repeats the zone.
        var text = text
        while let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") {
            text.removeSubrange(open...close)
        }
        let tokens = text.split(whereSeparator: {
            $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r"
        })
        .map { String($0) }
        var day: Int?
        var month: Int?
        var year: Int?
        var yearDigits = 4
        var clock: Clock?
        var offset: Int?
        var numbers: [String] = []
        for (position, token) in tokens.enumerated() {
            let lowered = token.lowercased()
            if let zone = zone(lowered) {
                guard position > 0 else { return nil }
                // `+0000 GMT` names one zone twice; two zones that disagree are no date.
                guard offset == nil || offset == zone else { return nil }
                offset = zone
            } else if let number = monthNumber(lowered) {
                guard month == nil else { return nil }
                month = number
            } else if lowered.contains(":") {
                guard clock == nil, let parsed = Clock(lowered) else { return nil }
                clock = parsed
            } else if lowered.contains("-") || lowered.contains("/") {
                // RFC 850's `06-Nov-94`, or `2006/09/15`.
                let parts = lowered.split(whereSeparator: { $0 == "-" || $0 == "/" }).map(String.init)
                guard parts.count == 3, day == nil, month == nil else { return nil }
                if parts[0].count == 4, let first = Int(parts[0]), let second = Int(parts[1]),
                    let third = Int(parts[2])
                {
                    (year, month, day) = (first, second, third)
                } else {
                    guard let first = Int(parts[0]), let named = monthNumber(parts[1]),
                        let third = Int(parts[2]),
                        parts[2].count == 2 || parts[2].count == 4
                    else { return nil }
                    (day, month, year, yearDigits) = (first, named, third, parts[2].count)
                }
            } else if lowered.allSatisfy(\.isNumber) {
                numbers.append(lowered)
            } else if lowered.allSatisfy(\.isLetter), position == 0, lowered.count >= 3 {
                continue  // the weekday, which says nothing the date does not
            } else {
                return nil
            }
        }
        for number in numbers {
            guard let value = Int(number), number.count <= 4 else { return nil }
            if number.count == 4 || day != nil {
                guard year == nil else { return nil }
                year = value
                yearDigits = number.count
            } else {
                day = value
            }
        }
        guard var year, let month, let day, yearDigits == 2 || yearDigits == 4 else { return nil }
        if yearDigits == 2 { year += year < 70 ? 2000 : 1900 }
        return date(year: year, month: month, day: day, clock: clock ?? Clock(), offset: offset ?? 0)
    }

    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// The month `word` names, by its first three letters or its full name (`sept` too).
    private static func monthNumber(_ word: String) -> Int? {
        guard word.count >= 3, word.allSatisfy(\.isLetter) else { return nil }
        guard let index = months.firstIndex(of: String(word.prefix(3))) else { return nil }
        guard word.count == 3 || monthNames[index] == word || (word == "sept") else { return nil }
        return index + 1
    }

    /// Zones by name, in hours east of UTC: RFC 822's, their short forms (`ET`, `PT`), and the
    /// European ones feeds use.
    private static let namedZones: [String: Double] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "etc/gmt": 0, "etc/utc": 0, "etc/uct": 0, "uct": 0, "wet": 0,
        "west": 1, "bst": 1, "cet": 1, "met": 1, "mez": 1, "cest": 2, "mest": 2, "mesz": 2, "eet": 2,
        "eest": 3,
        "msk": 3, "ast": -4, "adt": -3, "at": -4, "est": -5, "edt": -4, "et": -5, "cst": -6, "cdt": -5,
        "ct": -6, "mst": -7, "mdt": -6, "mt": -7, "pst": -8, "pdt": -7, "pt": -8, "akst": -9, "akdt": -8,
        "hst": -10, "jst": 9, "kst": 9, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
    ]

    /// Seconds east of UTC for a zone word: a name, `+0200`, `-05:00`, `GMT-01:01`, `UTC+2`.
    private static func zone(_ word: String) -> Int? {
        if let hours = namedZones[word] { return Int(hours * 3_600) }
        for name in ["gmt", "utc", "ut", "etc/gmt"] where word.hasPrefix(name) {
            let rest = word.dropFirst(name.count)
            if rest.first == "+" || rest.first == "-" { return numericZone(String(rest)) }
        }
        return numericZone(word)
    }

    /// `+hh`, `+hhmm` or `+hh:mm` (or `+h` after a name), in seconds east of UTC.
    private static func numericZone(_ text: String) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let parts = text.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        var hours: Int?
        var minutes = 0
        if parts.count == 2 {
            guard parts[1].count == 2, let value = Int(parts[1]) else { return nil }
            hours = parts[0].count <= 2 ? Int(parts[0]) : nil
            minutes = value
        } else if parts.count == 1, parts[0].allSatisfy(\.isNumber) {
            let digits = parts[0]
            if digits.count == 4 {
                hours = Int(digits.prefix(2))
                minutes = Int(digits.suffix(2)) ?? 60
            } else if digits.count <= 2 {
                hours = Int(digits)
            }
        }
        guard let hours, hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    // MARK: Assembling

    private struct Clock {
        var hour = 0
        var minute = 0
        var second = 0.0

        init() {}

        /// `h:mm`, `hh:mm:ss` or `hh:mm:ss.fff`.
        init?(_ text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3, let hour = Int(parts[0]), parts[0].count <= 2,
                let minute = Int(parts[1]), parts[1].count == 2
            else { return nil }
            (self.hour, self.minute) = (hour, minute)
            if parts.count == 3 {
                guard let second = Double(parts[2]), parts[2].first?.isNumber == true else { return nil }
                self.second = second
            }
        }
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func date(year: Int, month: Int, day: Int, clock: Clock, offset: Int) -> Date? {
        guard (1...12).contains(month), (1...9_999).contains(year), day >= 1,
            day <= daysIn(month: month, year: year), (0...23).contains(clock.hour),
            (0...59).contains(clock.minute),
            clock.second >= 0, clock.second < 61
        else { return nil }
        let components = DateComponents(
            year: year,
            month: month,
            day: day,
            hour: clock.hour,
            minute: clock.minute
        )
        guard let start = utc.date(from: components) else { return nil }
        return start.addingTimeInterval(clock.second - Double(offset))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A cursor over the bytes of an ISO date.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func skip(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue, peek == ascii else { return false }
            index += 1
            return true
        }

        mutating func digits(exactly count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        /// Decimal digits after a separator, as a fraction of one.
        mutating func fraction() -> Double? {
            let start = index
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            guard index > start else { return nil }
            return Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
        }

        mutating func rest() -> String? {
            defer { index = bytes.count }
            return String(decoding: bytes[index...], as: UTF8.self)
        }
    }
}
