public import CombineSchedulers
public import Foundation
import HTTPTypes
public import Observation
public import Tributary
public import TributaryHTTP

/// The state of a story list screen: which list, the stories of every page loaded, paging,
/// pull to refresh and an alert.
///
/// The list is an input; the stories follow it through one subscription made in `init`, and
/// only the latest request's answer lands. A refresh keeps the stories on screen until the new
/// first page arrives; switching lists clears them at once. Outputs change on the injected
/// scheduler, the main queue unless a test passes a virtual-time one.
///
/// ```swift
/// let model = StoriesViewModel(list: .top, client: hn)
/// model.list = .ask      // the first page of Ask HN
/// model.loadMore()       // appends the next page
/// model.refresh()        // keeps the list until the new one arrives
/// ```
@MainActor
@Observable
public final class StoriesViewModel {
    /// One page asked for.
    public struct PageRequest: Hashable, Sendable {
        /// The list.
        public var list: StoryList
        /// The page, from 1.
        public var page: Int
        /// Tells a refresh from the request it repeats.
        let serial: Int
    }

    /// The list shown. Input.
    public var list: StoryList
    /// The stories of every page loaded so far, in rank order, without repeats. Output.
    public private(set) var stories: [HNItem] = []
    /// The latest request and how it went. Output.
    public private(set) var state: Loadable<PageRequest, StoryPage, APIError> = .idle
    /// A message for an alert after a failure, until it is set back to nil. Output.
    public var errorMessage: String?
    /// Whether a refresh is under way, with the old stories still shown. Output.
    public private(set) var isRefreshing = false

    /// Whether the list goes on and nothing is loading.
    public var canLoadMore: Bool { !state.isLoading && (lastPage?.hasMore ?? false) }

    @ObservationIgnored private let pageSize: Int
    @ObservationIgnored private let requests = PassthroughSubject<PageRequest?, Never>()
    @ObservationIgnored private var lastPage: StoryPage?
    @ObservationIgnored private var serial = 0
    @ObservationIgnored private var subscriptions: Set<AnyCancellable> = []

    /// Creates the model and its subscription.
    ///
    /// - Parameters:
    ///   - list: The list to show first.
    ///   - client: Where the stories come from.
    ///   - scheduler: Where outputs change; the main queue by default.
    ///   - pageSize: Stories on a page.
    public init(
        list: StoryList = .top,
        client: HackerNewsClient,
        scheduler: AnySchedulerOf<DispatchQueue> = .main,
        pageSize: Int = 30
    ) {
        self.list = list
        self.pageSize = pageSize
        requests
            .loadLatest { request in
                client.storiesPublisher(request.list, page: request.page, pageSize: pageSize)
                    .receive(on: scheduler)
            }
            .sink { [weak self] state in self?.apply(state) }
            .store(in: &subscriptions)
        Observed(on: scheduler) { [weak self] in self?.list }
            .compactMap { $0 }
            .removeDuplicates()
            .sink { [weak self] list in
                self?.stories = []
                self?.lastPage = nil
                self?.load(list, page: 1)
            }
            .store(in: &subscriptions)
    }

    /// Fetches the next page and appends it, when there is one and nothing is loading.
    public func loadMore() {
        guard canLoadMore, let lastPage else { return }
        load(list, page: lastPage.page + 1)
    }

    /// Fetches the first page again, keeping the stories shown until it arrives.
    public func refresh() {
        isRefreshing = !stories.isEmpty
        load(list, page: 1)
    }

    private func load(_ list: StoryList, page: Int) {
        serial += 1
        requests.send(PageRequest(list: list, page: page, serial: serial))
    }

    private func apply(_ update: Loadable<PageRequest, StoryPage, APIError>) {
        switch update {
        case .loaded(let page):
            if page.page == 1 {
                stories = page.items
            } else {
                let known = Set(stories.map(\.id))
                stories += page.items.filter { !known.contains($0.id) }
            }
            lastPage = page
            isRefreshing = false
            errorMessage = nil
        case .failed(let error):
            isRefreshing = false
            if case .cancelled = error.kind {} else { errorMessage = Self.message(for: error) }
        case .loading, .idle:
            break
        }
        state = update
    }

    /// One sentence for an alert.
    nonisolated static func message(for error: APIError) -> String {
        switch error.kind {
        case .transport, .addressNotAllowed: "Hacker News cannot be reached. Check your connection."
        case .timedOut: "Hacker News took too long to answer."
        case .unacceptableStatus(let response, _, let serverError):
            serverError.map { "Hacker News answered: \($0.message)" }
                ?? "Hacker News answered with an error (HTTP \(response.status.code))."
        case .undecodable, .bodyTooLarge: "Hacker News sent something this app cannot read."
        case .invalidRequest(let reason): "This list cannot be shown: \(reason)."
        case .cancelled, .rejected: "The request was stopped before it was answered."
        }
    }
}
