public import CombineSchedulers
public import Foundation
public import Observation
public import Tributary
public import TributaryFeeds

/// The state of a screen that reads one RSS or Atom feed: its address, a search box that
/// narrows the entries, the entries, and an alert.
///
/// Entries stay `FeedEntry` values, as the feed gave them: an entry without a date has none
/// (no time of reading stands in for it), and an entry without a link is listed all the same.
/// As in ``ArticlesViewModel``, only the latest request's answer lands, and a new address empties
/// the list while it loads; a refresh keeps it, as ``isRefreshing`` says.
///
/// ```swift
/// let model = FeedViewModel(url: URL(string: "https://example.com/feed.rss")!, client: news)
/// model.searchText = "swift"   // narrows the entries already read, without a fetch
/// model.refresh()              // reads the feed again
/// ```
@MainActor
@Observable
public final class FeedViewModel {
    /// The feed read; nil for none. Input.
    public var url: URL?
    /// Text that narrows the entries to those whose title, summary or author contain it. Input.
    public var searchText: String
    /// The entries of the feed that match ``searchText``, in the feed's order. Output.
    public private(set) var entries: [FeedEntry] = []
    /// The latest read of the feed and how it went. Output.
    public private(set) var state: Loadable<URL, FeedDocument, NewsError> = .idle
    /// A message for an alert after a failure, until it is set back to nil. Output.
    public var errorMessage: String?

    /// Every entry of the feed, before ``searchText`` narrows them.
    public private(set) var document: FeedDocument?

    /// Whether the feed whose entries are shown is being read again.
    public var isRefreshing: Bool {
        state.isLoading && document != nil
    }

    @ObservationIgnored private let reads = PassthroughSubject<URL?, Never>()
    @ObservationIgnored private var shown: URL?
    @ObservationIgnored private var subscriptions: Set<AnyCancellable> = []

    /// Creates the model and its subscription.
    ///
    /// - Parameters:
    ///   - url: The feed to read first.
    ///   - searchText: The search box's first text.
    ///   - client: What reads the feed.
    ///   - scheduler: Where outputs change; the main queue by default.
    public init(
        url: URL? = nil,
        searchText: String = "",
        client: NewsClient,
        scheduler: AnySchedulerOf<DispatchQueue> = .main
    ) {
        self.url = url
        self.searchText = searchText

        reads
            .loadLatest { url in
                client.feedPublisher(url).receive(on: scheduler)
            }
            .sink { [weak self] state in self?.apply(state) }
            .store(in: &subscriptions)
        Observed(on: scheduler) { [weak self] in self?.url }
            .removeDuplicates()
            .sink { [weak self] url in self?.reads.send(url) }
            .store(in: &subscriptions)
        Observed(on: scheduler) { [weak self] in self?.searchText ?? "" }
            .removeDuplicates()
            .sink { [weak self] text in self?.narrow(by: text) }
            .store(in: &subscriptions)
    }

    /// Reads the current feed again, keeping its entries shown until the answer.
    public func refresh() {
        reads.send(url)
    }

    private func apply(_ update: Loadable<URL, FeedDocument, NewsError>) {
        switch update {
        case .loading(let url):
            if url != shown { clear() }
            shown = url
        case .loaded(let document):
            self.document = document
            errorMessage = nil
            narrow(by: searchText)
        case .failed(let error):
            if !error.isCancellation { errorMessage = error.alertMessage }
        case .idle:
            shown = nil
            clear()
        }
        state = update
    }

    private func narrow(by text: String) {
        let all = document?.entries ?? []
        let narrowed =
            text.isEmpty
            ? all
            : all.filter { entry in
                [entry.title ?? "", entry.summaryText ?? "", entry.author ?? ""].contains {
                    $0.localizedCaseInsensitiveContains(text)
                }
            }
        if narrowed != entries { entries = narrowed }
    }

    /// Forgets the feed that was shown.
    private func clear() {
        document = nil
        if !entries.isEmpty { entries = [] }
        errorMessage = nil
    }
}
