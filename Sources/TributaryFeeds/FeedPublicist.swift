public import Foundation
public import Tributary
import TributaryHTML
import TributaryHTTP

#if canImport(FoundationXML)
    public import FoundationXML
#endif

/// An `XMLParser` delegate that publishes the entries of an RSS 2.0, RSS 1.0 or Atom feed as
/// they are parsed.
///
/// ```swift
/// let parser = XMLParser(data: try FeedReader.prepared(data))
/// let feed = FeedPublicist(parser: parser, baseURL: url)
/// let subscription = feed.entries.sink(receiveCompletion: { print($0) }, receiveValue: { print($0.title) })
/// parser.parse()
/// ```
///
/// The publicist takes the parser's delegate slot when its first subscriber arrives and keeps
/// forwarding every callback to the delegate that was there (held weakly unless
/// `retainingExistingDelegate`); when the last subscriber leaves it stops the parse and puts
/// the old delegate back. Entries a subscriber has not asked for yet are buffered (see
/// `DelegateEvents.Buffering`). Malformed XML ends the entries with a ``FeedError`` that says
/// where. ``title`` is a state publisher: it starts with the title known so far.
///
/// Give the parser a document that went through ``FeedReader/prepared(_:contentType:)``: Foundation's
/// parser on Linux traps on some input that a hostile or broken server can send.
public final class FeedPublicist: NSObject, XMLParserDelegate, @unchecked Sendable {
    // @unchecked: the parse state is touched only by the parser's callbacks, which come from
    // the one thread running `parse()`; the attachment, and `feedTitle`, which subscribers to
    // `title` read from their own threads, are written only under `lock`.

    /// The entries, as they are parsed.
    public var entries: AnyPublisher<FeedEntry, FeedError> {
        Retaining(owner: self, upstream: events).eraseToAnyPublisher()
    }

    /// The feed's title: the current value first, then each change.
    public var title: AnyPublisher<String?, Never> {
        Retaining(owner: self, upstream: titleState).eraseToAnyPublisher()
    }

    private let parser: XMLParser
    private let baseURL: URL?
    private let keepsExistingDelegate: Bool
    private let lock = NSLock()
    private var forwarded: ForwardedDelegate<any XMLParserDelegate>?
    private var isDetached = false
    private var events: DelegateEvents<FeedEntry, FeedError>!
    private var titleState: DelegateState<String?>!

    // Parse state.
    private var kind: Kind?
    private var path: [String] = []
    private var text = ""
    /// The text of each open element around the current one.
    private var texts: [String] = []
    private var entry: EntryBuilder?
    private var feedTitle: String?
    private var bases: [URL?] = []
    /// The depth of the element whose content is XHTML, kept as markup, while inside it.
    private var xhtmlDepth: Int?
    /// The `type` of each open element, for Atom's text constructs.
    private var types: [String?] = []

    private enum Kind { case rss, atom }
    /// The prefix of a root such as `<r:rss>`, which the feed's own elements carry too.
    private var rootPrefix: String?
    /// Whether the feed's title came from its own `title`, which outranks `dc:title`.
    private var hasOwnTitle = false
    /// Whether the `guid` being read is a permalink, as RSS's are unless it says otherwise.
    private var guidIsPermalink = true
    /// How deep the open entry's element is, so that an `item` inside it does not close it.
    private var entryDepth = 0
    /// Whether the document is a CDF channel, whose items give their link and date as
    /// attributes.
    private var isChannelDefinition = false

    /// Creates a publicist for `parser`; it attaches when the first subscriber arrives.
    ///
    /// - Parameters:
    ///   - parser: The parser whose callbacks to publish.
    ///   - baseURL: Where the feed came from, for relative links.
    ///   - buffering: What a subscriber without demand keeps.
    ///   - retainingExistingDelegate: Whether to keep the parser's current delegate alive.
    public init(
        parser: XMLParser,
        baseURL: URL? = nil,
        buffering: DelegateEvents<FeedEntry, FeedError>.Buffering = .unbounded,
        retainingExistingDelegate: Bool = false
    ) {
        self.parser = parser
        self.baseURL = baseURL
        keepsExistingDelegate = retainingExistingDelegate
        super.init()
        events = DelegateEvents(
            buffering: buffering,
            onActive: { [weak self] in self?.attach() },
            onInactive: { [weak self] in self?.detach() }
        )
        titleState = DelegateState { [weak self] in
            guard let self else { return nil }
            return lock.withLock { feedTitle }
        }
    }

