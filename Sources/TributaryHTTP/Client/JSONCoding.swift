public import Foundation

/// Decoding JSON whose dates come in the forms real APIs write.
extension JSONDecoder {
    /// A decoder that reads dates the way real APIs write them: ISO 8601 with `Z`, `±hh:mm`
    /// or `±hhmm`, with or without fractional seconds, a date alone, or seconds since 1970.
    public static func lenient() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            // Strings first: they are what APIs send, and a failed attempt costs a thrown error.
            guard let text = try? container.decode(String.self) else {
                return Date(timeIntervalSince1970: try container.decode(Double.self))
            }
            guard let date = ISO8601Date.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Expected an ISO 8601 date, found \"\(text)\"."
                )
            }
            return date
        }
        return decoder
    }
}

/// Encoding JSON with dates that a lenient decoder reads.
extension JSONEncoder {
    /// An encoder that writes dates as ISO 8601 in UTC, which ``JSONDecoder/lenient()`` reads.
    public static func iso8601() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

/// A forgiving ISO 8601 reader for timestamps from the wild.
public enum ISO8601Date {
    /// The date `text` names: `2024-01-26`, `2024-01-26T14:00:00Z`,
    /// `2024-01-26T14:00:00.123456+01:00`, `2024-01-26 14:00:00+0100`, `2024-01-26T14:00Z`;
    /// nil for anything else.
    public static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(CivilDate.daysSinceEpoch(year: year, month: month, day: day) * 86_400)
        if scanner.isAtEnd {
            return Date(timeIntervalSince1970: seconds)
        }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2),
            hour <= 24, minute <= 59
        else { return nil }
        var second = 0.0
        if scanner.skip(":") {
            guard let whole = scanner.number(digits: 2), whole <= 60 else { return nil }
            second = Double(whole)
            if scanner.skip(".") || scanner.skip(",") {
                guard let fraction = scanner.fraction() else { return nil }
                second += fraction
            }
        }
        seconds += Double(hour * 3_600 + minute * 60) + second
        if scanner.skip("Z") || scanner.skip("z") {
            return scanner.isAtEnd ? Date(timeIntervalSince1970: seconds) : nil
        }
        let sign: Double
        if scanner.skip("+") {
            sign = 1
        } else if scanner.skip("-") {
            sign = -1
        } else {
            return nil
        }
        guard let offsetHours = scanner.number(digits: 2), offsetHours <= 23 else { return nil }
        _ = scanner.skip(":")
        let offsetMinutes = scanner.isAtEnd ? 0 : scanner.number(digits: 2)
        guard let offsetMinutes, offsetMinutes <= 59, scanner.isAtEnd else { return nil }
        seconds -= sign * Double(offsetHours * 3_600 + offsetMinutes * 60)
        return Date(timeIntervalSince1970: seconds)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        mutating func number(digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }

        mutating func fraction() -> Double? {
            var value = 0.0
            var scale = 0.1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                value += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            return index > start ? value : nil
        }
    }
}
