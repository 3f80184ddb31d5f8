public import CombineSchedulers
public import Foundation
public import Observation
public import Tributary

/// The state of an articles screen: a NewsAPI feed, a search box, a list that pages, and an
/// alert. An RSS or Atom feed has its own screen, ``FeedViewModel``.
///
/// Inputs are plain properties of an `@Observable` model, read into one Combine pipeline made in
/// `init` through `Tributary.Observed`, and outputs follow them:
/// typing is debounced, repeated searches and queries still being written (ending in `OR`, an
/// open quotation mark or parenthesis) are ignored, and only the latest request's answer
/// lands; an older response that arrives late is dropped. The articles always belong to the
/// selection shown: a new feed or search empties them while it loads, so its own list, empty
/// state or failure follows, never the previous one's; a refresh of the same selection keeps
/// them, as ``isRefreshing`` says. Outputs change on the injected scheduler, the main queue
/// unless a test passes a virtual-time one.
///
/// ```swift
/// let model = ArticlesViewModel(feed: .category(.technology, country: "us"), client: news)
/// model.searchText = "swift"   // searched 300 ms after the typing stops
/// model.loadMore()             // appends the next page
/// ```
@MainActor
@Observable
public final class ArticlesViewModel {
    /// What the screen lists.
    public enum Feed: Hashable, Sendable {
        /// The top headlines of a country.
        case topHeadlines(country: String)
        /// The top headlines of a category in a country.
        case category(NewsCategory, country: String)
        /// The latest from one source.
        case source(id: String)
        /// Every article matching the search text; nothing while the search text is blank.
        case search
    }

    /// Where a page comes from.
    public enum Origin: Hashable, Sendable {
        /// A NewsAPI endpoint, without paging.
        case newsAPI(NewsEndpoint)
    }

    /// One page asked for.
    public struct PageRequest: Hashable, Sendable {
        /// Where the page comes from.
        public var origin: Origin
        /// The page, from 1.
        public var page: Int
        /// Tells a refresh from the request it repeats.
        let serial: Int

        /// The request in a few words, as its lane shows it: `page 2 of /v2/everything?q=swift`.
        public var summary: String {
            switch origin {
            case .newsAPI(let endpoint):
                let query = endpoint.queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
                return "page \(page) of \(endpoint.path)\(query.isEmpty ? "" : "?" + query)"
            }
        }

        /// The NewsAPI endpoint the page comes from.
        public var endpoint: NewsEndpoint? {
            switch origin {
            case .newsAPI(let endpoint): endpoint
            }
        }
    }

    /// The feed shown. Input.
    public var feed: Feed
    /// The search box; narrows any feed, and is the query of ``Feed/search``. Input.
    public var searchText: String
    /// The articles of every page loaded so far, without repeats. Output.
    public private(set) var articles: [Article] = []
    /// The latest request and how it went. Output.
    public private(set) var state: Loadable<PageRequest, ArticlesPage, NewsError> = .idle
    /// A message for an alert after a failure, until it is set back to nil. Output.
    public var errorMessage: String?
    /// How many articles match in all, as the server last said.
    public private(set) var totalResults = 0

    /// Why the search text is not searched yet, while it is still being written or cannot be
    /// searched; nil when it is searched as it stands.
    public var queryIssue: NewsQuery.Issue? {
        NewsQuery.issue(in: searchText)
    }

    /// Whether the first page of the selection whose articles are shown is loading again.
    public var isRefreshing: Bool {
        guard let request = state.request else { return false }
        return request.page == 1 && !articles.isEmpty
    }

    /// Whether a further page of the articles shown is loading.
    public var isLoadingMore: Bool {
        (state.request?.page ?? 1) > 1
    }

    /// Whether there is a next page to load and nothing is loading.
    public var canLoadMore: Bool {
        current != nil && !state.isLoading && articles.count + skipped < totalResults
    }

    @ObservationIgnored private let pageSize: Int
    @ObservationIgnored private let requests = PassthroughSubject<PageRequest?, Never>()
    @ObservationIgnored private var current: PageRequest?
    @ObservationIgnored private var serial = 0
    @ObservationIgnored private var skipped = 0
    @ObservationIgnored private var subscriptions: Set<AnyCancellable> = []

