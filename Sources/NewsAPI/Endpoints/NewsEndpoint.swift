public import Foundation

/// The three NewsAPI endpoints with their parameters.
///
/// ```swift
/// let headlines = NewsEndpoint.topHeadlines(country: "us", category: .technology)
/// let search = NewsEndpoint.everything(query: "\"swift concurrency\" -beta", sortBy: .relevancy)
/// ```
///
/// ``validate()`` checks NewsAPI's rules before anything is sent; ``NewsClient`` calls it.
public enum NewsEndpoint: Sendable, Hashable {
    /// `GET /v2/top-headlines`: breaking headlines by country, category, sources or query.
    case topHeadlines(TopHeadlines)
    /// `GET /v2/everything`: every article matching a search.
    case everything(Everything)
    /// `GET /v2/top-headlines/sources`: the publishers headlines come from.
    case sources(Sources)

    /// The parameters of top headlines.
    public struct TopHeadlines: Sendable, Hashable {
        /// A lowercase ISO 3166-1 country code.
        public var country: String?
        /// The category of the headlines.
        public var category: NewsCategory?
        /// Source ids; not allowed with a country or category.
        public var sources: [String]
        /// Keywords or a phrase to search for.
        public var query: String?
        /// Which page of headlines, and how many on a page.
        public var paging: Paging

        /// Creates the parameters of top headlines.
        ///
        /// - Parameters:
        ///   - country: A lowercase ISO 3166-1 country code.
        ///   - category: The category of the headlines.
        ///   - sources: Source ids; not allowed with a country or category.
        ///   - query: Keywords or a phrase to search for.
        ///   - paging: Which page of headlines, and how many on a page.
        public init(
            country: String? = nil,
            category: NewsCategory? = nil,
            sources: [String] = [],
            query: String? = nil,
            paging: Paging = Paging()
        ) {
            self.country = country
            self.category = category
            self.sources = sources
            self.query = query
            self.paging = paging
        }
    }

    /// The parameters of everything.
    public struct Everything: Sendable, Hashable {
        /// The search, with NewsAPI's syntax: `"exact phrase"`, `+must`, `-mustNot`, AND / OR /
        /// NOT and parentheses.
        public var query: String?
        /// The fields the query is matched against; empty means all of them.
        public var searchIn: [SearchField]
        /// Source ids, at most 20.
        public var sources: [String]
        /// Domains to take articles from, such as `bbc.co.uk`.
        public var domains: [String]
        /// Domains to leave out.
        public var excludeDomains: [String]
        /// The oldest publication time.
        public var from: Date?
        /// The newest publication time.
        public var to: Date?
        /// An ISO 639-1 language code.
        public var language: String?
        /// The order of the results; nil leaves it to NewsAPI.
        public var sortBy: SortOrder?
        /// Which page of results, and how many on a page.
        public var paging: Paging

        /// Creates the parameters of a search of everything.
        ///
        /// - Parameters:
        ///   - query: The search, with NewsAPI's syntax.
        ///   - searchIn: The fields the query is matched against; empty means all of them.
        ///   - sources: Source ids, at most 20.
        ///   - domains: Domains to take articles from, such as `bbc.co.uk`.
        ///   - excludeDomains: Domains to leave out.
        ///   - from: The oldest publication time.
        ///   - to: The newest publication time.
        ///   - language: An ISO 639-1 language code.
        ///   - sortBy: The order of the results; nil leaves it to NewsAPI.
        ///   - paging: Which page of results, and how many on a page.
        public init(
            query: String? = nil,
            searchIn: [SearchField] = [],
            sources: [String] = [],
            domains: [String] = [],
            excludeDomains: [String] = [],
            from: Date? = nil,
            to: Date? = nil,
            language: String? = nil,
            sortBy: SortOrder? = nil,
            paging: Paging = Paging()
        ) {
            self.query = query
            self.searchIn = searchIn
            self.sources = sources
            self.domains = domains
            self.excludeDomains = excludeDomains
            self.from = from
            self.to = to
            self.language = language
            self.sortBy = sortBy
            self.paging = paging
        }
    }

    /// The parameters of sources.
    public struct Sources: Sendable, Hashable {
        /// Only sources of this country: a lowercase ISO 3166-1 code.
        public var country: String?
        /// Only sources of this category.
        public var category: NewsCategory?
        /// Only sources in this language: an ISO 639-1 code.
        public var language: String?

        /// Creates the parameters of sources; what is nil does not narrow the list.
        ///
        /// - Parameters:
        ///   - country: Only sources of this country: a lowercase ISO 3166-1 code.
        ///   - category: Only sources of this category.
        ///   - language: Only sources in this language: an ISO 639-1 code.
        public init(country: String? = nil, category: NewsCategory? = nil, language: String? = nil) {
            self.country = country
            self.category = category
            self.language = language
        }
    }

    /// Which page of results, and how many on a page.
    public struct Paging: Sendable, Hashable {
        /// The page, from 1.
        public var page: Int?
        /// Results on a page, 1 to 100.
        public var pageSize: Int?

        /// Creates paging; what is nil is not sent, so NewsAPI's default applies.
        ///
        /// - Parameters:
        ///   - page: The page, from 1.
        ///   - pageSize: Results on a page, 1 to 100.
        public init(page: Int? = nil, pageSize: Int? = nil) {
            self.page = page
            self.pageSize = pageSize
        }
    }

    /// A field of an article that everything can search.
    public enum SearchField: String, Sendable, Hashable, CaseIterable {
        /// The headline.
        case title
        /// The short summary.
        case description
        /// The beginning of the text.
        case content
    }

