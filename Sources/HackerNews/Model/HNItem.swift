public import Foundation
import TributaryHTML
import TributaryHTTP

/// One item of Hacker News: a story, a comment, a job, a poll or one of its options.
///
/// Items arrive as the official API sends them: `time` in Unix seconds, `text` as HTML, and
/// every field but `id` optional, as the API's documentation has them. A deleted item keeps
/// only its id, type, time and parent; a dead one is flagged and may keep its fields or lose
/// them. A field that is `null`, or a link that is empty or no URL, reads as absent.
public struct HNItem: Sendable, Hashable, Codable, Identifiable {
    /// What an item is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A story: a link, or a text post such as Ask HN.
        case story
        /// A comment on a story, a poll or another comment.
        case comment
        /// A job posting.
        case job
        /// A poll.
        case poll
        /// One option of a poll.
        case pollopt
        /// A kind this client does not know.
        case unknown

        public init(from decoder: any Decoder) throws {
            self = Kind(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .unknown
        }
    }

    /// The item's unique id.
    public var id: Int
    /// What the item is.
    public var kind: Kind
    /// The author's user name.
    public var author: String?
    /// When the item was made, when the API says.
    public var time: Date?
    /// The text of a comment, an Ask HN story, a job or a poll, as HTML.
    public var text: String?
    /// The story's link.
    public var url: URL?
    /// The story's score, or the votes of a poll option.
    public var score: Int?
    /// The title of a story, a poll or a job.
    public var title: String?
    /// How many comments a story or poll has in all.
    public var descendants: Int?
    /// The ids of the item's replies, in ranked order.
    public var kids: [Int]
    /// The comment or story this comment replies to, or the poll an option belongs to.
    public var parent: Int?
    /// The poll this option belongs to: its `poll` field, or its parent where the API sends
    /// that instead.
    public var poll: Int?
    /// The options of a poll, in order.
    public var parts: [Int]
    /// Whether the item was deleted.
    public var isDeleted: Bool
    /// Whether the item is dead: flagged, or killed by moderators.
    public var isDead: Bool

    /// Creates an item.
    public init(
        id: Int,
        kind: Kind,
        author: String? = nil,
        time: Date? = nil,
        text: String? = nil,
        url: URL? = nil,
        score: Int? = nil,
        title: String? = nil,
        descendants: Int? = nil,
        kids: [Int] = [],
        parent: Int? = nil,
        poll: Int? = nil,
        parts: [Int] = [],
        isDeleted: Bool = false,
        isDead: Bool = false
    ) {
        self.id = id
        self.kind = kind
        self.author = author
        self.time = time
        self.text = text
        self.url = url
        self.score = score
        self.title = title
        self.descendants = descendants
        self.kids = kids
        self.parent = parent
        self.poll = poll ?? (kind == .pollopt ? parent : nil)
        self.parts = parts
        self.isDeleted = isDeleted
        self.isDead = isDead
    }

    /// Whether the item has nothing to show: deleted or dead.
    public var isGone: Bool { isDeleted || isDead }

    /// ``text`` as plain text: tags removed, entities decoded, a blank line between
    /// paragraphs.
    public var plainText: String? {
        text.map { HTMLText.plain($0, keepingParagraphs: true) }
    }

    /// The item's page on Hacker News, where its discussion is.
    public var discussionURL: URL {
        URL(string: "https://news.ycombinator.com/item?id=\(id)")!
    }

    /// The host of the story's link, without `www.`, for showing beside its title.
    public var site: String? {
        guard let host = url?.host?.lowercased() else { return nil }
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }

    enum CodingKeys: String, CodingKey {
        case id, type, by, time, text, url, score, title, descendants, kids, parent, poll, parts, deleted,
            dead
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        kind = try container.decodeIfPresent(Kind.self, forKey: .type) ?? .unknown
        author = try container.decodeIfPresent(String.self, forKey: .by)
        time = try container.decodeIfPresent(Int64.self, forKey: .time).map {
            Date(timeIntervalSince1970: TimeInterval($0))
        }
        text = try container.decodeIfPresent(String.self, forKey: .text).flatMap { $0.isEmpty ? nil : $0 }
        // A link that is no URL is dropped rather than failing the item.
        let link = (try? container.decodeIfPresent(String.self, forKey: .url)) ?? nil
        url = link.flatMap { URL(string: $0) }.flatMap {
            $0.scheme != nil && $0.host?.isEmpty == false ? $0 : nil
        }
        score = try container.decodeIfPresent(Int.self, forKey: .score)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        descendants = try container.decodeIfPresent(Int.self, forKey: .descendants)
        kids = try container.decodeIfPresent([Int].self, forKey: .kids) ?? []
        parent = try container.decodeIfPresent(Int.self, forKey: .parent)
        poll = try container.decodeIfPresent(Int.self, forKey: .poll) ?? (kind == .pollopt ? parent : nil)
        parts = try container.decodeIfPresent([Int].self, forKey: .parts) ?? []
        isDeleted = try container.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
        isDead = try container.decodeIfPresent(Bool.self, forKey: .dead) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind == .unknown ? "unknown" : kind.rawValue, forKey: .type)
        try container.encodeIfPresent(author, forKey: .by)
        try container.encodeIfPresent(time.map { Int64($0.timeIntervalSince1970) }, forKey: .time)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(url?.absoluteString, forKey: .url)
        try container.encodeIfPresent(score, forKey: .score)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(descendants, forKey: .descendants)
        if !kids.isEmpty { try container.encode(kids, forKey: .kids) }
        try container.encodeIfPresent(parent, forKey: .parent)
        if poll != parent { try container.encodeIfPresent(poll, forKey: .poll) }
        if !parts.isEmpty { try container.encode(parts, forKey: .parts) }
        if isDeleted { try container.encode(true, forKey: .deleted) }
        if isDead { try container.encode(true, forKey: .dead) }
    }
}