    /// Creates the model and its subscription.
    ///
    /// - Parameters:
    ///   - feed: The feed to show first.
    ///   - searchText: The search box's first text.
    ///   - client: Where the articles come from.
    ///   - scheduler: Where debouncing waits and outputs change; the main queue by default.
    ///   - pageSize: Articles on a page.
    ///   - debounce: How long typing must pause before a search is sent.
    public init(
        feed: Feed = .topHeadlines(country: "us"),
        searchText: String = "",
        client: NewsClient,
        scheduler: AnySchedulerOf<DispatchQueue> = .main,
        pageSize: Int = 20,
        debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(300)
    ) {
        self.feed = feed
        self.searchText = searchText
        self.pageSize = pageSize

        // Lanes, recorded only when the app sets `Lanes.recorder`: each request, and each
        // fetch as a subscription that ends loaded, failed, or cancelled by a newer request.
        requests
            .lane("request", describe: { $0.map(\.summary) ?? "nothing to ask" })
            .loadLatest { request in
                Self.publisher(for: request, client: client)
                    .lane("response", describe: { "\($0.articles.count) of \($0.totalResults) articles" })
                    .receive(on: scheduler)
            }
            .sink { [weak self] state in self?.apply(state) }
            .store(in: &subscriptions)

        // A query still being written leaves the last finished one searched.
        let query = Observed(on: scheduler) { [weak self] in self?.searchText ?? "" }
            .lane("typed", describe: { $0 })
            .settledText(startingWith: searchText, pause: debounce, scheduler: scheduler)
            .scan("") { finished, text in NewsQuery.issue(in: text)?.isUnfinished == true ? finished : text }
            .lane("query", describe: { $0 })
        Observed(on: scheduler) { [weak self] in self?.feed }
            .compactMap { $0 }
            .combineLatest(query)
            .map { [pageSize] feed, query in Self.origin(feed, query: query, pageSize: pageSize) }
            .removeDuplicates()
            .sink { [weak self] origin in
                guard let self else { return }
                if let origin {
                    load(origin, page: 1)
                } else {
                    current = nil
                    requests.send(nil)
                }
            }
            .store(in: &subscriptions)
    }

    /// Fetches the next page and appends it, when there is one and nothing is loading.
    public func loadMore() {
        guard canLoadMore, let current else { return }
        load(current.origin, page: current.page + 1)
    }

    /// Fetches the first page of the current feed again.
    public func refresh() {
        guard let current else { return }
        load(current.origin, page: 1)
    }

    /// Where the page for `feed` and `query` comes from, or nil when there is nothing to ask.
    nonisolated static func origin(_ feed: Feed, query: String, pageSize: Int) -> Origin? {
        endpoint(feed, query: query, pageSize: pageSize).map(Origin.newsAPI)
    }

    nonisolated private static func endpoint(_ feed: Feed, query: String, pageSize: Int) -> NewsEndpoint? {
        let query = query.isEmpty ? nil : query
        let paging = NewsEndpoint.Paging(pageSize: pageSize)
        switch feed {
        case .topHeadlines(let country):
            return .topHeadlines(country: country, query: query, paging: paging)
        case .category(let category, let country):
            return .topHeadlines(country: country, category: category, query: query, paging: paging)
        case .source(let id):
            return .topHeadlines(.init(sources: [id], query: query, paging: paging))
        case .search:
            return query.map { .everything(query: $0, paging: paging) }
        }
    }

    nonisolated private static func publisher(
        for request: PageRequest,
        client: NewsClient
    ) -> AnyPublisher<ArticlesPage, NewsError> {
        switch request.origin {
        case .newsAPI(let endpoint):
            client.articlesPublisher(endpoint.page(request.page))
        }
    }

    private func load(_ origin: Origin, page: Int) {
        serial += 1
        requests.send(PageRequest(origin: origin, page: page, serial: serial))
    }

    private func apply(_ update: Loadable<PageRequest, ArticlesPage, NewsError>) {
        switch update {
        case .loading(let request):
            if request.page == 1, request.origin != current?.origin { clear() }
            current = request
        case .loaded(let page):
            if current?.page == 1 {
                articles = page.articles
                skipped = 0
            } else {
                let known = Set(articles.map(\.id))
                articles += page.articles.filter { !known.contains($0.id) }
            }
            skipped += page.skippedCount + page.removedCount
            totalResults = page.totalResults
            errorMessage = nil
        case .failed(let error):
            if !error.isCancellation { errorMessage = error.alertMessage }
        case .idle:
            clear()
        }
        state = update
    }

    /// Forgets the articles of the selection that was shown.
    private func clear() {
        if !articles.isEmpty { articles = [] }
        totalResults = 0
        skipped = 0
        errorMessage = nil
    }
}
