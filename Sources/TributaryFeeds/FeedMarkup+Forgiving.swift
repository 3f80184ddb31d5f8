import TributaryHTML
import TributaryHTTP

extension FeedMarkup {
    /// Repairs in `bytes` (UTF-8) the flaws for which `XMLParser` gives up on a whole document
    /// although what they mean is plain: characters XML does not allow, HTML entities, numeric
    /// references to no character or with an uppercase `X`, bare ampersands, a `<` that opens no
    /// tag, namespace prefixes nobody declared, and a document that breaks off (its open
    /// elements, CDATA section or comment are closed where it ends, a tag cut short left out).
    /// Returns what it repaired.
    ///
    /// An element with more than ``maximumAttributes`` attributes is refused: no feed has one,
    /// and Foundation's parser takes time quadratic in their number.
    static func forgive(_ bytes: inout [UInt8]) throws(FeedError) -> [FeedRepair] {
        let cleaned = removingInvalidCharacters(from: bytes)
        var scan = ForgivingScan(bytes: (cleaned.bytes, cleaned.removed))
        scan.run()
        if let offset = scan.crowdedElement {
            let (line, column) = position(of: offset, in: cleaned.bytes)
            throw FeedError(
                .unsupported(reason: "an element with more than \(maximumAttributes) attributes"),
                line: line,
                column: column
            )
        }
        bytes = scan.output
        var repairs: [FeedRepair] = []
        if cleaned.mappedControls > 0 {
            repairs.append(.mappedControlCharacters(count: cleaned.mappedControls))
        }
        if scan.removedCharacters > 0 {
            repairs.append(.removedInvalidCharacters(count: scan.removedCharacters))
        }
        if !scan.entities.isEmpty { repairs.append(.mappedHTMLEntities(scan.entities)) }
        if scan.replacedReferences > 0 {
            repairs.append(.replacedInvalidReferences(count: scan.replacedReferences))
        }
        if scan.ampersands > 0 { repairs.append(.escapedAmpersands(count: scan.ampersands)) }
        if scan.lessThanSigns > 0 { repairs.append(.escapedLessThanSigns(count: scan.lessThanSigns)) }
        if !scan.undeclared.isEmpty { repairs.append(.declaredPrefixes(scan.undeclared)) }
        if scan.repairedComments > 0 { repairs.append(.repairedComments(count: scan.repairedComments)) }
        if let unterminated = scan.unterminated { repairs.append(.closedUnterminated(unterminated)) }
        if !scan.closedAtEnd.isEmpty { repairs.append(.closedAtEnd(elements: scan.closedAtEnd)) }
        return repairs
    }

    /// `bytes` without the control characters, U+FFFE and U+FFFF, which XML allows nowhere.
    ///
    /// C1 control characters (U+0080 to U+009F), which no feed means as controls, are read as
    /// the Windows-1252 characters they were meant as (`don\u{92}t` is `don’t`), as feedparser
    /// and HTML's character references read them; `mappedControls` counts them.
    private static func removingInvalidCharacters(
        from bytes: [UInt8]
    ) -> (bytes: [UInt8], removed: Int, mappedControls: Int) {
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var removed = 0
        var mapped = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                let meant = Array(Windows1252.decode([bytes[index + 1]]).utf8)
                if meant != [0xC2, bytes[index + 1]] { mapped += 1 }
                kept.append(contentsOf: meant)
                index += 2
            } else if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                removed += 1
                index += 1
            } else if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF,
                bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF
            {
                removed += 1
                index += 3
            } else {
                kept.append(byte)
                index += 1
            }
        }
        return (kept, removed, mapped)
    }

    /// The most attributes the reader reads on one element.
    static let maximumAttributes = 1_000

    /// Whether XML allows the code point `value` in a document.
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

/// One pass over a document that copies it, repairing references and noting prefixes.
private struct ForgivingScan {
    let bytes: [UInt8]
    var output: [UInt8] = []
    var removedCharacters: Int
    var entities: [String] = []
    var ampersands = 0
    var replacedReferences = 0
    var lessThanSigns = 0
    /// The elements open at the point reached, outermost first.
    private var open: [String] = []
    /// The elements the document left open at its end, closed there.
    var closedAtEnd: [String] = []
    /// A CDATA section or comment that runs to the end, closed there.
    var unterminated: String?
    /// Comments with a `--` inside, which XML does not allow.
    var repairedComments = 0
    /// Where an element with more attributes than the reader reads starts, if one does.
    var crowdedElement: Int?
    private var used: [String] = []
    private var declared: Set<String> = []
    /// Where in `output` the root element's name ends: where missing declarations go.
    private var rootNameEnd: Int?
    private var index = 0

    init(bytes: (bytes: [UInt8], removed: Int)) {
        self.bytes = bytes.bytes
        removedCharacters = bytes.removed
        output.reserveCapacity(bytes.bytes.count + 256)
    }

    var undeclared: [String] { used.filter { !declared.contains($0) } }

