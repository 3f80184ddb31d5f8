public import CombineSchedulers
public import Foundation
public import Observation
public import Tributary

/// The state of a sources screen: country and category pickers, a filter box, and the list.
///
/// Changing the country or category fetches the sources again (only the latest answer
/// lands), and the list is empty until that answer comes, so a new choice never shows the
/// previous one's sources; ``refresh()`` asks again. The filter text narrows the list locally,
/// debounced. Outputs change on the injected scheduler, the main queue by default.
@MainActor
@Observable
public final class SourcesViewModel {
    /// The country whose sources are listed; nil for all. Input.
    public var country: String?
    /// The category whose sources are listed; nil for all. Input.
    public var category: NewsCategory?
    /// Narrows the list to sources whose name, id or description contain it. Input.
    public var searchText = ""
    /// The sources that pass the filter. Output.
    public private(set) var sources: [NewsSource] = []
    /// The latest fetch and how it went. Output.
    public private(set) var state: Loadable<NewsEndpoint.Sources, [NewsSource], NewsError> = .idle
    /// A message for an alert after a failure, until it is set back to nil. Output.
    public var errorMessage: String?

    @ObservationIgnored private let client: NewsClient
    @ObservationIgnored private let scheduler: AnySchedulerOf<DispatchQueue>
    @ObservationIgnored private let refreshes = PassthroughSubject<Void, Never>()
    /// The sources of the latest state, as it is set.
    @ObservationIgnored private let loadedSources = CurrentValueSubject<[NewsSource], Never>([])
    @ObservationIgnored private var subscriptions: Set<AnyCancellable> = []

    /// Creates the model and its subscription.
    public init(
        country: String? = nil,
        category: NewsCategory? = nil,
        client: NewsClient,
        scheduler: AnySchedulerOf<DispatchQueue> = .main,
        debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(300)
    ) {
        self.country = country
        self.category = category
        self.client = client
        self.scheduler = scheduler

        Observed(on: scheduler) { [weak self] in self.map { ($0.country, $0.category) } }
            .compactMap { $0 }
            .map { country, category in
                NewsEndpoint.Sources?.some(.init(country: country, category: category))
            }
            .removeDuplicates()
            .map { [refreshes] query in refreshes.map { query }.prepend(query) }
            .switchToLatest()
            .loadLatest { query in client.sourcesPublisher(query).receive(on: scheduler) }
            .sink { [weak self] state in
                guard let self else { return }
                self.state = state
                loadedSources.send(state.value ?? [])
                if let error = state.failure, !error.isCancellation { errorMessage = error.alertMessage }
            }
            .store(in: &subscriptions)

        let filter = Observed(on: scheduler) { [weak self] in self?.searchText ?? "" }
            .settledText(startingWith: searchText, pause: debounce, scheduler: scheduler)
        loadedSources
            .combineLatest(filter)
            .map { sources, filter in
                filter.isEmpty
                    ? sources
                    : sources.filter { source in
                        [source.name, source.id, source.description ?? ""].contains {
                            $0.localizedCaseInsensitiveContains(filter)
                        }
                    }
            }
            .sink { [weak self] sources in self?.sources = sources }
            .store(in: &subscriptions)
    }

    /// Fetches the sources of the current country and category again.
    public func refresh() {
        refreshes.send()
    }

    /// An articles model for the latest from `source`, with the same client and scheduler.
    public func articles(for source: NewsSource) -> ArticlesViewModel {
        ArticlesViewModel(feed: .source(id: source.id), client: client, scheduler: scheduler)
    }
}