    /// Runs the parser on the calling thread; entries are published as they are parsed.
    /// Returns whether the document was read to the end.
    @discardableResult
    public func parse() -> Bool {
        let finished = parser.parse()
        lock.withLock {
            if isDetached, parser.delegate === self { parser.delegate = forwarded?.delegate }
        }
        // Some failures (an empty document, say) end the parse without a callback; the
        // entries end all the same. A completion already sent is not replaced.
        if !lock.withLock({ isDetached }) {
            if !finished {
                let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? ""
                fail(parser, .malformed(reason: reason.isEmpty ? "the document could not be read" : reason))
            } else if kind == nil {
                fail(parser, .malformed(reason: "the document has no root element"))
            }
        }
        return finished
    }

    private func attach() {
        lock.withLock {
            guard forwarded == nil else { return }
            forwarded = ForwardedDelegate(parser.delegate, retention: keepsExistingDelegate ? .strong : .weak)
            parser.delegate = self
        }
    }

    /// Gives the parser its old delegate back, which goes on receiving the parse; with no
    /// old delegate, nobody listens any more, and the next callback stops the parse (on the
    /// parser's own thread).
    private func detach() {
        lock.withLock {
            isDetached = true
            if parser.delegate === self, let previous = forwarded?.delegate { parser.delegate = previous }
        }
    }

    private var existing: (any XMLParserDelegate)? {
        lock.withLock { forwarded?.delegate }
    }

    /// Checked at each callback: a parse nobody listens to any more is aborted.
    private func stopIfDetached(_ parser: XMLParser) -> Bool {
        guard lock.withLock({ isDetached }) else { return false }
        parser.abortParsing()
        return true
    }

    private func fail(_ parser: XMLParser, _ kind: FeedError.Kind) {
        events.send(
            completion: .failure(FeedError(kind, line: parser.lineNumber, column: parser.columnNumber))
        )
    }

    // MARK: XMLParserDelegate

    /// Forwards the start of the document to the existing delegate.
    public func parserDidStartDocument(_ parser: XMLParser) {
        existing?.forwardDidStartDocument(parser)
    }

    /// Finishes ``entries`` after forwarding the end of the document, or fails them when the
    /// document had no root element.
    public func parserDidEndDocument(_ parser: XMLParser) {
        existing?.forwardDidEndDocument(parser)
        if kind == nil {
            fail(parser, .malformed(reason: "the document has no root element"))
        } else {
            events.send(completion: .finished)
        }
    }

