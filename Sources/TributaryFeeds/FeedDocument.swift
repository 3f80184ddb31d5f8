public import Foundation
import TributaryHTML
import TributaryHTTP

/// A feed as read: its title, its entries, and what the reader forgave to read it.
///
/// ```swift
/// let feed = try FeedReader.document(data, baseURL: url)
/// for flaw in feed.forgiven { print("forgiven:", flaw) }
/// ```
public struct FeedDocument: Sendable, Hashable {
    /// The feed's own title.
    public var title: String?
    /// The entries, in the feed's order.
    public var entries: [FeedEntry]
    /// The flaws the reader repaired rather than reject the feed, in the order they were found.
    public var forgiven: [FeedRepair]

    /// Creates a document.
    public init(title: String? = nil, entries: [FeedEntry], forgiven: [FeedRepair] = []) {
        self.title = title
        self.entries = entries
        self.forgiven = forgiven
    }
}

extension FeedReader {
    /// `data` made safe to hand to `XMLParser`: re-encoded as UTF-8, its common flaws repaired
    /// (see ``FeedRepair``), processing instructions blanked out and DTD internal subsets
    /// refused.
    ///
    /// Foundation's parser on Linux traps on names or text that are not valid UTF-8 (which a
    /// document with a mislabelled or unknown encoding produces), on a processing instruction
    /// without data, and on several DTD declarations. None of these belong in a feed, so the
    /// reader settles them before parsing: declared encodings (ISO-8859-1 and Windows-1252,
    /// the other common Windows and ISO code pages, Shift JIS, EUC-JP, Mac Roman, UTF-16 and
    /// UTF-32 with or without a byte-order mark) are converted, and the declaration then says
    /// UTF-8; processing instructions (such as `<?xml-stylesheet …?>`) become spaces, so
    /// positions in errors stay where they were; an internal subset (`<!DOCTYPE rss [ … ]>`),
    /// which feeds never need and entity-expansion attacks do, is refused. A document that names
    /// no encoding and is not valid UTF-8 is read as Windows-1252, as browsers read it; text
    /// that is not valid in an encoding the document names is refused where it starts.
    ///
    /// ``read(_:baseURL:contentType:contentLocation:)`` and ``entries(in:baseURL:buffering:)`` do this themselves; call it
    /// before creating an `XMLParser` for a ``FeedPublicist`` of your own.
    public static func prepared(_ data: Data, contentType: String? = nil) throws(FeedError) -> Data {
        try preparation(of: data, contentType: contentType).data
    }

    /// The document made safe for `XMLParser`, with the flaws that were forgiven on the way.
    ///
    /// The encoding is found as browsers find it: a byte-order mark, then the charset of the
    /// HTTP `Content-Type`, then the XML declaration, then the first bytes; labels mean what
    /// the WHATWG Encoding standard says (so ISO-8859-1 and ASCII are Windows-1252).
    static func preparation(
        of data: Data,
        contentType: String? = nil
    ) throws(FeedError) -> (data: Data, forgiven: [FeedRepair]) {
        var forgiven: [FeedRepair] = []
        var bytes = try utf8Bytes(of: data, charset: contentType.flatMap(charset(in:)), forgiven: &forgiven)
        if let kind = FeedMarkup.otherFormat(of: bytes) { throw FeedError(kind, line: 1, column: 1) }
        forgiven += try FeedMarkup.expandDeclaredEntities(in: &bytes)
        forgiven += try FeedMarkup.forgive(&bytes)
        try FeedMarkup.blankProcessingInstructions(in: &bytes)
        return (Data(bytes), forgiven)
    }

