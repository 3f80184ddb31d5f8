import NewsAPI
import Observation
import Tributary

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

    /// What the inputs ask for.
    var endpoint: Endpoint {
        searchText.isEmpty ? .headlines(category: category) : .search(searchText)
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
