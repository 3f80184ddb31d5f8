import Foundation

/// Turns the HTML of feed summaries and of Hacker News items into text.
package enum HTMLText {
    /// `html` without its tags and with its entities decoded, white space folded; with
    /// `keepingParagraphs`, each `<p>` starts a new paragraph after a blank line, and a `<pre>`
    /// block is a paragraph that keeps its lines and their indentation.
    ///
    /// A link whose text is a URL, often shortened to something like `https://host/…/inde...`,
    /// is shown as its full target; a link of words keeps its words.
    package static func plain(_ html: String, keepingParagraphs: Bool = false) -> String {
        var reader = Reader(keepingParagraphs: keepingParagraphs)
        var tag: String?
        var previous: Character?
        for character in html {
            defer { previous = character }
            if let open = tag, open.isEmpty, previous == "<", !Self.opensTag(character) {
                // A `<` before a space, a digit or `=` starts no tag: it is text, as in `a < b`.
                tag = nil
                reader.pending += "<"
            }
            if character == "<", tag?.hasPrefix("!--") == true {
                tag?.append(character)
            } else if character == "<" {
                if let open = tag { reader.pending += "<" + open }
                tag = ""
            } else if character == ">", let name = tag, !name.hasPrefix("!--") || name.hasSuffix("--") {
                // A comment ends at `-->` only, whatever `>` it holds.
                tag = nil
                reader.handle(tag: name)
            } else if tag != nil {
                tag?.append(character)
            } else {
                reader.pending.append(character)
            }
        }
        if let open = tag { reader.pending += "<" + open }
        return reader.finish()
    }

    /// Whether `character`, just after a `<`, makes it the start of a tag, a closing tag, a
    /// comment or a declaration, as HTML's tokenizer decides.
    fileprivate static func opensTag(_ character: Character) -> Bool {
        (character.isASCII && character.isLetter) || character == "/" || character == "!" || character == "?"
    }

    /// Elements that sit inside a line of text.
    fileprivate static let inline: Set<String> = [
        "a", "abbr", "b", "cite", "code", "em", "i", "kbd", "mark", "q", "s", "small", "span", "strong",
        "sub", "sup", "u",
    ]

    /// `text` with the characters that are markup in HTML (`&`, `<`, `>`, `"`, `'`) written as
    /// references, for text put into a page, an attribute or a feed.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// `text` with its character references decoded as HTML decodes them: every named
    /// reference of HTML5, the HTML 4 names also without their semicolon, and numeric ones,
    /// where a number that stands for no character is U+FFFD. Anything else stays as written.
    package static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            let name = after.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "#") }
            let closed = after[name.endIndex...].first == ";"
            if name.first == "#", HTMLEntities.isNumeric(name.dropFirst()) {
                result.unicodeScalars.append(
                    HTMLEntities.character(numbered: HTMLEntities.number(name.dropFirst()))
                )
                rest = after[name.endIndex...].dropFirst(closed ? 1 : 0)
            } else if closed, let decoded = HTMLEntities.text(named: name) {
                result += decoded
                rest = after[name.endIndex...].dropFirst()
            } else if let legacy = HTMLEntities.legacyName(prefixing: name),
                !Self.continuesAName(after[legacy.endIndex...])
            {
                result += HTMLEntities.text(named: legacy) ?? ""
                rest = after[legacy.endIndex...].dropFirst(after[legacy.endIndex...].first == ";" ? 1 : 0)
            } else {
                result.append("&")
                rest = after
            }
        }
        return result + rest
    }

    /// Whether `text`, which follows a name HTML reads without a semicolon, goes on as if the
    /// name were longer, as in a URL's `&copyright=1`; then the name is not a reference.
    private static func continuesAName(_ text: Substring) -> Bool {
        guard let next = text.first else { return false }
        return next == "=" || (next.isASCII && (next.isLetter || next.isNumber))
    }

    /// The value of attribute `name` in the inside of a tag, such as `a href="x" rel=nofollow`.
    package static func attribute(_ name: String, in tag: String) -> String? {
        var rest = tag.drop { !$0.isWhitespace }
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            let key = rest.prefix { $0 != "=" && !$0.isWhitespace }
            rest = rest[key.endIndex...].drop(while: \.isWhitespace)
            var value = ""
            if rest.first == "=" {
                rest = rest.dropFirst().drop(while: \.isWhitespace)
                if let quote = rest.first, quote == "\"" || quote == "'" {
                    let body = rest.dropFirst()
                    let end = body.firstIndex(of: quote) ?? body.endIndex
                    value = String(body[..<end])
                    rest = end == body.endIndex ? body[end...] : body[body.index(after: end)...]
                } else {
                    let body = rest.prefix { !$0.isWhitespace }
                    value = String(body)
                    rest = rest[body.endIndex...]
                }
            }
            if key.lowercased() == name { return decodeEntities(value) }
        }
        return nil
    }

    /// Whether a link labelled `label` is better shown as its target `href`: the label is itself
    /// a URL (or the start of one, cut short with dots) and the target is a web address.
    fileprivate static func showsTarget(label: String, href: String) -> Bool {
        let label = label.trimmingCharacters(in: .whitespacesAndNewlines)
        let target = href.lowercased()
        guard label != href, target.hasPrefix("http://") || target.hasPrefix("https://") else { return false }
        let lowered = label.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("www.") {
            return true
        }
        let stem = label.hasSuffix("...") ? label.dropLast(3) : label.hasSuffix("…") ? label.dropLast() : nil
        return stem.map { !$0.isEmpty && href.contains($0) } ?? false
    }
}

