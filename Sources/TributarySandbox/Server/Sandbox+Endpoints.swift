import Foundation
import NewsAPI
import TributaryHTTP

extension Sandbox {
    /// The languages NewsAPI knows.
    static let languages: Set<String> = [
        "ar", "de", "en", "es", "fr", "he", "it", "nl", "no", "pt", "ru", "sv", "ud", "zh",
    ]

    func topHeadlines(_ request: SandboxRequest) throws(Refusal) -> SandboxResponse {
        let parameters = Parameters(request)
        let country = parameters.text("country")?.lowercased()
        // The combination is refused before any source is looked up, as NewsAPI does.
        if !parameters.list("sources").isEmpty, country != nil || parameters.text("category") != nil {
            throw Refusal(
                status: 400,
                code: "parametersIncompatible",
                message: "You cannot mix the sources parameter with the country or category parameters."
            )
        }
        let sources = try parameters.sources(in: dataset)
        let category = try parameters.category()
        let query = try parameters.searchQuery()
        if sources.isEmpty, country == nil, category == nil, query == nil {
            throw Refusal.missing("sources, q, country, category")
        }
        if let country, country.count != 2 || !country.allSatisfy(\.isLetter) {
            throw Refusal.invalid("country", country, "a two-letter ISO 3166-1 code such as us")
        }
        let paging = try parameters.paging(defaultSize: 20, developerPlan: configuration.developerPlan)
        let matches = dataset.articles.filter { article in
            if let query, !query.matches(NewsEndpoint.SearchField.allCases.map { article.words[$0]! }) {
                return false
            }
            guard country != nil || category != nil || !sources.isEmpty else { return true }
            guard let source = article.sourceIndex else { return false }
            if !sources.isEmpty { return sources.contains(source) }
            return (country.map { $0 == dataset.sources[source].country } ?? true)
                && (category.map { $0 == dataset.sources[source].category } ?? true)
        }
        return page(of: matches, paging, origin: request.origin)
    }

    func everything(_ request: SandboxRequest) throws(Refusal) -> SandboxResponse {
        let parameters = Parameters(request)
        let query = try parameters.searchQuery()
        let sources = try parameters.sources(in: dataset)
        let domains = parameters.list("domains").map(Self.bareDomain)
        let excluded = parameters.list("excludeDomains").map(Self.bareDomain)
        guard query != nil || !sources.isEmpty || !domains.isEmpty else {
            throw Refusal.missing("q, qInTitle, sources, domains")
        }
        var fields: [NewsEndpoint.SearchField] = []
        for name in parameters.list("searchIn") {
            guard let field = NewsEndpoint.SearchField(rawValue: name) else {
                throw Refusal.invalid(
                    "searchIn",
                    name,
                    "a comma-separated list of title, description, content"
                )
            }
            fields.append(field)
        }
        if fields.isEmpty { fields = NewsEndpoint.SearchField.allCases }
        let from = try parameters.date("from", endOfDay: false)
        let to = try parameters.date("to", endOfDay: true)
        let language = parameters.text("language")
        if let language, !Self.languages.contains(language) {
            throw Refusal.invalid(
                "language",
                language,
                "one of \(Self.languages.sorted().joined(separator: ", "))"
            )
        }
        let sort = try parameters.text("sortBy").map { (name: String) throws(Refusal) in
            guard let sort = NewsEndpoint.SortOrder(rawValue: name) else {
                throw Refusal.invalid("sortBy", name, "relevancy, popularity or publishedAt")
            }
            return sort
        }
        let paging = try parameters.paging(defaultSize: 100, developerPlan: configuration.developerPlan)
        var scored: [(article: Dataset.Article, score: Int)] = []
        for article in dataset.articles {
            if !sources.isEmpty, !(article.sourceIndex.map(sources.contains) ?? false) { continue }
            if !domains.isEmpty, !domains.contains(where: { Self.domain(article.domain, isIn: $0) }) {
                continue
            }
            if excluded.contains(where: { Self.domain(article.domain, isIn: $0) }) { continue }
            if let from, article.publishedAt < from { continue }
            if let to, article.publishedAt > to { continue }
            if let language, article.sourceIndex.map({ dataset.sources[$0].language }) ?? "en" != language {
                continue
            }
            var score = 0
            if let query {
                let words = fields.map { article.words[$0]! }
                guard query.matches(words) else { continue }
                if sort == .relevancy {
                    score = query.score(fields.map { (article.words[$0]!, $0 == .title ? 3 : 1) })
                }
            }
            scored.append((article, score))
        }
        switch sort {
        case .relevancy: scored.sort { $0.score > $1.score }
        case .popularity: scored.sort { $0.article.popularity > $1.article.popularity }
        case .publishedAt, nil: break
        }
        return page(of: scored.map(\.article), paging, origin: request.origin)
    }

