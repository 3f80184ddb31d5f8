public import CombineSchedulers
public import Foundation
import HTTPTypes
public import Observation
public import Tributary
public import TributaryHTTP

/// The state of a movies screen: a list or a search as you type, paging, genres by name, and an
/// alert.
///
/// Typing is debounced, blank and repeated searches are ignored (a blank search shows the
/// list), and only the latest request's answer lands: an older search answered late never
/// shows. Outputs change on the injected scheduler, the main queue unless a test passes a
/// virtual-time one.
///
/// ```swift
/// let model = MoviesViewModel(client: tmdb)
/// model.searchText = "blade runner"   // searched 300 ms after the typing stops
/// model.genreNames(of: model.movies[0])   // ["Science Fiction", "Drama"]
/// ```
@MainActor
@Observable
public final class MoviesViewModel {
    /// What a page comes from.
    public enum Source: Hashable, Sendable {
        /// A movie list, shown while the search is blank.
        case list(MovieList)
        /// A search for the text typed.
        case search(String)
    }

    /// One page asked for.
    public struct PageRequest: Hashable, Sendable {
        /// What the page comes from.
        public var source: Source
        /// The page, from 1.
        public var page: Int
    }

    /// The list shown while the search is blank. Input.
    public var list: MovieList
    /// The search box. Input.
    public var searchText: String
    /// The movies of every page loaded so far, without repeats. Output.
    public private(set) var movies: [Movie] = []
    /// The latest request and how it went. Output.
    public private(set) var state: Loadable<PageRequest, TMDbPage<Movie>, APIError> = .idle
    /// Genre names by id, once TMDb has given them. Output.
    public private(set) var genres: [Int: String] = [:]
    /// A message for an alert after a failure, until it is set back to nil. Output.
    public var errorMessage: String?

    /// Whether there is a next page and nothing is loading.
    public var canLoadMore: Bool { !state.isLoading && (lastPage?.hasMore ?? false) }

    @ObservationIgnored private let requests = PassthroughSubject<PageRequest?, Never>()
    @ObservationIgnored private var current: Source?
    @ObservationIgnored private var lastPage: TMDbPage<Movie>?
    @ObservationIgnored private var subscriptions: Set<AnyCancellable> = []

    /// Creates the model and its subscriptions.
    ///
    /// - Parameters:
    ///   - list: The list to show first.
    ///   - client: Where the movies come from.
    ///   - scheduler: Where debouncing waits and outputs change; the main queue by default.
    ///   - debounce: How long typing must pause before a search is sent.
    public init(
        list: MovieList = .popular,
        client: TMDbClient,
        scheduler: AnySchedulerOf<DispatchQueue> = .main,
        debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(300)
    ) {
        self.list = list
        searchText = ""
        requests
            .loadLatest { request in
                Self.publisher(for: request, client: client).receive(on: scheduler)
            }
            .sink { [weak self] state in self?.apply(state) }
            .store(in: &subscriptions)
        // Made off the main actor: the answer arrives on the transport's thread.
        client.publisher(TMDbEndpoint.genres(locale: client.locale))
            .map(Self.names)
            .replaceError(with: [:])
            .receive(on: scheduler)
            .sink { [weak self] names in self?.genres = names }
            .store(in: &subscriptions)
        let query = Observed(on: scheduler) { [weak self] in self?.searchText ?? "" }
            .settledText(startingWith: "", pause: debounce, scheduler: scheduler)
        Observed(on: scheduler) { [weak self] in self?.list }
            .compactMap { $0 }
            .combineLatest(query)
            .map { list, query in query.isEmpty ? Source.list(list) : .search(query) }
            .removeDuplicates()
            .sink { [weak self] source in self?.load(source, page: 1) }
            .store(in: &subscriptions)
    }

    nonisolated private static func names(_ list: GenreList) -> [Int: String] {
        Dictionary(list.genres.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// The names of `movie`'s genres, in TMDb's order.
    public func genreNames(of movie: Movie) -> [String] {
        movie.genreIDs.compactMap { genres[$0] }
    }

    /// Fetches the next page and appends it, when there is one and nothing is loading.
    public func loadMore() {
        guard canLoadMore, let current, let lastPage else { return }
        load(current, page: lastPage.page + 1)
    }

    nonisolated private static func publisher(
        for request: PageRequest,
        client: TMDbClient
    ) -> AnyPublisher<TMDbPage<Movie>, APIError> {
        switch request.source {
        case .list(let list):
            client.publisher(TMDbEndpoint.movies(list, page: request.page, locale: client.locale))
        case .search(let text):
            client.publisher(TMDbEndpoint.search(text, page: request.page, locale: client.locale))
        }
    }

    private func load(_ source: Source, page: Int) {
        if page == 1 {
            movies = []
            lastPage = nil
        }
        current = source
        requests.send(PageRequest(source: source, page: page))
    }

    private func apply(_ update: Loadable<PageRequest, TMDbPage<Movie>, APIError>) {
        switch update {
        case .loaded(let page):
            let known = Set(movies.map(\.id))
            movies += page.results.filter { !known.contains($0.id) }
            lastPage = page
            errorMessage = nil
        case .failed(let error):
            if case .cancelled = error.kind {} else { errorMessage = Self.message(for: error) }
        case .loading, .idle:
            break
        }
        state = update
    }

    /// One sentence for an alert: TMDb's own message when it sent one.
    nonisolated static func message(for error: APIError) -> String {
        if let message = error.serverError?.message { return message }
        switch error.kind {
        case .transport, .addressNotAllowed: return "TMDb cannot be reached. Check your connection."
        case .timedOut: return "TMDb took too long to answer."
        case .unacceptableStatus(let response, _, _):
            return "TMDb answered with an error (HTTP \(response.status.code))."
        case .undecodable, .bodyTooLarge: return "TMDb sent something this app cannot read."
        case .invalidRequest(let reason): return "This request cannot be made: \(reason)."
        case .cancelled, .rejected: return "The request was stopped before it was answered."
        }
    }
}
