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
}
