public import Foundation
import TributaryHTML
import TributaryHTTP

/// A Hacker News user, as `user/{id}` describes them.
///
/// The API's documentation requires `id`, `created` and `karma`; `about`, `delay` and
/// `submitted` come only when set.
public struct HNUser: Sendable, Hashable, Codable, Identifiable {
    /// The user name, which is the id; case-sensitive.
    public var id: String
    /// When the account was made.
    public var created: Date
    /// The user's karma.
    public var karma: Int
    /// What the user wrote about themselves, as HTML.
    public var about: String?
    /// The ids of the user's stories, polls and comments, newest first.
    public var submitted: [Int]
    /// Minutes between a comment's making and others seeing it, when the user set a delay.
    public var delay: Int?

    /// Creates a user.
    public init(
        id: String,
        created: Date,
        karma: Int,
        about: String? = nil,
        submitted: [Int] = [],
        delay: Int? = nil
    ) {
        self.id = id
        self.created = created
        self.karma = karma
        self.about = about
        self.submitted = submitted
        self.delay = delay
    }

    /// ``about`` as plain text, paragraphs apart.
    public var plainAbout: String? {
        about.map { HTMLText.plain($0, keepingParagraphs: true) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The user's page on Hacker News.
    public var profileURL: URL {
        var components = URLComponents(string: "https://news.ycombinator.com/user")!
        components.queryItems = [URLQueryItem(name: "id", value: id)]
        return components.url!
    }

    enum CodingKeys: String, CodingKey {
        case id, created, karma, about, submitted, delay
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        created = Date(
            timeIntervalSince1970: TimeInterval(try container.decode(Int64.self, forKey: .created))
        )
        karma = try container.decodeIfPresent(Int.self, forKey: .karma) ?? 0
        about = try container.decodeIfPresent(String.self, forKey: .about)
        submitted = try container.decodeIfPresent([Int].self, forKey: .submitted) ?? []
        delay = try container.decodeIfPresent(Int.self, forKey: .delay)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(Int64(created.timeIntervalSince1970), forKey: .created)
        try container.encode(karma, forKey: .karma)
        try container.encodeIfPresent(about, forKey: .about)
        try container.encode(submitted, forKey: .submitted)
        try container.encodeIfPresent(delay, forKey: .delay)
    }
}

/// The items and profiles that changed lately, as `updates` lists them.
public struct HNUpdates: Sendable, Hashable, Codable {
    /// Ids of items that changed.
    public var items: [Int]
    /// Names of users whose profiles changed.
    public var profiles: [String]

    /// Creates a list of updates.
    public init(items: [Int], profiles: [String]) {
        self.items = items
        self.profiles = profiles
    }
}
