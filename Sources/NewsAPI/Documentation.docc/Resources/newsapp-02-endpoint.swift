import Foundation
import NewsAPI
import TributaryHTTP

/// What the app asks the news server for.
enum Endpoint: Hashable, Sendable {
    /// The top headlines of a category.
    case headlines(category: String)
    /// Every article that matches a search, the newest first.
    case search(String)

    /// The request that fetches it, and the type its answer decodes to.
    var request: Request<ArticlesPage> {
        switch self {
        case .headlines(let category):
            Request("top-headlines", query: [URLQueryItem(name: "category", value: category)])
        case .search(let text):
            Request(
                "everything",
                query: [
                    URLQueryItem(name: "q", value: text), URLQueryItem(name: "sortBy", value: "publishedAt"),
                ]
            )
        }
    }
}