    /// The `charset` parameter of a `Content-Type` value.
    static func charset(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
            else {
                continue
            }
            let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\"", "'"])
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The document in UTF-8, its declaration naming UTF-8. A document that names no encoding
    /// and is not valid UTF-8 is read as Windows-1252, the encoding the WHATWG Encoding
    /// standard falls back on, and `forgiven` says so.
    private static func utf8Bytes(
        of data: Data,
        charset: String?,
        forgiven: inout [FeedRepair]
    ) throws(FeedError) -> [UInt8] {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            // A byte-order mark outranks every label, as in browsers.
            var converted = Array(bytes.dropFirst(3))
            FeedDeclaration(of: converted)?.declareUTF8(in: &converted)
            return utf8OrWindows1252(converted, forgiven: &forgiven)
        }
        if let wide = WideEncoding(sniffing: bytes), wide.byteOrderMarkLength > 0 || charset == nil {
            return try decodeWide(wide, data)
        }
        if bytes.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) {
            // `<?xm` in EBCDIC: the declaration, read in the common EBCDIC code page, names
            // which one.
            let head = Array(bytes.prefix(256))
            let declared = (try? decodeWithIconv(head, name: "IBM037")).flatMap {
                FeedDeclaration(of: $0)?.encoding
            }
            var converted = try decodeWithIconv(bytes, name: declared.flatMap(Iconv.name(for:)) ?? "IBM037")
            FeedDeclaration(of: converted)?.declareUTF8(in: &converted)
            return try validated(converted)
        }
        let declaration = FeedDeclaration(of: bytes)
        let label = charset ?? declaration?.encoding
        guard let label else {
            guard !isValidUTF8(bytes) else { return bytes }
            forgiven.append(.decodedAsWindows1252)
            return Array(Windows1252.decode(bytes).utf8)
        }
        guard let encoding = FeedEncoding(label: label) else {
            let position =
                charset == nil
                ? FeedMarkup.position(of: declaration?.encodingRange.lowerBound ?? 0, in: bytes)
                : (line: 1, column: 1)
            throw FeedError(
                .unsupported(reason: "the encoding \"\(label)\""),
                line: position.line,
                column: position.column
            )
        }
        var converted: [UInt8]
        switch encoding {
        case .utf8:
            var declared = bytes
            FeedDeclaration(of: declared)?.declareUTF8(in: &declared)
            return utf8OrWindows1252(declared, forgiven: &forgiven)
        case .wide(let encoding):
            // Only a header or the first bytes can announce a wide encoding; a document that
            // says so in ASCII is mislabelled, and is read as UTF-8.
            if let encoding, let wide = WideEncoding(sniffing: bytes) ?? WideEncoding(encoding) {
                return try decodeWide(wide, data)
            }
            var declared = bytes
            FeedDeclaration(of: declared)?.declareUTF8(in: &declared)
            return utf8OrWindows1252(declared, forgiven: &forgiven)
        case .windows1252:
            converted = Array(Windows1252.decode(bytes).utf8)
        case .iconv(let name):
            converted = try decodeWithIconv(bytes, name: name)
        case .foundation(let encoding, let name):
            guard String(data: Data(FeedEncoding.probe(for: name)), encoding: encoding) != nil else {
                // Foundation lacks it on this system (EUC-JP on Linux); iconv may have it.
                if let iconvName = Iconv.name(for: name) {
                    converted = try decodeWithIconv(bytes, name: iconvName)
                    break
                }
                throw FeedError(
                    .unsupported(
                        reason: "the encoding \"\(label)\", which Foundation cannot decode on this system"
                    ),
                    line: 1,
                    column: 1
                )
            }
            guard let text = String(data: data, encoding: encoding) else {
                throw FeedError(.malformed(reason: "the document is not valid \(name)"), line: 1, column: 1)
            }
            converted = Array(text.utf8)
        case .replacement:
            throw FeedError(.unsupported(reason: "the encoding \"\(label)\""), line: 1, column: 1)
        }
        FeedDeclaration(of: converted)?.declareUTF8(in: &converted)
        return try validated(converted)
    }

    /// `bytes` if they are the valid UTF-8 the document says they are; otherwise the document
    /// with each byte that is not valid UTF-8 read as its Windows-1252 character, as forgiving
    /// readers do, rather than one bad byte losing the whole feed. The valid UTF-8 around such
    /// bytes stays what it says: a stray `0x92` becomes `’` and a `café` beside it stays one.
    private static func utf8OrWindows1252(_ bytes: [UInt8], forgiven: inout [FeedRepair]) -> [UInt8] {
        guard let first = firstInvalidUTF8(in: bytes) else { return bytes }
        let (line, column) = FeedMarkup.position(of: first, in: bytes)
        forgiven.append(.redecodedAsWindows1252(line: line, column: column))
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                output.append(contentsOf: scalar)
                offset += scalar.count
            case .error(let length):
                output.append(contentsOf: Windows1252.decode(Array(bytes[offset..<(offset + length)])).utf8)
                offset += length
            case .emptyInput:
                return output
            }
        }
    }

    /// `bytes` decoded by iconv, or an error where they stop being valid in `name`.
    private static func decodeWithIconv(_ bytes: [UInt8], name: String) throws(FeedError) -> [UInt8] {
        switch Iconv.decode(bytes, from: name) {
        case .success(let decoded):
            return decoded
        case .failure(let invalid):
            let (line, column) = FeedMarkup.position(of: invalid.offset, in: bytes)
            throw FeedError(
                .malformed(reason: "the document is not valid \(name)"),
                line: line,
                column: column
            )
        }
    }

    private static func decodeWide(_ wide: WideEncoding, _ data: Data) throws(FeedError) -> [UInt8] {
        guard let text = String(data: data.dropFirst(wide.byteOrderMarkLength), encoding: wide.encoding)
        else {
            throw FeedError(.malformed(reason: "the document is not valid \(wide.name)"), line: 1, column: 1)
        }
        var converted = Array(text.utf8)
        FeedDeclaration(of: converted)?.declareUTF8(in: &converted)
        return try validated(converted)
    }

    private static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        firstInvalidUTF8(in: bytes) == nil
    }

    /// `bytes` if they are valid UTF-8; otherwise an error at the first byte that is not.
    private static func validated(_ bytes: [UInt8]) throws(FeedError) -> [UInt8] {
        guard let offset = firstInvalidUTF8(in: bytes) else { return bytes }
        let (line, column) = FeedMarkup.position(of: offset, in: bytes)
        throw FeedError(.malformed(reason: "the document is not valid UTF-8"), line: line, column: column)
    }

    /// Where the first byte is that does not belong to valid UTF-8, if one does not.
    private static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

