/// A flaw in a feed that the reader forgave rather than reject the whole document, as a
/// lenient reader does; ``FeedDocument/forgiven`` lists them, so that a feed's publisher (or a
/// curious reader) can learn what was wrong.
public enum FeedRepair: Sendable, Hashable, CustomStringConvertible {
    /// Characters XML does not allow anywhere (control characters such as U+0003, U+FFFE), raw
    /// or as character references, were removed.
    case removedInvalidCharacters(count: Int)
    /// C1 control characters (U+0080 to U+009F) were read as the Windows-1252 characters they
    /// were meant as, the curly quotes and dashes of text pasted from Windows.
    case mappedControlCharacters(count: Int)
    /// HTML's named entities, which XML does not define, were read as HTML reads them.
    case mappedHTMLEntities([String])
    /// Ampersands that start no entity were read as text.
    case escapedAmpersands(count: Int)
    /// Numeric character references to no character (zero, a surrogate, a number past
    /// Unicode) were read as U+FFFD, as HTML reads them.
    case replacedInvalidReferences(count: Int)
    /// Less-than signs that open no tag (`a < b`) were read as text.
    case escapedLessThanSigns(count: Int)
    /// The document names no encoding and is not valid UTF-8, so it was read as Windows-1252,
    /// as browsers read such a document.
    case decodedAsWindows1252
    /// Namespace prefixes used without a declaration were declared.
    case declaredPrefixes([String])
    /// The document says it is UTF-8 but is not valid UTF-8 from `line` and `column` on: each
    /// byte that is not was read as its Windows-1252 character, rather than lose the feed.
    case redecodedAsWindows1252(line: Int, column: Int)
    /// The document breaks off before its end: the `elements` it left open (innermost last)
    /// were closed there, and a tag cut short was left out.
    case closedAtEnd(elements: [String])
    /// Comments with `--` inside, which XML does not allow, were read to their `-->`.
    case repairedComments(count: Int)
    /// A CDATA section or a comment runs to the end of the document; it was closed there.
    case closedUnterminated(String)
    /// Entities the document declares in its own DOCTYPE were read as it declares them.
    case expandedDeclaredEntities([String])
    /// Entities the document declares as external were left out: the reader never fetches
    /// anything a document points to.
    case leftOutExternalEntities([String])
    /// The XML breaks off where `error` says; the entries before it were kept.
    case stoppedEarly(FeedError)

    public var description: String {
        switch self {
        case .removedInvalidCharacters(let count):
            "removed \(count) character\(count == 1 ? "" : "s") XML does not allow"
        case .mappedControlCharacters(let count):
            "read \(count) C1 control character\(count == 1 ? "" : "s") as Windows-1252 reads the byte"
        case .mappedHTMLEntities(let names):
            "read the HTML entit\(names.count == 1 ? "y" : "ies") \(names.map { "&\($0);" }.joined(separator: " "))"
        case .escapedAmpersands(let count):
            "read \(count) bare ampersand\(count == 1 ? "" : "s") as text"
        case .replacedInvalidReferences(let count):
            "read \(count) character reference\(count == 1 ? "" : "s") to no character as U+FFFD"
        case .escapedLessThanSigns(let count):
            "read \(count) < that open\(count == 1 ? "s" : "") no tag as text"
        case .decodedAsWindows1252:
            "read the document as Windows-1252, since it names no encoding and is not valid UTF-8"
        case .declaredPrefixes(let prefixes):
            "declared the namespace prefix\(prefixes.count == 1 ? "" : "es") \(prefixes.joined(separator: ", "))"
        case .redecodedAsWindows1252(let line, let column):
            "read the bytes that are not valid UTF-8, from line \(line), column \(column), as Windows-1252"
        case .closedAtEnd(let elements):
            "closed \(elements.map { "<\($0)>" }.joined(separator: " ")), left open where the document breaks off"
        case .repairedComments(let count):
            "read \(count) comment\(count == 1 ? "" : "s") with -- inside to \(count == 1 ? "its" : "their") end"
        case .closedUnterminated(let what):
            "closed a \(what) that runs to the end of the document"
        case .expandedDeclaredEntities(let names):
            "read the entit\(names.count == 1 ? "y" : "ies") \(names.map { "&\($0);" }.joined(separator: " ")) as the document declares"
        case .leftOutExternalEntities(let names):
            "left out the external entit\(names.count == 1 ? "y" : "ies") \(names.map { "&\($0);" }.joined(separator: " ")), which are never fetched"
        case .stoppedEarly(let error):
            "kept the entries before the XML breaks at line \(error.line), column \(error.column)"
        }
    }
}
