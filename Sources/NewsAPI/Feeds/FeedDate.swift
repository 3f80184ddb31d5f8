import Foundation
import TributaryHTTP

/// Reads the dates feeds carry: RFC 822 / 1123 as RSS writes them (with or without the day
/// name, two- or four-digit years, numeric or named zones) and ISO 8601 as Atom does.
enum FeedDate {
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return ISO8601Date.parse(trimmed) ?? rfc822(trimmed)
    }

    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    private static let zones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
        "pst": -8, "pdt": -7, "cet": 1, "cest": 2, "bst": 1,
    ]

    /// `Tue, 10 Jun 2003 04:00:00 GMT`, `10 Jun 03 04:00 +0200`, `Tue, 10 Jun 2003 04:00:00 EST`.
    static func rfc822(_ text: String) -> Date? {
        var parts = text.lowercased().replacingOccurrences(of: ",", with: " ")
            .split(separator: " ").map(String.init)
        if let first = parts.first, first.first?.isLetter == true { parts.removeFirst() }
        guard parts.count >= 4, let day = Int(parts[0]), (1...31).contains(day),
            let monthIndex = months.firstIndex(of: String(parts[1].prefix(3))),
            var year = Int(parts[2])
        else { return nil }
        if parts[2].count == 2 { year += year < 70 ? 2000 : 1900 }
        let time = parts[3].split(separator: ":").compactMap { Int($0) }
        guard (2...3).contains(time.count), time[0] < 24, time[1] < 60, time.count < 3 || time[2] <= 60 else {
            return nil
        }
        var offset = 0
        if parts.count > 4 {
            let zone = parts[4]
            if let hours = zones[zone] {
                offset = hours * 3_600
            } else if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5,
                let value = Int(zone.dropFirst())
            {
                offset = (sign == "-" ? -1 : 1) * ((value / 100) * 3_600 + (value % 100) * 60)
            } else {
                return nil
            }
        }
        let components = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
            year,
            monthIndex + 1,
            day,
            time[0],
            time[1],
            time.count > 2 ? time[2] : 0
        )
        return ISO8601Date.parse(components).map { $0.addingTimeInterval(-Double(offset)) }
    }
}
