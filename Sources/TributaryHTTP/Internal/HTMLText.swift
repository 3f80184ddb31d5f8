import Foundation

/// Turns the HTML of feed summaries and of Hacker News items into text.
package enum HTMLText {
    /// `html` without its tags and with its entities decoded, white space folded; with
    /// `keepingParagraphs`, each `<p>` starts a new paragraph after a blank line.
    package static func plain(_ html: String, keepingParagraphs: Bool = false) -> String {
        var paragraphs: [String] = []
        var text = ""
        var tag: String?
        for character in html {
            if character == "<" {
                tag = ""
            } else if character == ">", let name = tag {
                tag = nil
                let element =
                    name.lowercased().split(separator: " ").first.map { $0.trimmingCharacters(in: ["/"]) }
                    ?? ""
                if keepingParagraphs && element == "p" {
                    paragraphs.append(text)
                    text = ""
                } else if !inline.contains(element) {
                    // A block or a line break separates words; an inline element does not.
                    text.append(" ")
                }
            } else if tag != nil {
                tag?.append(character)
            } else {
                text.append(character)
            }
        }
        paragraphs.append(text)
        return
            paragraphs
            .map { decodeEntities($0).split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
            .joined(separator: "\n\n")
    }

    /// Elements that sit inside a line of text.
    private static let inline: Set<String> = [
        "a", "abbr", "b", "cite", "code", "em", "i", "kbd", "mark", "q", "s", "small", "span", "strong",
        "sub", "sup", "u",
    ]

    private static let named: [Substring: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "mdash": "—",
        "ndash": "–", "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“", "eacute": "é",
    ]

    /// `text` with its named and numeric character references decoded.
    package static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                result.append("&")
                rest = after
                continue
            }
            let name = after[..<semicolon]
            if let character = named[name] ?? number(name) {
                result.append(character)
            } else {
                result += "&\(name);"
            }
            rest = after[after.index(after: semicolon)...]
        }
        return result + rest
    }

    private static func number(_ name: Substring) -> Character? {
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value =
            digits.first == "x" || digits.first == "X"
            ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap(Unicode.Scalar.init).map(Character.init)
    }
}