    /// Reads the start of an element after forwarding it: the root says whether the document is a
    /// feed, an `item` or `entry` opens an entry, and attributes give links and pictures.
    public func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        existing?.forwardStart(parser, elementName, namespaceURI, qualifiedName, attributes)
        guard !stopIfDetached(parser) else { return }
        var name = Self.normalized(qualifiedName ?? elementName, rootPrefix: rootPrefix)
        if kind == nil {
            if let colon = name.firstIndex(of: ":"), name != "rdf:rdf",
                ["rss", "feed"].contains(name[name.index(after: colon)...])
            {
                rootPrefix = String(name[...colon])
                name = String(name[name.index(after: colon)...])
            }
            switch name {
            case "rss", "rdf:rdf": kind = .rss
            case "channel":
                // Microsoft's Channel Definition Format, read as the RSS it preceded.
                kind = .rss
                isChannelDefinition = true
            case "feed": kind = .atom
            default:
                fail(parser, .notAFeed(root: qualifiedName ?? elementName))
                parser.abortParsing()
                return
            }
        }
        let inherited = bases.last ?? baseURL
        bases.append(
            attributes["xml:base"].flatMap { URL(string: $0, relativeTo: inherited)?.absoluteURL }
                ?? inherited
        )
        path.append(name)
        texts.append(text)
        // Atom 0.3's `mode="base64"` is kept with the type, as `base64 TYPE`.
        let type = attributes["type"]?.lowercased()
        types.append(attributes["mode"]?.lowercased() == "base64" ? "base64 " + (type ?? "") : type)
        text = ""
        if let xhtmlDepth, path.count > xhtmlDepth {
            text = Self.markup(opening: qualifiedName ?? elementName, attributes: attributes)
            return
        }
        // Atom 1.0's `type="xhtml"`, and Atom 0.3's `mode="xml"`, hold markup as elements.
        // (`mode` is `xml` unless it says otherwise, for XHTML).
        if kind == .atom, ["content", "summary", "title", "subtitle"].contains(name),
            attributes["type"] == "xhtml" || attributes["mode"] == "xml"
                || (attributes["mode"] == nil && attributes["type"] == "application/xhtml+xml")
        {
            xhtmlDepth = path.count
        }
        // An RSS item's XHTML body is markup, as Atom's XHTML content is.
        if kind == .rss, entry != nil, ["body", "xhtml:body"].contains(name) { xhtmlDepth = path.count }
        // Whatever an entry holds, it says something, and is kept.
        if entry != nil { entry?.saysSomething = true }
        // An Atom entry's <source> describes the feed it was copied from, not the entry.
        guard !isInSource else { return }
        switch name {
        case "item" where entry == nil, "entry" where entry == nil:
            // Either name makes an entry in either format, as feedparser reads them.
            entry = EntryBuilder()
            entryDepth = path.count
            // RSS 1.0 names an item by its `rdf:about`.
            entry?.id = attributes["rdf:about"]
            if isChannelDefinition {
                let attribute = { (key: String) in attributes.first { $0.key.lowercased() == key }?.value }
                entry?.link = attribute("href").flatMap(resolve)
                entry?.published = attribute("lastmod").flatMap(FeedDate.parse)
            }
        case "guid":
            guidIsPermalink = attributes["isPermaLink"]?.lowercased() != "false"
        case "link" where kind == .atom:
            let relation = attributes["rel"] ?? "alternate"
            guard relation == "alternate", let href = attributes["href"], let url = resolve(href) else {
                if relation == "enclosure" {
                    entry?.offer(picture(attributes, url: attributes["href"], kind: .enclosure))
                }
                return
            }
            if entry != nil, entry?.link == nil { entry?.link = url }
        case "enclosure":
            entry?.offer(picture(attributes, url: attributes["url"], kind: .enclosure))
        case "media:content":
            entry?.offer(picture(attributes, url: attributes["url"], kind: .content))
        case "media:thumbnail":
            entry?.offer(picture(attributes, url: attributes["url"], kind: .thumbnail))
        default:
            break
        }
    }

    /// Whether the element being read is inside an Atom entry's `<source>`.
    private var isInSource: Bool {
        kind == .atom && entry != nil && path.dropLast().contains("source")
    }

    /// The picture an `enclosure`, `link rel="enclosure"` or `media:` element names, if it is one.
    ///
    /// Media RSS lets `media:content` leave out both `type` and `medium` (the Guardian does);
    /// such an element is taken for a picture unless its address ends like audio or video.
    private func picture(_ attributes: [String: String], url text: String?, kind: Picture.Kind) -> Picture? {
        guard let text, let url = resolve(text) else { return nil }
        let type = attributes["type"]?.lowercased()
        let medium = attributes["medium"]?.lowercased()
        switch kind {
        case .thumbnail:
            break
        case .enclosure, .content:
            if let medium, medium != "image" { return nil }
            if let type, !type.hasPrefix("image/") { return nil }
            if type == nil, medium == nil {
                let ending = url.pathExtension.lowercased()
                let isPicture =
                    kind == .content
                    ? !Picture.otherMediaExtensions.contains(ending)
                    : Picture.imageExtensions.contains(ending)
                guard isPicture else { return nil }
            }
        }
        return Picture(
            url: url,
            width: attributes["width"].flatMap { Int($0) },
            height: attributes["height"].flatMap { Int($0) },
            kind: kind
        )
    }

    /// An element's name as the reader matches it: lowercased, and without the `rss:` or
    /// `atom:` prefix that some feeds put on their own vocabulary, or the prefix their root
    /// element has (`<r:rss>`).
    private static func normalized(_ name: String, rootPrefix: String?) -> String {
        let lowered = name.lowercased()
        for prefix in ["rss:", "atom:", rootPrefix].compactMap(\.self) where lowered.hasPrefix(prefix) {
            return String(lowered.dropFirst(prefix.count))
        }
        return lowered
    }

    /// Whether `text` holds an HTML element: a start tag with a name, closed somewhere.
    private static func readsAsHTML(_ text: String) -> Bool {
        guard let open = text.range(of: "<") else { return false }
        let after = text[open.upperBound...]
        return after.first.map { $0.isLetter || $0 == "/" } == true && after.contains(">")
    }

    /// Whether Atom's `type` is a media type that is not text, whose content RFC 4287 says is
    /// Base64.
    private static func isBinary(_ type: String) -> Bool {
        type.contains("/") && !type.hasPrefix("text/") && !type.hasSuffix("xml")
            && !type.hasSuffix("+xml") && !type.hasPrefix("base64 ")
    }

    /// The start tag of an element inside XHTML content, as HTML.
    private static func markup(opening name: String, attributes: [String: String]) -> String {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        var tag = "<" + local
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) where !key.hasPrefix("xmlns") {
            tag += " \(key)=\"\(escaped(value))\""
        }
        return tag + ">"
    }

    /// Elements of HTML that have no end tag.
    private static let voidElements: Set<String> = [
        "br", "img", "hr", "input", "meta", "link", "wbr", "source",
    ]

    /// `text` with the characters that are markup in HTML escaped.
    private static func escaped(_ text: String) -> String { HTMLText.escaped(text) }

    /// Adds text to the element being read after forwarding it; inside XHTML content it is
    /// escaped, as markup.
    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        existing?.forwardCharacters(parser, string)
        text += xhtmlDepth == nil ? string : Self.escaped(string)
    }

    /// Adds a CDATA block to the element being read, as text, after forwarding it.
    public func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        existing?.forwardCDATA(parser, CDATABlock)
        let string = String(decoding: CDATABlock, as: UTF8.self)
        text += xhtmlDepth == nil ? string : Self.escaped(string)
    }

    /// Reads the end of an element after forwarding it: its text goes to the entry or the feed,
    /// and the end of an entry publishes the entry.
    public func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?
    ) {
        existing?.forwardEnd(parser, elementName, namespaceURI, qualifiedName)
        guard !stopIfDetached(parser), let name = path.popLast() else { return }
        let type = types.popLast() ?? nil
        if let xhtmlDepth, path.count >= xhtmlDepth {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            if !Self.voidElements.contains(local) { text += "</\(local)>" }
            bases.removeLast()
            text = (texts.popLast() ?? "") + text
            return
        }
        if xhtmlDepth == path.count + 1 { xhtmlDepth = nil }
        var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var textType = type
        if let type, type.hasPrefix("base64 ") || (kind == .atom && Self.isBinary(type)) {
            // Atom 0.3's `mode="base64"`, or a type that is no text: the construct is encoded.
            let rest = type.hasPrefix("base64 ") ? type.dropFirst("base64 ".count) : ""
            textType = rest.isEmpty ? nil : String(rest)
            let compact = value.filter { !$0.isWhitespace }
            if let decoded = Data(base64Encoded: compact, options: .ignoreUnknownCharacters),
                let text = String(data: decoded, encoding: .utf8)
            {
                value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                // Content of no stated text type is HTML when it reads as HTML, as feedparser
                // reads it.
                if textType == nil, Self.readsAsHTML(value) { textType = "html" }
            }
        }
        defer {
            bases.removeLast()
            // An element's text also counts as its parent's.
            text = (texts.popLast() ?? "") + text
        }
        guard !isInSourceAtEnd(name) else { return }
        let parent = path.last ?? ""
        if var current = entry {
            switch name {
            case "item" where path.count + 1 == entryDepth, "entry" where path.count + 1 == entryDepth:
                entry = nil
                if let finished = current.build(feedTitle: feedTitle, base: resolve) { events.send(finished) }
                return
            case "title" where parent == "item" || parent == "entry":
                current.title = Self.title(value, type: kind == .atom ? textType ?? "text" : nil)
            case "dc:title", "itunes:title", "media:title":
                if current.alternateTitle == nil, !value.isEmpty {
                    current.alternateTitle = HTMLText.decodeEntities(value)
                }
            case "link" where kind == .rss:
                current.link = current.link ?? resolve(value)
            case "description", "summary", "abstract", "dc:description":
                current.summary = value.isEmpty ? current.summary : value
            case "itunes:summary", "itunes:subtitle":
                if !value.isEmpty { current.summary = current.summary ?? value }
            case "content:encoded", "content", "body", "xhtml:body", "fullitem":
                current.content = value.isEmpty ? current.content : value
            case "author", "dc:creator", "name", "dc:author", "itunes:author":
                if !value.isEmpty { current.author = current.author ?? Self.authorName(value) }
            // Of two dates of one kind, the later in the document counts, as in feedparser.
            case "pubdate", "published", "dc:date", "dcterms:issued", "dcterms:created", "issued":
                current.published = FeedDate.parse(value) ?? current.published
            case "updated", "dcterms:modified", "modified":
                current.updated = FeedDate.parse(value) ?? current.updated
            case "guid" where parent == "item" || parent == "entry":
                current.id = value.isEmpty ? current.id : value
                // A permalink is an address only when it is one: a guid such as `post-12` is none.
                if guidIsPermalink, let url = URL(string: value),
                    ["http", "https"].contains(url.scheme?.lowercased())
                {
                    current.permalink = current.permalink ?? url
                }
                guidIsPermalink = true
            case "id" where parent == "item" || parent == "entry":
                current.id = value.isEmpty ? current.id : value
            default:
                break
            }
            entry = current
            return
        }
        switch name {
        case "title" where ["channel", "feed"].contains(parent):
            let title = Self.title(value, type: kind == .atom ? textType ?? "text" : nil)
            hasOwnTitle = true
            lock.withLock { feedTitle = title }
            titleState.send(title)
        case "dc:title" where ["channel", "feed"].contains(parent) && !hasOwnTitle && !value.isEmpty:
            let title = HTMLText.decodeEntities(value)
            lock.withLock { feedTitle = title }
            titleState.send(title)
        default:
            break
        }
    }

    /// Fails ``entries`` with a ``FeedError`` that says where the XML broke, after forwarding the
    /// error.
    public func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        existing?.forwardError(parser, parseError)
        guard !lock.withLock({ isDetached }) else { return }
        let reason = (parseError as NSError).localizedDescription
        fail(
            parser,
            .malformed(reason: reason.isEmpty ? "XML error \((parseError as NSError).code)" : reason)
        )
    }

    /// Whether the element `name`, just ended, belongs to an Atom entry's `<source>`.
    private func isInSourceAtEnd(_ name: String) -> Bool {
        kind == .atom && entry != nil && (name == "source" || path.contains("source"))
    }

    /// A title as text: Atom's `html` and `xhtml` titles are markup, its `text` titles and RSS's
    /// are text in which feeds often leave entities.
    static func title(_ value: String, type: String?) -> String {
        switch type {
        case "html", "xhtml", "text/html", "application/xhtml+xml": HTMLText.plain(value)
        default: HTMLText.decodeEntities(value)
        }
    }

    /// `link` resolved against the innermost `xml:base`, or else the feed's address (its
    /// `Content-Location`, or the URL it was fetched from), as feedparser resolves it.
    private func resolve(_ link: String) -> URL? {
        let trimmed = link.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let base = (bases.last ?? nil) ?? baseURL
        guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL, url.scheme != nil else {
            return nil
        }
        return url
    }

    /// The name in RSS's `author` form `mail@example.com (Name)`, or the text as it is.
    static func authorName(_ text: String) -> String {
        if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            let name = text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { return name }
        }
        return text
    }

    /// A picture an entry offers, and how big it says it is.
    private struct Picture {
        enum Kind: Int, Comparable {
            case thumbnail, enclosure, content
            static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        var url: URL
        var width: Int?
        var height: Int?
        var kind: Kind

        /// How it ranks: by area (or width alone), then full pictures before thumbnails.
        var rank: (Int, Kind) {
            // A width alone stands for a square; sizes past any real picture's are capped.
            let side = width.map { min(max($0, 0), 100_000) } ?? 0
            return (side * (height.map { min(max($0, 0), 100_000) } ?? side), kind)
        }

        static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "avif", "bmp", "svg"]
        static let otherMediaExtensions: Set<String> = [
            "mp4", "m4v", "mov", "webm", "mkv", "avi", "m3u8", "mp3", "m4a", "aac", "ogg", "oga", "wav",
            "flac", "opus",
        ]
    }

    private struct EntryBuilder {
        var title: String?
        var alternateTitle: String?
        private var picture: Picture?
        var link: URL?
        /// A `guid` that is the entry's address, for an entry without a `link`.
        var permalink: URL?
        var summary: String?
        var content: String?
        var author: String?
        var published: Date?
        var updated: Date?
        var id: String?
        /// Whether the entry holds any element at all: one that holds only what this reader
        /// does not read (a category, rights, an enclosure of audio) is kept all the same.
        var saysSomething = false

        /// Keeps `candidate` if it is bigger than the picture so far; the first wins a tie.
        mutating func offer(_ candidate: Picture?) {
            guard let candidate else { return }
            guard let current = picture else {
                picture = candidate
                return
            }
            if candidate.rank.0 > current.rank.0
                || (candidate.rank.0 == current.rank.0 && candidate.rank.1 > current.rank.1)
            {
                picture = candidate
            }
        }

        /// The entry, if it says anything at all; what it leaves out stays nil.
        func build(feedTitle: String?, base: (String) -> URL?) -> FeedEntry? {
            let summary = summary ?? content
            let title = title.flatMap { $0.isEmpty ? nil : $0 } ?? alternateTitle
            let link = link ?? permalink
            let image =
                picture?.url
                ?? [content, summary].lazy.compactMap { $0.flatMap { Self.firstImage(in: $0) } }.first
                .flatMap(base)
            let published = published ?? updated
            guard
                saysSomething || title != nil || link != nil || summary != nil || author != nil
                    || published != nil || id != nil || image != nil
            else { return nil }
            return FeedEntry(
                title: title,
                link: link,
                summary: summary,
                author: author,
                published: published,
                image: image,
                id: id ?? link?.absoluteString,
                feedTitle: feedTitle
            )
        }

        /// The `src` of the first `<img>` in `html` that is not a one-pixel tracker.
        static func firstImage(in html: String) -> String? {
            var rest = html[...]
            while let open = rest.range(of: "<img", options: .caseInsensitive) {
                let tail = rest[open.upperBound...]
                let end = tail.firstIndex(of: ">") ?? tail.endIndex
                let inside = tail[..<end]
                rest = tail[end...]
                guard inside.first.map({ $0.isWhitespace || $0 == "/" }) == true else { continue }
                let tag = "img" + inside
                if HTMLText.attribute("width", in: tag) == "1" || HTMLText.attribute("height", in: tag) == "1"
                {
                    continue
                }
                if let source = HTMLText.attribute("src", in: tag), !source.isEmpty { return source }
            }
            return nil
        }
    }
}

