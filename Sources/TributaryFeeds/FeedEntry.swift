public import Foundation
import TributaryHTML
import TributaryHTTP

/// One item of an RSS or Atom feed.
public struct FeedEntry: Sendable, Hashable {
    /// The entry's title, as text: its `title`, or else its `dc:title`, `itunes:title` or
    /// `media:title`; nil when it has none, never one made from its link or summary.
    public var title: String?
    /// The page the entry links to (its `link`, or else a `guid` that is a permalink),
    /// resolved against the innermost `xml:base` or the feed's address.
    public var link: URL?
    /// The summary as the feed sent it, HTML included.
    public var summary: String?
    /// The author's name.
    public var author: String?
    /// When the entry was published (or, failing that, last updated); nil when the feed gives
    /// no date the reader can read in full.
    public var published: Date?
    /// A picture: the largest of the entry's `media:content`, `media:thumbnail` and image
    /// enclosures, or else the first `<img>` of its content or summary.
    public var image: URL?
    /// The feed's identifier for the entry (`guid`, `id`), or its link.
    public var id: String?
    /// The title of the feed the entry came from.
    public var feedTitle: String?

    /// Creates an entry.
    public init(
        title: String?,
        link: URL? = nil,
        summary: String? = nil,
        author: String? = nil,
        published: Date? = nil,
        image: URL? = nil,
        id: String? = nil,
        feedTitle: String? = nil
    ) {
        self.title = title
        self.link = link
        self.summary = summary
        self.author = author
        self.published = published
        self.image = image
        self.id = id
        self.feedTitle = feedTitle
    }

    /// ``summary`` as plain text: tags removed, entities decoded, white space folded.
    public var summaryText: String? {
        summary.map { HTMLText.plain($0) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// Why a feed could not be read.
public struct FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The document is not well-formed XML.
        case malformed(reason: String)
        /// The document is XML, but neither RSS nor Atom; `root` is its first element (`html`
        /// for a web page, `NewsML` or `newsMessage` for a news agency's NewsML).
        case notAFeed(root: String)
        /// The document is not XML at all: `format` names what it is, such as a JSON Feed.
        case notXML(format: String)
        /// The document uses something feeds do not need and the reader does not accept: an
        /// encoding it cannot convert, or a document type declaration with an internal subset.
        case unsupported(reason: String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The line of the document where it went wrong, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates an error at a place in the document.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - line: The line of the document where it went wrong, from 1.
    ///   - column: The column, from 1.
    public init(_ kind: Kind, line: Int, column: Int) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    static func isWebPage(_ root: String) -> Bool { root.lowercased() == "html" }

    static func isNewsML(_ root: String) -> Bool {
        ["newsml", "newsmessage", "newsitem", "packageitem", "knowledgeitem"].contains(root.lowercased())
    }

    /// One sentence for an alert, for a reader rather than a developer.
    public var alertMessage: String {
        switch kind {
        case .malformed:
            "This feed cannot be read: its XML is broken at line \(line), column \(column)."
        case .notAFeed(let root) where FeedError.isWebPage(root):
            "This address is a web page, not a feed."
        case .notAFeed(let root) where FeedError.isNewsML(root):
            "This is a NewsML document, not an RSS or Atom feed."
        case .notAFeed:
            "This document is not an RSS or Atom feed."
        case .notXML(let format):
            "This is \(format), not an RSS or Atom feed."
        case .unsupported(let reason):
            "This feed cannot be read: it uses \(reason)."
        }
    }

    public var description: String {
        switch kind {
        case .malformed(let reason):
            "The feed is not well-formed XML at line \(line), column \(column): \(reason)"
        case .notAFeed(let root) where FeedError.isWebPage(root):
            "The document is a web page (<\(root)>), not an RSS or Atom feed."
        case .notAFeed(let root) where FeedError.isNewsML(root):
            "The document is NewsML (<\(root)>), a news agency format, not an RSS or Atom feed."
        case .notAFeed(let root):
            "The document is not an RSS or Atom feed: it starts with <\(root)> at line \(line), column \(column)."
        case .notXML(let format):
            "The document is \(format), not an RSS or Atom feed."
        case .unsupported(let reason):
            "The feed uses \(reason) at line \(line), column \(column), which is not supported."
        }
    }
}