/// An encoding told apart by its first bytes (a byte-order mark, or `<?` in a wide encoding).
private struct WideEncoding {
    var encoding: String.Encoding
    var name: String
    var byteOrderMarkLength: Int

    /// A label's wide encoding, for a document that starts without a byte-order mark.
    init?(_ encoding: String.Encoding) {
        switch encoding {
        case .utf16LittleEndian: (self.encoding, name, byteOrderMarkLength) = (encoding, "UTF-16", 0)
        case .utf16BigEndian: (self.encoding, name, byteOrderMarkLength) = (encoding, "UTF-16", 0)
        default: return nil
        }
    }

    init?(sniffing bytes: [UInt8]) {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): (encoding, name, byteOrderMarkLength) = (.utf32BigEndian, "UTF-32", 4)
        case (0xFF, 0xFE, 0x00, 0x00):
            (encoding, name, byteOrderMarkLength) = (.utf32LittleEndian, "UTF-32", 4)
        case (0xFE, 0xFF, _, _): (encoding, name, byteOrderMarkLength) = (.utf16BigEndian, "UTF-16", 2)
        case (0xFF, 0xFE, _, _): (encoding, name, byteOrderMarkLength) = (.utf16LittleEndian, "UTF-16", 2)
        case (0x00, 0x00, 0x00, 0x3C): (encoding, name, byteOrderMarkLength) = (.utf32BigEndian, "UTF-32", 0)
        case (0x3C, 0x00, 0x00, 0x00):
            (encoding, name, byteOrderMarkLength) = (.utf32LittleEndian, "UTF-32", 0)
        case (0x00, 0x3C, 0x00, 0x3F): (encoding, name, byteOrderMarkLength) = (.utf16BigEndian, "UTF-16", 0)
        case (0x3C, 0x00, 0x3F, 0x00):
            (encoding, name, byteOrderMarkLength) = (.utf16LittleEndian, "UTF-16", 0)
        default: return nil
        }
    }
}

/// The XML declaration at the start of a document, and where its encoding name is.
private struct FeedDeclaration {
    var encoding: String?
    var encodingRange: Range<Int>

    init?(of bytes: [UInt8]) {
        guard FeedMarkup.opensWithDeclaration(bytes),
            let end = FeedMarkup.find(Array("?>".utf8), in: bytes, from: 5, limit: 1024)
        else { return nil }
        let name = Array("encoding".utf8)
        guard let found = FeedMarkup.find(name, in: bytes, from: 5, limit: end) else {
            encodingRange = end..<end
            return
        }
        var index = found + name.count
        while index < end, FeedMarkup.isSpace(bytes[index]) { index += 1 }
        guard index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < end, FeedMarkup.isSpace(bytes[index]) { index += 1 }
        guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            return nil
        }
        let quote = bytes[index]
        guard let close = bytes[(index + 1)..<end].firstIndex(of: quote) else { return nil }
        encodingRange = (index + 1)..<close
        encoding = String(decoding: bytes[encodingRange], as: UTF8.self)
    }

    /// Rewrites the encoding name to UTF-8, for a document that has been converted to it.
    func declareUTF8(in bytes: inout [UInt8]) {
        guard encoding != nil else { return }
        bytes.replaceSubrange(encodingRange, with: "UTF-8".utf8)
    }
}