/// Calls on the delegate a publicist forwards to: optional requirements on Apple platforms,
/// requirements with default implementations elsewhere.
extension XMLParserDelegate {
    #if canImport(FoundationXML)
        fileprivate func forwardDidStartDocument(_ parser: XMLParser) { parserDidStartDocument(parser) }
        fileprivate func forwardDidEndDocument(_ parser: XMLParser) { parserDidEndDocument(parser) }
        fileprivate func forwardStart(
            _ parser: XMLParser,
            _ name: String,
            _ namespace: String?,
            _ qualified: String?,
            _ attributes: [String: String]
        ) {
            self.parser(
                parser,
                didStartElement: name,
                namespaceURI: namespace,
                qualifiedName: qualified,
                attributes: attributes
            )
        }
        fileprivate func forwardEnd(
            _ parser: XMLParser,
            _ name: String,
            _ namespace: String?,
            _ qualified: String?
        ) {
            self.parser(parser, didEndElement: name, namespaceURI: namespace, qualifiedName: qualified)
        }
        fileprivate func forwardCharacters(_ parser: XMLParser, _ text: String) {
            self.parser(parser, foundCharacters: text)
        }
        fileprivate func forwardCDATA(_ parser: XMLParser, _ data: Data) {
            self.parser(parser, foundCDATA: data)
        }
        fileprivate func forwardError(_ parser: XMLParser, _ error: any Error) {
            self.parser(parser, parseErrorOccurred: error)
        }
    #else
        fileprivate func forwardDidStartDocument(_ parser: XMLParser) { parserDidStartDocument?(parser) }
        fileprivate func forwardDidEndDocument(_ parser: XMLParser) { parserDidEndDocument?(parser) }
        fileprivate func forwardStart(
            _ parser: XMLParser,
            _ name: String,
            _ namespace: String?,
            _ qualified: String?,
            _ attributes: [String: String]
        ) {
            self.parser?(
                parser,
                didStartElement: name,
                namespaceURI: namespace,
                qualifiedName: qualified,
                attributes: attributes
            )
        }
        fileprivate func forwardEnd(
            _ parser: XMLParser,
            _ name: String,
            _ namespace: String?,
            _ qualified: String?
        ) {
            self.parser?(parser, didEndElement: name, namespaceURI: namespace, qualifiedName: qualified)
        }
        fileprivate func forwardCharacters(_ parser: XMLParser, _ text: String) {
            self.parser?(parser, foundCharacters: text)
        }
        fileprivate func forwardCDATA(_ parser: XMLParser, _ data: Data) {
            self.parser?(parser, foundCDATA: data)
        }
        fileprivate func forwardError(_ parser: XMLParser, _ error: any Error) {
            self.parser?(parser, parseErrorOccurred: error)
        }
    #endif
}

