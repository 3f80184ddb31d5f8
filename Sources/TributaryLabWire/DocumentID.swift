package import Foundation

/// The id of a document or a recording in the lab, which is also its share link: 128 random
/// bits in 22 URL-safe base 64 characters.
///
/// A text is checked once, where it enters — a route, a decoded body, a command line — and
/// is a `DocumentID` from then on, so nothing further in can meet an id of another form.
///
/// ```swift
/// guard let id = DocumentID("Qm9vbGVhbnNBcmVGdW4xMg") else { … }
/// let shared = try await lab.document(id)
/// ```
public struct DocumentID: Sendable, Hashable, Comparable, LosslessStringConvertible, Codable {
    /// The id's 22 characters.
    public let description: String

    /// The id written as `text`, or nil when `text` is not 22 URL-safe base 64 characters.
    public init?(_ text: String) {
        guard Self.isWellFormed(text) else { return nil }
        description = text
    }

    private init(checked text: String) { description = text }

    /// A new id, from the system's random generator. Never one that begins with `-`, which a
    /// command line would take for an option.
    public static func random() -> DocumentID {
        var generator = SystemRandomNumberGenerator()
        while true {
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = base64URL(Data(bytes))
            if !text.hasPrefix("-") { return DocumentID(checked: text) }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard Self.isWellFormed(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "An id is 22 URL-safe base 64 characters."
            )
        }
        description = text
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func < (lhs: DocumentID, rhs: DocumentID) -> Bool { lhs.description < rhs.description }

    /// `data` in URL-safe base 64 without padding.
    package static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `text` is 22 URL-safe base 64 characters, counted in bytes so that no text of
    /// any length is walked further than 23 of them.
    private static func isWellFormed(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            count += 1
            guard count <= 22 else { return false }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default: return false
            }
        }
        return count == 22
    }
}