/// A scan of the markup that knows comments, CDATA sections, tags with quoted attribute
/// values and document type declarations: enough to tell a processing instruction from text
/// that merely looks like one.
enum FeedMarkup {
    static func blankProcessingInstructions(in bytes: inout [UInt8]) throws(FeedError) {
        let comment = Array("<!--".utf8)
        let cdata = Array("<![CDATA[".utf8)
        let doctype = Array("<!DOCTYPE".utf8)
        let count = bytes.count
        // The declaration stays (the parser reads it itself, and reports it if it is malformed).
        var index = 0
        if opensWithDeclaration(bytes) {
            index = find(Array("?>".utf8), in: bytes, from: 5).map { $0 + 2 } ?? count
        }
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let next = open + 1 < count ? bytes[open + 1] : 0
            if next == UInt8(ascii: "?") {
                let end = find(Array("?>".utf8), in: bytes, from: open + 2).map { $0 + 2 } ?? count
                for position in open..<end where bytes[position] != 0x0A && bytes[position] != 0x0D {
                    bytes[position] = UInt8(ascii: " ")
                }
                index = end
            } else if starts(comment, in: bytes, at: open) {
                index = find(Array("-->".utf8), in: bytes, from: open + comment.count).map { $0 + 3 } ?? count
            } else if starts(cdata, in: bytes, at: open) {
                index = find(Array("]]>".utf8), in: bytes, from: open + cdata.count).map { $0 + 3 } ?? count
            } else {
                let isDoctype = starts(doctype, in: bytes, at: open)
                var position = open + 1
                var quote: UInt8?
                while position < count {
                    let byte = bytes[position]
                    if let open = quote {
                        if byte == open { quote = nil }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                    } else if byte == UInt8(ascii: ">") {
                        break
                    } else if isDoctype, byte == UInt8(ascii: "[") {
                        let (line, column) = self.position(of: position, in: bytes)
                        throw FeedError(
                            .unsupported(reason: "a document type declaration with an internal subset"),
                            line: line,
                            column: column
                        )
                    }
                    position += 1
                }
                index = min(position + 1, count)
            }
            guard index < count else { return }
        }
    }

    /// What a document that is plainly no feed is, from its first bytes: JSON (a JSON Feed,
    /// say) or an HTML page, which is seldom well-formed enough to reach its root element.
    static func otherFormat(of bytes: [UInt8]) -> FeedError.Kind? {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return nil }
        if bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[") {
            let isJSONFeed =
                find(Array("jsonfeed.org/version".utf8), in: bytes, from: first, limit: first + 4_096) != nil
            return .notXML(format: isJSONFeed ? "a JSON Feed" : "JSON")
        }
        let head = String(decoding: bytes[first..<min(bytes.count, first + 15)], as: UTF8.self).lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") { return .notAFeed(root: "html") }
        return nil
    }

    /// Whether `bytes` start with an XML declaration: `<?xml` and a space.
    static func opensWithDeclaration(_ bytes: [UInt8]) -> Bool {
        bytes.count > 5 && bytes.starts(with: "<?xml".utf8) && isSpace(bytes[5])
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func starts(_ pattern: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        bytes.count - index >= pattern.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    /// Where `pattern` first starts at or after `start` and ends before `limit`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int, limit: Int = .max) -> Int? {
        let end = min(bytes.count, limit)
        guard let first = pattern.first, end - start >= pattern.count else { return nil }
        var index = start
        while index <= end - pattern.count {
            guard let candidate = bytes[index..<(end - pattern.count + 1)].firstIndex(of: first) else {
                return nil
            }
            if starts(pattern, in: bytes, at: candidate) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    /// The line and column (from 1, in characters) of the byte at `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.count { $0 == 0x0A } + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = bytes[lineStart..<before.endIndex].count { $0 & 0xC0 != 0x80 } + 1
        return (line, column)
    }
}