/// The state of one conversion: the blocks read so far and the one being read.
private struct Reader {
    enum Block {
        case prose(String)
        case preformatted(String)
    }

    let keepingParagraphs: Bool
    var blocks: [Block] = []
    /// The text of the block being read, entities decoded.
    var text = ""
    /// Characters since the last tag, entities not yet decoded.
    var pending = ""
    var preDepth = 0
    /// The open link's target and where its label starts in `text`, in UTF-8 bytes.
    var link: (href: String, start: Int)?
    /// The `script` or `style` element being read, whose content is not shown.
    var hiddenElement: String?

    init(keepingParagraphs: Bool) {
        self.keepingParagraphs = keepingParagraphs
    }

    mutating func handle(tag: String) {
        flush()
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        let isClosing = trimmed.hasPrefix("/")
        let element =
            trimmed.lowercased().split(whereSeparator: \.isWhitespace).first
            .map { $0.trimmingCharacters(in: ["/"]) } ?? ""
        let keepsLines = keepingParagraphs
        // Comments and declarations show nothing.
        if trimmed.hasPrefix("!") { return }
        if let hidden = hiddenElement {
            if isClosing, element == hidden { hiddenElement = nil }
            return
        }
        switch element {
        case "script" where !isClosing, "style" where !isClosing:
            hiddenElement = element
        case "pre" where keepsLines:
            if isClosing {
                preDepth = max(0, preDepth - 1)
                if preDepth == 0 { endBlock(preformatted: true) }
            } else {
                if preDepth == 0 { endBlock(preformatted: false) }
                preDepth += 1
            }
        case "p" where keepsLines && preDepth == 0:
            endBlock(preformatted: false)
        case "br" where preDepth > 0:
            text.append("\n")
        case "a":
            if isClosing {
                closeLink()
            } else {
                closeLink()
                link = HTMLText.attribute("href", in: trimmed).map { ($0, text.utf8.count) }
            }
        default:
            // A block or a line break separates words; an inline element does not.
            if preDepth == 0 && !HTMLText.inline.contains(element) { text.append(" ") }
        }
    }

    mutating func finish() -> String {
        flush()
        closeLink()
        endBlock(preformatted: preDepth > 0)
        return blocks.compactMap { block -> String? in
            switch block {
            case .prose(let text):
                let folded = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                return folded.isEmpty ? nil : folded
            case .preformatted(let text):
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { line in String(line.reversed().drop(while: \.isWhitespace).reversed()) }
                let kept = lines.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed()
                return kept.isEmpty ? nil : kept.joined(separator: "\n")
            }
        }
        .joined(separator: keepingParagraphs ? "\n\n" : " ")
    }

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        // A script's or a style sheet's source is no text of the page.
        if hiddenElement == nil { text += HTMLText.decodeEntities(pending) }
        pending = ""
    }

    private mutating func closeLink() {
        guard let (href, start) = link else { return }
        link = nil
        let utf8 = text.utf8
        guard start <= utf8.count else { return }
        let labelStart = utf8.index(utf8.startIndex, offsetBy: start)
        let label = String(text[labelStart...])
        if HTMLText.showsTarget(label: label, href: href) {
            text.replaceSubrange(labelStart..., with: href)
        }
    }

    private mutating func endBlock(preformatted: Bool) {
        closeLink()
        blocks.append(preformatted ? .preformatted(text) : .prose(text))
        text = ""
    }
}
