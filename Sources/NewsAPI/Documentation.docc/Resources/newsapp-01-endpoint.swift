import Foundation
import NewsAPI
import TributaryHTTP

/// What the app asks the news server for.
enum Endpoint: Hashable, Sendable {
    /// The top headlines of a category.
    case headlines(category: String)

    /// The request that fetches it, and the type its answer decodes to.
    var request: Request<ArticlesPage> {
        switch self {
        case .headlines(let category):
            Request("top-headlines", query: [URLQueryItem(name: "category", value: category)])
        }
    }
}