/// A publisher that keeps its owner alive for as long as it is subscribed to.
private struct Retaining<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let owner: AnyObject
    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let owner = owner
        upstream.handleEvents(receiveCancel: { withExtendedLifetime(owner) {} })
            .receive(subscriber: subscriber)
    }
}

/// Reads RSS and Atom feeds.
public enum FeedReader {
    /// The entries of the feed in `data`, published as they are parsed on a background queue
    /// once subscribed to; cancelling stops the parse.
    public static func entries(
        in data: Data,
        baseURL: URL? = nil,
        buffering: DelegateEvents<FeedEntry, FeedError>.Buffering = .unbounded
    ) -> AnyPublisher<FeedEntry, FeedError> {
        let document: Data
        do {
            document = try prepared(data)
        } catch {
            return Fail(error: error).eraseToAnyPublisher()
        }
        return Deferred {
            let parser = XMLParser(data: document)
            let publicist = FeedPublicist(parser: parser, baseURL: baseURL, buffering: buffering)
            return publicist.entries
                .handleEvents(receiveSubscription: { _ in
                    DispatchQueue.global().async { _ = publicist.parse() }
                })
        }
        .eraseToAnyPublisher()
    }

    /// Every entry of the feed in `data`, parsed on the calling thread; `contentType` is the
    /// HTTP header it came with, whose charset outranks the document's declaration.
    public static func read(
        _ data: Data,
        baseURL: URL? = nil,
        contentType: String? = nil,
        contentLocation: String? = nil
    ) throws(FeedError) -> [FeedEntry] {
        try document(data, baseURL: baseURL, contentType: contentType, contentLocation: contentLocation)
            .entries
    }

