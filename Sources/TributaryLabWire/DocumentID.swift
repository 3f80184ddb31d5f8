package import Foundation

/// The lab's ids of documents and recordings: 128 random bits, in URL-safe base 64 without
/// padding. The lab makes them; the lab and its clients check them.
package enum DocumentID {
    /// A new id. Never one that begins with `-`, which a command line would take for an option.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let id = base64URL(Data(bytes))
            if !id.hasPrefix("-") { return id }
        }
    }

    /// `data` in URL-safe base 64 without padding.
    package static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `text` could be an id: 22 URL-safe characters.
    package static func isWellFormed(_ text: String) -> Bool {
        text.count == 22
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
