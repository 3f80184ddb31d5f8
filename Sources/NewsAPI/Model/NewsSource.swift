public import Foundation

/// A publisher NewsAPI lists, from the sources endpoint.
public struct NewsSource: Sendable, Hashable, Identifiable, Codable {
    /// The id used in the `sources` parameter.
    public var id: String
    /// The display name.
    public var name: String
    /// What the source covers.
    public var description: String?
    /// The source's home page.
    public var url: URL?
    /// The category, as NewsAPI names it (see ``NewsCategory``).
    public var category: String?
    /// The language, as an ISO 639-1 code.
    public var language: String?
    /// The country, as a lowercase ISO 3166-1 code.
    public var country: String?

    /// Creates a source.
    public init(
        id: String,
        name: String,
        description: String? = nil,
        url: URL? = nil,
        category: String? = nil,
        language: String? = nil,
        country: String? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.url = url
        self.category = category
        self.language = language
        self.country = country
    }

    /// ``category`` as one of the seven NewsAPI categories, when it is one.
    public var newsCategory: NewsCategory? { category.flatMap(NewsCategory.init(rawValue:)) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = container.lenientString(.id) else {
            throw DecodingError.dataCorruptedError(
                forKey: .id,
                in: container,
                debugDescription: "A source needs an id."
            )
        }
        self.id = id
        name = container.lenientString(.name) ?? id
        description = container.lenientString(.description)
        url = container.lenientString(.url).flatMap(URL.init(string:))
        category = container.lenientString(.category)
        language = container.lenientString(.language)
        country = container.lenientString(.country)
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, description, url, category, language, country
    }
}

/// The seven categories of NewsAPI's top headlines and sources.
public enum NewsCategory: String, Sendable, Hashable, CaseIterable, Codable {
    /// Business news.
    case business
    /// Entertainment news.
    case entertainment
    /// General news.
    case general
    /// Health news.
    case health
    /// Science news.
    case science
    /// Sports news.
    case sports
    /// Technology news.
    case technology
}
