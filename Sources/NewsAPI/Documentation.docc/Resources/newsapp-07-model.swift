import NewsAPI
import Observation
import Tributary
import TributaryHTTP

/// Why a page could not be loaded, in words the screen can show.
struct LoadFailure: Error, Equatable {
    var message: String
}

/// The state of the headlines screen.
@MainActor
@Observable
final class HeadlinesModel {
    /// The category shown while the search box is empty. Input.
    var category = "technology"
    /// The search box. Input.
    var searchText = ""
    /// The articles of the latest request, or how far it has got. Output.
    private(set) var state: Loadable<Endpoint, [Article], LoadFailure> = .idle

    @ObservationIgnored private var subscription: AnyCancellable?

    /// What the inputs ask for.
    var endpoint: Endpoint {
        searchText.isEmpty ? .headlines(category: category) : .search(searchText)
    }

    /// Loads what the inputs ask for through `client`, and changes `state` on `scheduler`.
    init<S: Scheduler>(client: APIClient, scheduler: S) {
        let endpoints = Observed(on: scheduler) { [weak self] in self?.endpoint }.compactMap { $0 }
        subscription = Self.states(of: endpoints, scheduler: scheduler) { endpoint in
            client.publisher(for: endpoint.request)
                .map(\.articles)
                .mapError { LoadFailure(message: $0.description) }
                .eraseToAnyPublisher()
        }
        .sink { [weak self] in self?.state = $0 }
    }

    /// The screen's pipeline: what the inputs ask for, once typing has stopped for 300 ms and
    /// only when it changed, loaded; a new request cancels the one under way.
    nonisolated static func states<S: Scheduler>(
        of endpoints: some Publisher<Endpoint, Never>,
        scheduler: S,
        load: @escaping (Endpoint) -> AnyPublisher<[Article], LoadFailure>
    ) -> AnyPublisher<Loadable<Endpoint, [Article], LoadFailure>, Never> {
        endpoints
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .map { Optional($0) }  // loadLatest takes optional requests: nil goes back to idle.
            .loadLatest(load)
            .receive(on: scheduler)
            .eraseToAnyPublisher()
    }
}
