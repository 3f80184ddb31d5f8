public import CombineSchedulers
public import Foundation
public import Tributary

/// The state of a sources screen: country and category pickers, a filter box, and the list.
///
/// Changing the country or category fetches the sources again (only the latest answer
/// lands), and the list is empty until that answer comes, so a new choice never shows the
/// previous one's sources; ``refresh()`` asks again. The filter text narrows the list locally,
/// debounced. Outputs change on the injected scheduler, the main queue by default.
@MainActor
public final class SourcesViewModel: ObservableObject {
    /// The country whose sources are listed; nil for all. Input.
    @Published public var country: String?
    /// The category whose sources are listed; nil for all. Input.
    @Published public var category: NewsCategory?
    /// Narrows the list to sources whose name, id or description contain it. Input.
    @Published public var searchText = ""
    /// The sources that pass the filter. Output.
    @Published public private(set) var sources: [NewsSource] = []
    /// The latest fetch and how it went. Output.
    @Published public private(set) var state: Loadable<NewsEndpoint.Sources, [NewsSource], NewsError> = .idle
    /// A message for an alert after a failure, until it is set back to nil. Output.
    @Published public var errorMessage: String?

    private let client: NewsClient
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let refreshes = PassthroughSubject<Void, Never>()
    private var subscriptions: Set<AnyCancellable> = []

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

        $country
            .combineLatest($category)
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
                if let error = state.failure, !error.isCancellation { errorMessage = error.alertMessage }
            }
            .store(in: &subscriptions)

        let filter = $searchText.settledText(startingWith: searchText, pause: debounce, scheduler: scheduler)
        $state
            .map { $0.value ?? [] }
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
