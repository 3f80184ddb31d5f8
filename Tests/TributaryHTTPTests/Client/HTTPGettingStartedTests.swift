import Foundation
import HTTPTypes
import Logging
import Testing
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryTestSupport

/// The code of `TributaryHTTP`'s Getting Started article, as it is written there, against a
/// NewsAPI-like server on loopback (``GettingStartedServer``): the client's base URL is the server's, and everything else
/// is the article's.
@MainActor
@Suite(.timeLimit(.minutes(2)))
struct HTTPGettingStartedTests {
    struct Article: Decodable, Sendable {
        var title: String
    }

    // Describe the endpoints
    struct ArticlesPage: Decodable, Sendable {
        var totalResults: Int
        var articles: [Article]
    }

    enum Feed {
        case topHeadlines(country: String)
        case search(String)

        var request: Request<ArticlesPage> {
            switch self {
            case .topHeadlines(let country):
                Request("top-headlines", query: [URLQueryItem(name: "country", value: country)])
            case .search(let text):
                Request("everything", query: [URLQueryItem(name: "q", value: text)])
            }
        }
    }

    static let key = "getting-started-key"

    @Test func theArticlesCodeRuns() async throws {
        try await GettingStartedServer.run(key: Self.key) { server, _ in
            try await articlesCode(server: server)
        }
    }

    /// Out of the server's closure, so that a `catch` knows the client's error type, as it
    /// does where the article's code is written.
    private func articlesCode(server: URL) async throws {
        let key = Self.key

        // Make a client
        let client = APIClient(
            baseURL: server.appending(path: "v2"),
            transport: URLSessionTransport(),
            middleware: [
                RequestLogging(logger: Logger(label: "news")),
                Authentication(.apiKey(key, header: HTTPField.Name("X-Api-Key")!)),
            ],
            serverErrors: .newsAPI
        )

        // Keep credentials on their server
        let base = server
        var feeds = APIClient(baseURL: base, transport: AsyncHTTPClientTransport())
        feeds.addressPolicy = .publicOnly()
        let refused = await #expect(throws: APIError.self) {
            try await feeds.send(Feed.topHeadlines(country: "us").request)
        }
        guard case .addressNotAllowed = refused?.kind else {
            Issue.record("expected addressNotAllowed, got \(String(describing: refused))")
            return
        }

        // Fetch
        let page = try await client.send(Feed.topHeadlines(country: "us").request)
        #expect(page.articles.map(\.title) == ["us"])

        let totals = Locked<[Int]>([])
        let search = client.publisher(for: Feed.search("swift").request)
            .receive(on: DispatchQueue.main)
            .sink(
                receiveCompletion: { print($0) },
                receiveValue: {
                    print($0.totalResults)
                    totals.withLock { $0.append(1) }
                }
            )
        try await waitUntil { totals.current == [1] }
        search.cancel()

        // Handle errors, here of a client without the key
        var shown: [String] = []
        func show(_ text: String) { shown.append(text) }
        do {
            let client = APIClient(
                baseURL: server.appending(path: "v2"),
                transport: URLSessionTransport(),
                serverErrors: .newsAPI
            )
            let request = Feed.topHeadlines(country: "us").request
            do {
                _ = try await client.send(request)
            } catch {
                if let message = error.serverError?.message {
                    show(message)  // "Your API key is invalid or incorrect."
                } else {
                    show(error.description)
                }
            }
        }
        #expect(shown == ["Your API key is invalid or incorrect."])
    }
}