    func sources(_ request: SandboxRequest) throws(Refusal) -> SandboxResponse {
        let parameters = Parameters(request)
        let category = try parameters.category()
        let language = parameters.text("language")
        let country = parameters.text("country")?.lowercased()
        let sources = dataset.sources.filter { source in
            (category.map { $0 == source.category } ?? true)
                && (language.map { $0 == source.language } ?? true)
                && (country.map { $0 == source.country } ?? true)
        }
        return .json(
            SourcesBody(
                sources: sources.map { source in
                    NewsSource(
                        id: source.id,
                        name: source.name,
                        description: source.description,
                        url: URL(string: "https://\(source.domain)"),
                        category: source.category.rawValue,
                        language: source.language,
                        country: source.country
                    )
                }
            )
        )
    }

    private func page(
        of articles: [Dataset.Article],
        _ paging: (page: Int, size: Int),
        origin: String
    )
        -> SandboxResponse
    {
        let start = min((paging.page - 1) * paging.size, articles.count)
        let end = min(start + paging.size, articles.count)
        return .json(
            ArticlesBody(
                totalResults: articles.count,
                articles: articles[start..<end].map { WireArticle($0, in: dataset, origin: origin) }
            )
        )
    }

    static func bareDomain(_ domain: String) -> String {
        let lowered = domain.lowercased()
        return lowered.hasPrefix("www.") ? String(lowered.dropFirst(4)) : lowered
    }

    static func domain(_ domain: String, isIn wanted: String) -> Bool {
        let domain = bareDomain(domain)
        return domain == wanted || domain.hasSuffix("." + wanted)
    }
}

extension Sandbox.Refusal {
    static func missing(_ names: String) -> Self {
        Self(
            status: 400,
            code: "parametersMissing",
            message:
                "Required parameters are missing. Please set any of the following parameters and try again: \(names)."
        )
    }

    static func invalid(_ name: String, _ value: String, _ expected: String) -> Self {
        Self(
            status: 400,
            code: "parameterInvalid",
            message: "The \(name) parameter \"\(value)\" is invalid: it should be \(expected)."
        )
    }
}

/// Reads and checks the query parameters of one request.
private struct Parameters {
    let request: SandboxRequest

    init(_ request: SandboxRequest) { self.request = request }

