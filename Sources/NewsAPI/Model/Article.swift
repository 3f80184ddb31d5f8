public import Foundation
import TributaryHTTP

/// A news article as NewsAPI sends it.
///
/// Decoding is forgiving where real responses are untidy: `source.id`, `author`,
/// `description`, `urlToImage` and `content` may be null, empty or of the wrong type (they
/// become nil), and `publishedAt` may end in `Z` or `+00:00`, with or without fractional
/// seconds. An article without a title, a usable URL or a readable date does not decode;
/// ``ArticlesPage`` skips it and counts it.
public struct Article: Sendable, Hashable, Identifiable, Codable {
    /// Where an article comes from.
    public struct Source: Sendable, Hashable, Codable {
        /// The source's id, for sources NewsAPI lists; nil for the others.
        public var id: String?
        /// The source's display name.
        public var name: String

        /// Creates a source.
        public init(id: String?, name: String) {
            self.id = id
            self.name = name
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = container.lenientString(.id)
            name = container.lenientString(.name) ?? id ?? ""
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
        }

        private enum CodingKeys: String, CodingKey {
            case id, name
        }
    }

    /// The source.
    public var source: Source
    /// The author, when known.
    public var author: String?
    /// The headline.
    public var title: String
    /// A short summary.
    public var description: String?
    /// The article on the publisher's site; also its identity.
    public var url: URL
    /// The article's image.
    public var urlToImage: URL?
    /// When the article was published.
    public var publishedAt: Date
    /// The beginning of the text, cut by NewsAPI with a `… [+N chars]` marker.
    public var content: String?

    /// Creates an article.
    public init(
        source: Source,
        author: String? = nil,
        title: String,
        description: String? = nil,
        url: URL,
        urlToImage: URL? = nil,
        publishedAt: Date,
        content: String? = nil
    ) {
        self.source = source
        self.author = author
        self.title = title
        self.description = description
        self.url = url
        self.urlToImage = urlToImage
        self.publishedAt = publishedAt
        self.content = content
    }

    public var id: URL { url }

    /// Whether this is NewsAPI's placeholder for an article that was taken down.
    public var isRemoved: Bool {
        title == Self.removedMarker || source.name == Self.removedMarker || url.host == "removed.com"
    }

    /// ``content`` without NewsAPI's `[+N chars]` marker.
    public var contentPreview: String? {
        guard let content else { return nil }
        guard let marker = content.range(of: #"\s*…?\s*\[\+\d+ chars\]\s*$"#, options: .regularExpression)
        else { return content }
        return String(content[..<marker.lowerBound])
    }

    /// How many characters of the text NewsAPI left out, from its `[+N chars]` marker.
    public var omittedCharacterCount: Int? {
        guard let content,
            let marker = content.range(of: #"\[\+\d+ chars\]\s*$"#, options: .regularExpression)
        else { return nil }
        return Int(content[marker].dropFirst(2).prefix { $0.isNumber })
    }

    static let removedMarker = "[Removed]"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        source = try container.decode(Source.self, forKey: .source)
        guard let title = container.lenientString(.title) else {
            throw DecodingError.dataCorruptedError(
                forKey: .title,
                in: container,
                debugDescription: "An article needs a title."
            )
        }
        self.title = title
        let link = try container.decode(String.self, forKey: .url)
        guard let url = Self.webURL(link) else {
            throw DecodingError.dataCorruptedError(
                forKey: .url,
                in: container,
                debugDescription: "\"\(link)\" is not a URL."
            )
        }
        self.url = url
        let published = try container.decode(String.self, forKey: .publishedAt)
        guard let date = ISO8601Date.parse(published) else {
            throw DecodingError.dataCorruptedError(
                forKey: .publishedAt,
                in: container,
                debugDescription: "\"\(published)\" is not an ISO 8601 date."
            )
        }
        publishedAt = date
        author = container.lenientString(.author)
        description = container.lenientString(.description)
        content = container.lenientString(.content)
        urlToImage = container.lenientString(.urlToImage).flatMap(Self.webURL)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(author, forKey: .author)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(url, forKey: .url)
        try container.encode(urlToImage, forKey: .urlToImage)
        try container.encode(Self.timestamp(publishedAt), forKey: .publishedAt)
        try container.encode(content, forKey: .content)
    }

    /// `text` as an http or https URL with a host, or nil.
    static func webURL(_ text: String) -> URL? {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else { return nil }
        return url
    }

    /// `date` as NewsAPI writes it: ISO 8601 in UTC, to the second, or to the millisecond when
    /// it has a fraction of a second (`2024-01-26T14:00:00Z`, `2024-01-26T15:30:00.123Z`).
    public static func timestamp(_ date: Date) -> String {
        let time = date.timeIntervalSince1970
        let whole = time.rounded(.down)
        let milliseconds = min(Int(((time - whole) * 1_000).rounded()), 999)
        let seconds = Date(timeIntervalSince1970: whole).formatted(.iso8601)
        guard milliseconds > 0 else { return seconds }
        return seconds.dropLast() + "." + String(milliseconds + 1_000).dropFirst() + "Z"
    }

    private enum CodingKeys: String, CodingKey {
        case source, author, title, description, url, urlToImage, publishedAt, content
    }
}

extension KeyedDecodingContainer {
    /// The string at `key`, or nil when it is missing, null, blank or not a string.
    func lenientString(_ key: Key) -> String? {
        guard let text = try? decodeIfPresent(String.self, forKey: key) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : text
    }
}