    /// Namespaces of the prefixes feeds most often forget to declare.
    private static let knownNamespaces: [String: String] = [
        "media": "http://search.yahoo.com/mrss/", "dc": "http://purl.org/dc/elements/1.1/",
        "dcterms": "http://purl.org/dc/terms/", "content": "http://purl.org/rss/1.0/modules/content/",
        "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd", "atom": "http://www.w3.org/2005/Atom",
        "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rss": "http://purl.org/rss/1.0/",
        "slash": "http://purl.org/rss/1.0/modules/slash/",
        "sy": "http://purl.org/rss/1.0/modules/syndication/",
        "georss": "http://www.georss.org/georss", "feedburner": "http://rssnamespace.org/feedburner/ext/1.0",
        "wfw": "http://wellformedweb.org/CommentAPI/",
    ]

    mutating func run() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "&"): reference()
            case UInt8(ascii: "<"): markup()
            default:
                output.append(bytes[index])
                index += 1
            }
        }
        if let unterminated {
            output.append(contentsOf: (unterminated == "comment" ? "-->" : "]]>").utf8)
        }
        closedAtEnd = open
        for name in open.reversed() { output.append(contentsOf: "</\(name)>".utf8) }
        let missing = undeclared
        guard !missing.isEmpty, let rootNameEnd else { return }
        let declarations = missing.map { prefix in
            " xmlns:\(prefix)=\"\(Self.knownNamespaces[prefix] ?? "urn:x-undeclared:\(prefix)")\""
        }
        output.insert(contentsOf: declarations.joined().utf8, at: rootNameEnd)
    }

    /// Copies up to and including `terminator`, or to the end, where `what` is then closed.
    private mutating func copy(through terminator: String, from start: Int, closing what: String? = nil) {
        let end = FeedMarkup.find(Array(terminator.utf8), in: bytes, from: start).map {
            $0 + terminator.utf8.count
        }
        if end == nil, let what { unterminated = what }
        let stop = end ?? bytes.count
        output.append(contentsOf: bytes[index..<stop])
        index = stop
    }

    private mutating func markup() {
        if FeedMarkup.starts(Array("<!--".utf8), in: bytes, at: index) {
            comment()
        } else if FeedMarkup.starts(Array("<![CDATA[".utf8), in: bytes, at: index) {
            copy(through: "]]>", from: index + 9, closing: "CDATA section")
        } else if FeedMarkup.starts(Array("<?".utf8), in: bytes, at: index) {
            copy(through: "?>", from: index + 2)
        } else if FeedMarkup.starts(Array("<!".utf8), in: bytes, at: index) {
            declaration()
        } else if index + 1 < bytes.count, Self.opensTag(bytes[index + 1]) {
            tag()
        } else {
            // A `<` before a space, a digit or `=` opens nothing: it is text, as in `a < b`.
            output.append(contentsOf: "&lt;".utf8)
            lessThanSigns += 1
            index += 1
        }
    }

    /// A comment, copied with the `--` XML does not allow inside one written `- -`, as
    /// forgiving readers read such a comment to its `-->`.
    private mutating func comment() {
        let start = index + 4
        guard let end = FeedMarkup.find(Array("-->".utf8), in: bytes, from: start) else {
            copy(through: "-->", from: start, closing: "comment")
            return
        }
        output.append(contentsOf: "<!--".utf8)
        var body: [UInt8] = []
        body.reserveCapacity(end - start + 8)
        var repaired = false
        for byte in bytes[start..<end] {
            if byte == UInt8(ascii: "-"), body.last == UInt8(ascii: "-") {
                body.append(UInt8(ascii: " "))
                repaired = true
            }
            body.append(byte)
        }
        if body.last == UInt8(ascii: "-") {
            body.append(UInt8(ascii: " "))
            repaired = true
        }
        if repaired { repairedComments += 1 }
        output.append(contentsOf: body)
        output.append(contentsOf: "-->".utf8)
        index = end + 3
    }

    /// A document type declaration, copied as it is, brackets and quotes respected; one cut
    /// off by the end of the document is left out.
    private mutating func declaration() {
        let start = output.count
        var depth = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            output.append(byte)
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">"), depth <= 0 {
                return
            }
        }
        output.removeSubrange(start...)
    }

    private mutating func tag() {
        let start = output.count
        let opening = index
        output.append(bytes[index])
        index += 1
        let isEnd = index < bytes.count && bytes[index] == UInt8(ascii: "/")
        if isEnd {
            output.append(bytes[index])
            index += 1
        }
        let name = self.name()
        note(name, isAttribute: false)
        if !isEnd, !name.isEmpty, rootNameEnd == nil { rootNameEnd = output.count }
        var attributes = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                let isEmpty = output.last == UInt8(ascii: "/")
                output.append(byte)
                index += 1
                if isEnd {
                    if let innermost = open.lastIndex(of: name) { open.removeSubrange(innermost...) }
                } else if !isEmpty, !name.isEmpty {
                    open.append(name)
                }
                return
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quoted(byte)
            } else if Self.isNameByte(byte) {
                note(self.name(), isAttribute: true)
                attributes += 1
                if attributes > FeedMarkup.maximumAttributes, crowdedElement == nil {
                    crowdedElement = opening
                    index = bytes.count
                    return
                }
            } else {
                output.append(byte)
                index += 1
            }
        }
        // The document ends inside this tag: what there is of it is left out.
        output.removeSubrange(start...)
        if rootNameEnd ?? 0 > start { rootNameEnd = nil }
    }

    /// Copies an attribute value, repairing its references and escaping a raw `<`.
    private mutating func quoted(_ quote: UInt8) {
        output.append(quote)
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                output.append(byte)
                index += 1
                return
            } else if byte == UInt8(ascii: "&") {
                reference()
            } else if byte == UInt8(ascii: "<") {
                output.append(contentsOf: "&lt;".utf8)
                index += 1
            } else {
                output.append(byte)
                index += 1
            }
        }
    }

    /// Whether `byte`, just after a `<`, can start a tag's name or a closing tag.
    private static func opensTag(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), UInt8(ascii: "/"), 0x80...0xFF:
            true
        default: false
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"),
            UInt8(ascii: "."), 0x80...0xFF:
            true
        default: false
        }
    }

    /// Copies a name and returns it.
    private mutating func name() -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        output.append(contentsOf: bytes[start..<index])
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func note(_ name: String, isAttribute: Bool) {
        guard let colon = name.firstIndex(of: ":") else { return }
        let prefix = String(name[..<colon])
        if isAttribute, prefix == "xmlns" {
            declared.insert(String(name[name.index(after: colon)...]))
        } else if prefix != "xml", prefix != "xmlns", !prefix.isEmpty, !used.contains(prefix) {
            used.append(prefix)
        }
    }

    /// An `&` in text or in an attribute value: a reference kept, mapped or dropped, or a bare
    /// ampersand escaped.
    private mutating func reference() {
        var end = index + 1
        while end < bytes.count, end - index <= 32, bytes[end] != UInt8(ascii: ";"),
            Self.isReferenceByte(bytes[end])
        {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 else {
            legacyReference(upTo: end)
            return
        }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)[...]
        if name.first == "#" {
            let digits = name.dropFirst()
            guard HTMLEntities.isNumeric(digits) else {
                escapeAmpersand()
                return
            }
            let value = HTMLEntities.number(digits)
            let scalar = HTMLEntities.character(numbered: value)
            if scalar == "\u{FFFD}", value != 0xFFFD {
                // As HTML reads it: zero, a surrogate or a number past Unicode stands for no
                // character.
                output.append(contentsOf: "&#xFFFD;".utf8)
                replacedReferences += 1
            } else if scalar.value != value {
                output.append(contentsOf: "&#\(scalar.value);".utf8)
            } else if FeedMarkup.isXMLCharacter(scalar.value) {
                if digits.first == "X" {
                    // Written again in decimal: XML reads no `&#X41;`, which HTML and feeds write.
                    output.append(contentsOf: "&#\(scalar.value);".utf8)
                } else {
                    output.append(contentsOf: bytes[index...end])
                }
            } else {
                removedCharacters += 1
            }
        } else if ["amp", "lt", "gt", "quot", "apos"].contains(name) {
            output.append(contentsOf: bytes[index...end])
        } else if let text = HTMLEntities.text(named: name) {
            output.append(contentsOf: text.unicodeScalars.map { "&#\($0.value);" }.joined().utf8)
            if !entities.contains(String(name)) { entities.append(String(name)) }
        } else {
            escapeAmpersand()
            return
        }
        index = end + 1
    }

    /// An `&` whose name ends before `end` without a semicolon: one of the names HTML 4 had,
    /// which HTML reads without it too (`&nbsp`, `&copy 2024`), unless a letter, a digit or `=`
    /// goes on as in a URL's `&copyright=1`; or else a bare ampersand.
    private mutating func legacyReference(upTo end: Int) {
        let run = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)[...]
        guard let name = HTMLEntities.legacyName(prefixing: run), let text = HTMLEntities.text(named: name)
        else {
            escapeAmpersand()
            return
        }
        let after = index + 1 + name.utf8.count
        if after < bytes.count, Self.isReferenceByte(bytes[after]) || bytes[after] == UInt8(ascii: "=") {
            escapeAmpersand()
            return
        }
        output.append(contentsOf: text.unicodeScalars.map { "&#\($0.value);" }.joined().utf8)
        if !entities.contains(String(name)) { entities.append(String(name)) }
        index = after
    }

    private mutating func escapeAmpersand() {
        output.append(contentsOf: "&amp;".utf8)
        ampersands += 1
        index += 1
    }

    private static func isReferenceByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "#"):
            true
        default: false
        }
    }
}