    func text(_ name: String) -> String? {
        guard let value = request.query[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        return value
    }

    func list(_ name: String) -> [String] {
        (text(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    func category() throws(Sandbox.Refusal) -> NewsCategory? {
        guard let name = text("category") else { return nil }
        guard let category = NewsCategory(rawValue: name.lowercased()) else {
            throw .invalid(
                "category",
                name,
                "one of \(NewsCategory.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return category
    }

    func searchQuery() throws(Sandbox.Refusal) -> SearchQuery? {
        guard let text = text("q") else { return nil }
        guard text.count <= NewsEndpoint.maximumQueryLength else {
            throw .invalid("q", String(text.prefix(20)) + "…", "at most 500 characters long")
        }
        do {
            return try SearchQuery(text)
        } catch {
            throw Sandbox.Refusal(
                status: 400,
                code: "parameterInvalid",
                message: "The q parameter: \(error)"
            )
        }
    }

    /// Indexes of the named sources.
    func sources(in dataset: Dataset) throws(Sandbox.Refusal) -> Set<Int> {
        let ids = list("sources")
        guard ids.count <= NewsEndpoint.maximumSources else {
            throw Sandbox.Refusal(
                status: 400,
                code: "sourcesTooMany",
                message:
                    "You have requested too many sources in a single request. Try splitting the request into 2 smaller requests."
            )
        }
        var indexes = Set<Int>()
        for id in ids {
            guard let index = dataset.sourceIndex[id] else {
                throw Sandbox.Refusal(
                    status: 400,
                    code: "sourceDoesNotExist",
                    message: "You have requested a source which does not exist: \(id)."
                )
            }
            indexes.insert(index)
        }
        return indexes
    }

    func date(_ name: String, endOfDay: Bool) throws(Sandbox.Refusal) -> Date? {
        guard let text = text(name) else { return nil }
        guard let date = ISO8601Date.parse(text) else {
            throw .invalid(name, text, "an ISO 8601 date or date and time such as 2026-01-15T12:00:00")
        }
        // A day alone includes all of it at the end of a range.
        return endOfDay && text.count == 10 ? date.addingTimeInterval(86_400 - 0.001) : date
    }

    func paging(defaultSize: Int, developerPlan: Bool) throws(Sandbox.Refusal) -> (page: Int, size: Int) {
        func number(
            _ name: String,
            default value: Int,
            in range: ClosedRange<Int>
        ) throws(Sandbox.Refusal) -> Int {
            guard let text = text(name) else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw .invalid(name, text, "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        let size = try number("pageSize", default: defaultSize, in: 1...NewsEndpoint.maximumPageSize)
        let page = try number("page", default: 1, in: 1...1_000_000)
        if developerPlan, page * size > 100 {
            throw Sandbox.Refusal(
                status: 426,
                code: "maximumResultsReached",
                message:
                    "You have requested too many results. Developer accounts are limited to a max of 100 results. You are trying to request results \((page - 1) * size) to \(page * size). Please upgrade to a paid plan if you need more results."
            )
        }
        return (page, size)
    }
}

private struct ArticlesBody: Encodable {
    var status = "ok"
    var totalResults: Int
    var articles: [WireArticle]
}

private struct SourcesBody: Encodable {
    var status = "ok"
    var sources: [NewsSource]
}

/// An article as NewsAPI writes it: every field present, null where unknown.
private struct WireArticle: Encodable {
    var sourceID: String?
    var sourceName: String
    var author: String?
    var title: String
    var description: String?
    var url: String
    var urlToImage: String?
    var publishedAt: String
    var content: String?

    init(_ article: Dataset.Article, in dataset: Dataset, origin: String) {
        sourceID = article.isRemoved ? nil : dataset.source(of: article)?.id
        sourceName = article.sourceName
        author = article.author
        title = article.title
        description = article.description
        url = article.url
        urlToImage = article.imagePath.map { origin + $0 }
        publishedAt = article.publishedAtText
        content = article.content
    }

    enum CodingKeys: String, CodingKey {
        case source, author, title, description, url, urlToImage, publishedAt, content
    }

    enum SourceKeys: String, CodingKey {
        case id, name
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var source = container.nestedContainer(keyedBy: SourceKeys.self, forKey: .source)
        try source.encode(sourceID, forKey: .id)
        try source.encode(sourceName, forKey: .name)
        try container.encode(author, forKey: .author)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(url, forKey: .url)
        try container.encode(urlToImage, forKey: .urlToImage)
        try container.encode(publishedAt, forKey: .publishedAt)
        try container.encode(content, forKey: .content)
    }
}
