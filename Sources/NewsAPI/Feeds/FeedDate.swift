import Foundation
import TributaryHTTP

/// Reads the dates feeds carry: RFC 822 / 1123 as RSS writes them (with or without the day
/// name, two- or four-digit years, numeric or named zones) and ISO 8601 as Atom does.
enum FeedDate {
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return ISO8601Date.parse(trimmed) ?? InternetDate.parse(trimmed)
    }
}
