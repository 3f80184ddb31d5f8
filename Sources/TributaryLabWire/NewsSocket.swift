public import Foundation

/// The messages of the news reader's socket, `GET /api/news/live`: the page's inputs, and the
/// whole state of its lists each time one changes.
///
/// ```json
/// {"type":"input","feed":{"kind":"category","category":"science","country":"gb"},"searchText":"","seq":4}
/// {"type":"articles","seq":4,"state":"loaded","articles":[…],"canLoadMore":true,…}
/// ```
///
/// Each state carries the `seq` of the last input applied, so that a page can leave aside a
/// state that was made before its latest choice.
public enum NewsSocket {
    /// What a page sends: `input`, `loadMore`, `refresh`, `sources` or `refreshSources`.
    public struct Input: Sendable, Hashable, Codable {
        /// What to read: `kind` is `top`, `category`, `search`, `source` or `feed`, with the
        /// field it needs.
        public struct Feed: Sendable, Hashable, Codable {
            public var kind: String
            public var country: String?
            public var category: String?
            /// A source's id, for `source`.
            public var id: String?
            /// An RSS or Atom feed's address, for `feed`.
            public var url: String?

            public init(
                kind: String,
                country: String? = nil,
                category: String? = nil,
                id: String? = nil,
                url: String? = nil
            ) {
                self.kind = kind
                self.country = country
                self.category = category
                self.id = id
                self.url = url
            }
        }

        public var type: String
        public var feed: Feed?
        public var searchText: String?
        /// For `sources`: the country and category to list.
        public var country: String?
        public var category: String?
        /// The input's number, which the state it leads to carries back.
        public var seq: Int?

        public init(
            type: String,
            feed: Feed? = nil,
            searchText: String? = nil,
            country: String? = nil,
            category: String? = nil,
            seq: Int? = nil
        ) {
            self.type = type
            self.feed = feed
            self.searchText = searchText
            self.country = country
            self.category = category
            self.seq = seq
        }
    }

    /// What the pickers offer, sent once: the countries the news server's sources are in, and
    /// feeds to start from.
    public struct Choices: Sendable, Hashable, Codable {
        public var type = "choices"
        public var countries: [String]
        public var feeds: [String]

        public init(countries: [String], feeds: [String]) {
            self.countries = countries
            self.feeds = feeds
        }
    }

    /// An article, or a feed's entry, which may have no title, link or date.
    public struct Article: Sendable, Hashable, Codable {
        /// Nil for a feed's entry without a title, which a page marks as untitled.
        public var title: String?
        public var url: String?
        public var source: String
        public var author: String?
        public var publishedAt: Date?
        public var description: String?
        /// The picture's thumbnail, on the lab.
        public var image: String?

        public init(
            title: String?,
            url: String?,
            source: String,
            author: String?,
            publishedAt: Date?,
            description: String?,
            image: String?
        ) {
            self.title = title
            self.url = url
            self.source = source
            self.author = author
            self.publishedAt = publishedAt
            self.description = description
            self.image = image
        }
    }

    /// The list of articles as it is now.
    public struct Articles: Sendable, Hashable, Codable {
        public var type = "articles"
        public var seq: Int
        /// `idle`, `loading`, `loaded` or `failed`.
        public var state: String
        public var refreshing: Bool
        public var loadingMore: Bool
        public var searchText: String
        /// A search typed but not yet answered.
        public var unfinishedQuery: String?
        public var articles: [Article]
        /// Why the list failed, said for a person.
        public var error: String?
        public var canLoadMore: Bool
        public var totalResults: Int

        public init(
            seq: Int,
            state: String,
            refreshing: Bool,
            loadingMore: Bool,
            searchText: String,
            unfinishedQuery: String?,
            articles: [Article],
            error: String?,
            canLoadMore: Bool,
            totalResults: Int
        ) {
            self.seq = seq
            self.state = state
            self.refreshing = refreshing
            self.loadingMore = loadingMore
            self.searchText = searchText
            self.unfinishedQuery = unfinishedQuery
            self.articles = articles
            self.error = error
            self.canLoadMore = canLoadMore
            self.totalResults = totalResults
        }
    }

    /// A news source.
    public struct Source: Sendable, Hashable, Codable {
        public var id: String
        public var name: String
        public var description: String?
        public var category: String?
        public var country: String?

        public init(id: String, name: String, description: String?, category: String?, country: String?) {
            self.id = id
            self.name = name
            self.description = description
            self.category = category
            self.country = country
        }
    }

    /// The list of sources as it is now.
    public struct Sources: Sendable, Hashable, Codable {
        public var type = "sources"
        public var seq: Int
        public var state: String
        public var sources: [Source]
        public var error: String?

        public init(seq: Int, state: String, sources: [Source], error: String?) {
            self.seq = seq
            self.state = state
            self.sources = sources
            self.error = error
        }
    }
}