    /// The feed in `data`, parsed on the calling thread, with the flaws that were forgiven.
    ///
    /// A document cut off before its end is read to where it stops (see
    /// ``FeedRepair/closedAtEnd(elements:)``). XML that breaks in the middle after some entries
    /// are complete still yields them, with ``FeedRepair/stoppedEarly(_:)`` among the flaws;
    /// XML that breaks there before any entry is complete, and a document that is no feed, is
    /// an error.
    ///
    /// - Parameters:
    ///   - data: The document as it was received.
    ///   - baseURL: Where it came from, for relative links.
    ///   - contentType: The HTTP `Content-Type` it came with, whose charset outranks the
    ///     document's own declaration.
    ///   - contentLocation: The HTTP `Content-Location` it came with, which relative links
    ///     resolve against before `baseURL` (an `xml:base` in the document outranks both).
    public static func document(
        _ data: Data,
        baseURL: URL? = nil,
        contentType: String? = nil,
        contentLocation: String? = nil
    ) throws(FeedError) -> FeedDocument {
        let prepared = try preparation(of: data, contentType: contentType)
        let parser = XMLParser(data: prepared.data)
        let location = contentLocation.flatMap {
            URL(string: $0.trimmingCharacters(in: .whitespaces), relativeTo: baseURL)?.absoluteURL
        }
        let publicist = FeedPublicist(parser: parser, baseURL: location?.scheme == nil ? baseURL : location)
        var entries: [FeedEntry] = []
        var failure: FeedError?
        var title: String?
        let titles = publicist.title.sink { title = $0 }
        let subscription = publicist.entries.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { failure = error }
            },
            receiveValue: { entries.append($0) }
        )
        publicist.parse()
        subscription.cancel()
        titles.cancel()
        guard let failure else {
            return FeedDocument(title: title, entries: entries, forgiven: prepared.forgiven)
        }
        // As a lenient reader does, a feed that breaks off keeps the entries it completed.
        guard case .malformed = failure.kind, !entries.isEmpty else { throw failure }
        return FeedDocument(
            title: title,
            entries: entries,
            forgiven: prepared.forgiven + [.stoppedEarly(failure)]
        )
    }
}