    /// The order of everything's results.
    public enum SortOrder: String, Sendable, Hashable, CaseIterable {
        /// Articles closest to the query first.
        case relevancy
        /// Articles from the most popular sources first.
        case popularity
        /// The newest articles first.
        case publishedAt
    }

    /// Top headlines for a country, a category, or both.
    public static func topHeadlines(
        country: String? = nil,
        category: NewsCategory? = nil,
        query: String? = nil,
        paging: Paging = Paging()
    ) -> NewsEndpoint {
        .topHeadlines(TopHeadlines(country: country, category: category, query: query, paging: paging))
    }

    /// Top headlines from the given sources.
    public static func topHeadlines(sources: [String], paging: Paging = Paging()) -> NewsEndpoint {
        .topHeadlines(TopHeadlines(sources: sources, paging: paging))
    }

    /// Every article matching `query`.
    public static func everything(
        query: String,
        searchIn: [SearchField] = [],
        sortBy: SortOrder? = nil,
        paging: Paging = Paging()
    ) -> NewsEndpoint {
        .everything(Everything(query: query, searchIn: searchIn, sortBy: sortBy, paging: paging))
    }

    /// The endpoint's path below the base URL.
    public var path: String {
        switch self {
        case .topHeadlines: "top-headlines"
        case .everything: "everything"
        case .sources: "top-headlines/sources"
        }
    }

    /// The paging of an articles endpoint; nil for sources.
    public var paging: Paging? {
        get {
            switch self {
            case .topHeadlines(let query): query.paging
            case .everything(let query): query.paging
            case .sources: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .topHeadlines(var query):
                query.paging = newValue
                self = .topHeadlines(query)
            case .everything(var query):
                query.paging = newValue
                self = .everything(query)
            case .sources:
                break
            }
        }
    }

    /// The same endpoint asking for `page`.
    public func page(_ page: Int) -> NewsEndpoint {
        var copy = self
        copy.paging?.page = page
        return copy
    }

    /// The query items, in a stable order, without empty parameters.
    public var queryItems: [URLQueryItem] {
        var items = QueryItems()
        switch self {
        case .topHeadlines(let query):
            items.add("country", query.country)
            items.add("category", query.category?.rawValue)
            items.add("sources", query.sources)
            items.add("q", query.query)
            items.add(query.paging)
        case .everything(let query):
            items.add("q", query.query)
            items.add("searchIn", query.searchIn.map(\.rawValue))
            items.add("sources", query.sources)
            items.add("domains", query.domains)
            items.add("excludeDomains", query.excludeDomains)
            items.add("from", query.from.map(Article.timestamp))
            items.add("to", query.to.map(Article.timestamp))
            items.add("language", query.language)
            items.add("sortBy", query.sortBy?.rawValue)
            items.add(query.paging)
        case .sources(let query):
            items.add("country", query.country)
            items.add("category", query.category?.rawValue)
            items.add("language", query.language)
        }
        return items.items
    }

    /// NewsAPI's longest query.
    public static let maximumQueryLength = 500
    /// The most sources one request may name.
    public static let maximumSources = 20
    /// The largest page.
    public static let maximumPageSize = 100

    /// Checks NewsAPI's rules, throwing ``NewsError/Kind/invalidRequest(reason:)`` with the
    /// first one broken.
    public func validate() throws(NewsError) {
        func invalid(_ reason: String) -> NewsError { NewsError(.invalidRequest(reason: reason)) }
        func check(query: String?, sources: [String], paging: Paging) throws(NewsError) {
            if let query, query.count > Self.maximumQueryLength {
                throw invalid(
                    "the query is \(query.count) characters long and the limit is \(Self.maximumQueryLength)"
                )
            }
            if let query, let issue = NewsQuery.issue(in: query) {
                throw invalid(issue.reason)
            }
            if sources.count > Self.maximumSources {
                throw invalid("\(sources.count) sources were given and the limit is \(Self.maximumSources)")
            }
            if let size = paging.pageSize, !(1...Self.maximumPageSize).contains(size) {
                throw invalid("the page size must be from 1 to \(Self.maximumPageSize), not \(size)")
            }
            if let page = paging.page, page < 1 {
                throw invalid("pages are numbered from 1, not \(page)")
            }
        }
        switch self {
        case .topHeadlines(let query):
            try check(query: query.query, sources: query.sources, paging: query.paging)
            if !query.sources.isEmpty, query.country != nil || query.category != nil {
                throw invalid("sources cannot be mixed with a country or a category")
            }
            if query.country.isBlank, query.category == nil, query.sources.isEmpty, query.query.isBlank {
                throw invalid("top headlines need a country, a category, sources or a query")
            }
        case .everything(let query):
            try check(query: query.query, sources: query.sources, paging: query.paging)
            if query.query.isBlank, query.sources.isEmpty, query.domains.isEmpty {
                throw invalid("a search of everything needs a query, sources or domains")
            }
            if let from = query.from, let to = query.to, from > to {
                throw invalid("the search starts after it ends")
            }
        case .sources:
            break
        }
    }
}

/// Query items that leave out what is not given.
private struct QueryItems {
    var items: [URLQueryItem] = []

    mutating func add(_ name: String, _ value: String?) {
        guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        items.append(URLQueryItem(name: name, value: value))
    }

    mutating func add(_ name: String, _ values: [String]) {
        add(name, values.isEmpty ? nil : values.joined(separator: ","))
    }

    mutating func add(_ paging: NewsEndpoint.Paging) {
        add("pageSize", paging.pageSize.map(String.init))
        add("page", paging.page.map(String.init))
    }
}

extension Optional<String> {
    var isBlank: Bool { self?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true }
}
