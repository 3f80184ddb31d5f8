import Foundation

/// Reads the dates feeds carry, in every form publishers have been seen to write.
///
/// W3C-DTF and ISO 8601 as Atom and RSS 1.0 write them, to any precision (`2003`, `2003-12`,
/// `2003-12-31`, `2003-12-31T10:14`, with a space for the `T`, in the basic form `20031231T101455Z`,
/// with or without a zone), with two-digit years (`031231`, `03-12-31`, `-0312` for December
/// 2003), ordinal days (`2003-335`) and a zero-padded month (`2003-012-31`); RFC 822 and 1123 as
/// RSS writes them, with or without the weekday, seconds or time, two- or four-digit years, full
/// month names, and numeric or named zones (`EST`, `ET`, `PT`, `MET`, `MEST`, `GMT-01:01`,
/// `Etc/GMT`); RFC 850; asctime with or without a zone (`Sun Jan  4 16:29:06 PST 2004`);
/// `2006/09/15 08:19:53`; Greek month and day names (`Κυρ, 11 Ιούλ 2004 12:00:00 EST`);
/// Hungarian month names (`2004-július-13T9:15-05:00`) and day names; and the Korean forms of
/// OnBlog (`2004년 05월 28일 01:31:15`) and Nate (`2004-05-25 오후 11:23:17`), in Korean time.
///
/// A date without a zone is taken as UTC and a date without a time as its midnight, as
/// feedparser does; a two-digit year is in this century. Anything it cannot read in full is no
/// date at all (`2013-01-27-01`, a zone without a time): the reader never guesses one.
enum FeedDate {
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 64 else { return nil }
        return iso(Array(trimmed.utf8)) ?? korean(trimmed) ?? hungarian(trimmed) ?? words(trimmed)
    }

    // MARK: ISO 8601 and W3C-DTF

    private static func iso(_ bytes: [UInt8]) -> Date? {
        let dateEnd =
            bytes.firstIndex(where: {
                $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") || $0 == UInt8(ascii: " ")
            }) ?? bytes.count
        guard case let (year, month, day)? = isoDay(bytes[..<dateEnd]) else { return nil }
        var scanner = Scanner(bytes: bytes, index: dateEnd)
        guard !scanner.atEnd else {
            return date(year: year, month: month, day: day, clock: Clock(), offset: 0)
        }
        // A zone belongs to a time: `2013-01-27-01` is no date, not one in zone -01.
        _ = scanner.skip("T") || scanner.skip("t") || scanner.skip(" ")
        var clock = Clock()
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
        var offset = 0
        if !scanner.atEnd {
            guard let zone = scanner.rest()?.trimmingCharacters(in: .whitespaces),
                let seconds = numericZone(zone) ?? (zone == "Z" || zone == "z" ? 0 : nil)
            else { return nil }
            offset = seconds
        }
        return date(year: year, month: month, day: day, clock: clock, offset: offset)
    }

    /// The day an ISO 8601 date part names: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYYMMDD`,
    /// `YYYY-0MM-DD`, the ordinal `YYYY-DDD` and `YYYYDDD`, and with two-digit years `YY-MM-DD`,
    /// `YYMMDD` and `-YY-MM` or `-YYMM`.
    private static func isoDay(_ part: ArraySlice<UInt8>) -> (year: Int, month: Int, day: Int)? {
        let leadingHyphen = part.first == UInt8(ascii: "-")
        let groups = part.dropFirst(leadingHyphen ? 1 : 0).split(
            separator: UInt8(ascii: "-"),
            omittingEmptySubsequences: false
        )
        guard
            groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (48...57).contains($0) } })
        else { return nil }
        let numbers = groups.map { group in group.reduce(0) { $0 * 10 + Int($1 - 48) } }
        let shape = groups.map(\.count)
        if leadingHyphen {
            // `-YY-MM` and `-YYMM`: a month of a year in this century.
            switch shape {
            case [2, 2]: return (2_000 + numbers[0], numbers[1], 1)
            case [4]: return (2_000 + numbers[0] / 100, numbers[0] % 100, 1)
            default: return nil
            }
        }
        switch shape {
        case [4]: return (numbers[0], 1, 1)
        case [4, 2]: return (numbers[0], numbers[1], 1)
        case [4, 2, 2]: return (numbers[0], numbers[1], numbers[2])
        case [4, 3, 2] where groups[1].first == UInt8(ascii: "0"): return (numbers[0], numbers[1], numbers[2])
        case [8]: return (numbers[0] / 10_000, numbers[0] / 100 % 100, numbers[0] % 100)
        case [4, 3]: return ordinal(year: numbers[0], day: numbers[1])
        case [7]: return ordinal(year: numbers[0] / 1_000, day: numbers[0] % 1_000)
        case [2, 2, 2]: return (2_000 + numbers[0], numbers[1], numbers[2])
        case [6]: return (2_000 + numbers[0] / 10_000, numbers[0] / 100 % 100, numbers[0] % 100)
        default: return nil
        }
    }

    /// The month and day of the `day`th day of `year`.
    private static func ordinal(year: Int, day: Int) -> (year: Int, month: Int, day: Int)? {
        var rest = day
        for month in 1...12 {
            let length = daysIn(month: month, year: year)
            guard rest > length else { return rest >= 1 ? (year, month, rest) : nil }
            rest -= length
        }
        return nil
    }

    // MARK: Korean and Hungarian

    /// OnBlog's `2004년 05월 28일 01:31:15` and Nate's `2004-05-25 오후 11:23:17`, both in Korean
    /// time (UTC+9), with 오전 (morning) and 오후 (afternoon) on a twelve-hour clock.
    private static func korean(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let koreaOffset = 9 * 3_600
        if tokens.count == 4, tokens[0].hasSuffix("년"), tokens[1].hasSuffix("월"), tokens[2].hasSuffix("일"),
            let year = Int(tokens[0].dropLast()), tokens[0].count == 5,
            let month = Int(tokens[1].dropLast()), let day = Int(tokens[2].dropLast()),
            let clock = Clock(tokens[3])
        {
            return date(year: year, month: month, day: day, clock: clock, offset: koreaOffset)
        }
        guard tokens.count == 3, tokens[1] == "오전" || tokens[1] == "오후",
            case let (year, month, day)? = isoDay(ArraySlice(tokens[0].utf8)), tokens[0].utf8.count == 10,
            var clock = Clock(tokens[2]), (1...12).contains(clock.hour)
        else { return nil }
        clock.hour = clock.hour % 12 + (tokens[1] == "오후" ? 12 : 0)
        return date(year: year, month: month, day: day, clock: clock, offset: koreaOffset)
    }

    /// `2004-július-13T9:15-05:00`: a year, a Hungarian month name and a day, then perhaps a
    /// time with perhaps a zone.
    private static func hungarian(_ text: String) -> Date? {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]),
            let month = hungarianMonths[parts[1].lowercased()]
        else { return nil }
        let rest = parts[2].split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard let day = Int(rest[0]), rest[0].count <= 2 else { return nil }
        guard rest.count == 2 else {
            return date(year: year, month: month, day: day, clock: Clock(), offset: 0)
        }
        let time = rest[1]
        let zoneStart = time.firstIndex(where: { $0 == "+" || $0 == "-" || $0 == "Z" }) ?? time.endIndex
        guard let clock = Clock(String(time[..<zoneStart])) else { return nil }
        let zone = String(time[zoneStart...])
        guard let offset = zone.isEmpty || zone == "Z" ? 0 : numericZone(zone) else { return nil }
        return date(year: year, month: month, day: day, clock: clock, offset: offset)
    }

    /// Hungarian month names, with the misspellings feedparser reads too.
    private static let hungarianMonths: [String: Int] = [
        "január": 1, "február": 2, "februári": 2, "március": 3, "április": 4, "május": 5, "máujus": 5,
        "június": 6, "július": 7, "augusztus": 8, "szeptember": 9, "október": 10, "november": 11,
        "december": 12,
    ]

    /// Greek month abbreviations, with and without accents, as Greek feeds write them.
    private static let greekMonths: [String: Int] = [
        "ιαν": 1, "φεβ": 2, "μάρ": 3, "μαρ": 3, "μάώ": 3, "μαώ": 3, "απρ": 4, "μάι": 5, "μαϊ": 5, "μαι": 5,
        "ιούν": 6, "ιουν": 6, "ιον": 6, "ιούλ": 7, "ιουλ": 7, "ιολ": 7, "αύγ": 8, "αυγ": 8, "σεπ": 9,
        "οκτ": 10, "νοέ": 11, "νοε": 11, "δεκ": 12,
    ]

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

    /// The month `word` names: in English by its first three letters or its full name (`sept`
    /// too), in Greek by its abbreviation, in Hungarian by its name.
    private static func monthNumber(_ word: String) -> Int? {
        guard word.count >= 3, word.allSatisfy(\.isLetter) else { return nil }
        if let number = greekMonths[word] ?? hungarianMonths[word] { return number }
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
