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
            /// What to read: `top`, `category`, `search`, `source` or `feed`.
            public var kind: String
            /// For `top` and `category`: a two-letter country code; the lab reads `us` when it is
            /// missing or malformed.
            public var country: String?
            /// For `category`: a NewsAPI category, such as `science`.
            public var category: String?
            /// A source's id, for `source`.
            public var id: String?
            /// An RSS or Atom feed's address, for `feed`.
            public var url: String?

            /// Makes a choice of what to read.
            ///
            /// - Parameters:
            ///   - kind: `top`, `category`, `search`, `source` or `feed`.
            ///   - country: For `top` and `category`, a two-letter country code.
            ///   - category: For `category`, a NewsAPI category.
            ///   - id: For `source`, the source's id.
            ///   - url: For `feed`, the RSS or Atom feed's address.
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

        /// The message's kind: `input`, `loadMore`, `refresh`, `sources` or `refreshSources`.
        public var type: String
        /// For `input`: what to read.
        public var feed: Feed?
        /// For `input` and `sources`: the text to search for; the lab keeps the first 500
        /// characters of an input's.
        public var searchText: String?
        /// For `sources`: the country and category to list.
        public var country: String?
        /// For `sources`: the NewsAPI category to list.
        public var category: String?
        /// The input's number, which the state it leads to carries back.
        public var seq: Int?

        /// Makes a message from a page.
        ///
        /// - Parameters:
        ///   - type: `input`, `loadMore`, `refresh`, `sources` or `refreshSources`.
        ///   - feed: For `input`, what to read.
        ///   - searchText: For `input` and `sources`, the text to search for.
        ///   - country: For `sources`, the country to list.
        ///   - category: For `sources`, the category to list.
        ///   - seq: The input's number, which the state it leads to carries back.
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
        /// The message's kind, always `choices`.
        public var type = "choices"
        /// The lowercase two-letter codes of the countries the sources are in, sorted.
        public var countries: [String]
        /// The addresses of RSS or Atom feeds to start from.
        public var feeds: [String]

        /// Makes the pickers' offer.
        public init(countries: [String], feeds: [String]) {
            self.countries = countries
            self.feeds = feeds
        }
    }

    /// An article, or a feed's entry, which may have no title, link or date.
    public struct Article: Sendable, Hashable, Codable {
        /// Nil for a feed's entry without a title, which a page marks as untitled.
        public var title: String?
        /// The article's address; nil for a feed's entry without a link.
        public var url: String?
        /// The name of the source, or of the feed, it comes from.
        public var source: String
        /// Who wrote it, when that is known.
        public var author: String?
        /// When it was published; nil for a feed's entry without a date.
        public var publishedAt: Date?
        /// A short summary of it.
        public var description: String?
        /// The picture's thumbnail, on the lab.
        public var image: String?

        /// Makes an article as a page shows it.
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
        /// The message's kind, always `articles`.
        public var type = "articles"
        /// The `seq` of the last `input` applied.
        public var seq: Int
        /// `idle`, `loading`, `loaded` or `failed`.
        public var state: String
        /// Whether the list shown is being loaded again.
        public var refreshing: Bool
        /// Whether a further page is loading.
        public var loadingMore: Bool
        /// The search text of the list shown.
        public var searchText: String
        /// A search typed but not yet answered.
        public var unfinishedQuery: String?
        /// The articles shown, in order.
        public var articles: [Article]
        /// Why the list failed, said for a person.
        public var error: String?
        /// Whether there is a further page to load and nothing is loading; always false for a feed.
        public var canLoadMore: Bool
        /// How many articles match in all, as the news server last said, or how many entries a
        /// feed has.
        public var totalResults: Int

        /// Makes the state of the list of articles.
        ///
        /// - Parameters:
        ///   - seq: The `seq` of the last `input` applied.
        ///   - state: `idle`, `loading`, `loaded` or `failed`.
        ///   - refreshing: Whether the list shown is being loaded again.
        ///   - loadingMore: Whether a further page is loading.
        ///   - searchText: The search text of the list shown.
        ///   - unfinishedQuery: A search typed but not yet answered.
        ///   - articles: The articles shown.
        ///   - error: Why the list failed, said for a person.
        ///   - canLoadMore: Whether there is a further page to load and nothing is loading.
        ///   - totalResults: How many articles match in all, or how many entries a feed has.
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
        /// The source's id, as a `source` feed names it.
        public var id: String
        /// The source's name.
        public var name: String
        /// What the news server says of the source.
        public var description: String?
        /// The source's NewsAPI category.
        public var category: String?
        /// The source's two-letter country code.
        public var country: String?

        /// Makes a news source.
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
        /// The message's kind, always `sources`.
        public var type = "sources"
        /// The `seq` of the last `sources` input applied.
        public var seq: Int
        /// `idle`, `loading`, `loaded` or `failed`.
        public var state: String
        /// The sources shown, in order.
        public var sources: [Source]
        /// Why the list failed, said for a person.
        public var error: String?

        /// Makes the state of the list of sources.
        ///
        /// - Parameters:
        ///   - seq: The `seq` of the last `sources` input applied.
        ///   - state: `idle`, `loading`, `loaded` or `failed`.
        ///   - sources: The sources shown.
        ///   - error: Why the list failed, said for a person.
        public init(seq: Int, state: String, sources: [Source], error: String?) {
            self.seq = seq
            self.state = state
            self.sources = sources
            self.error = error
        }
    }
}
