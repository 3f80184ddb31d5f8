public import Foundation
import HTTPTypes
public import Tributary
public import TributaryFeeds
public import TributaryHTTP

/// Talks to NewsAPI.org, or to any server that speaks its protocol.
///
/// ```swift
/// let news = NewsClient(apiKey: key, transport: URLSessionTransport())
/// let page = try await news.articles(.topHeadlines(country: "us"))
/// ```
///
/// Requests are validated before they are sent; failures arrive as ``NewsError`` with the
/// server's code and message. The key travels in the `X-Api-Key` header and never appears in
/// logs or error descriptions.
public struct NewsClient: Sendable {
    /// NewsAPI.org's base URL.
    public static let newsAPIBaseURL = URL(string: "https://newsapi.org/v2")!

    /// `url`, with `/v2` added when it is a bare origin.
    static func versioned(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/"
        else { return url }
        components.percentEncodedPath = "/v2"
        return components.url ?? url
    }

    /// The header field that carries the key.
    static let keyHeader = HTTPField.Name("X-Api-Key")!

    /// The client that carries the exchanges.
    public var api: APIClient
    /// The client that fetches RSS and Atom feeds: the same, without the key, which is for
    /// NewsAPI only.
    public var feedAPI: APIClient

    /// Creates a client for the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - apiKey: The key sent with each request; nil sends none.
    ///   - baseURL: The server's `/v2` URL; a bare origin such as `http://127.0.0.1:8080` means
    ///     its `/v2`, as NewsAPI's endpoints all live there.
    ///   - transport: What carries the exchanges.
    ///   - middleware: Further steps each exchange passes through, after authentication.
    ///   - retryPolicy: When to try again; a `Retry-After` longer than its budget is not waited for.
    public init(
        apiKey: String?,
        baseURL: URL = NewsClient.newsAPIBaseURL,
        transport: any HTTPTransporting,
        middleware: [any APIMiddleware] = [],
        retryPolicy: RetryPolicy = .standard
    ) {
        let authentication = apiKey.map { [Authentication(.apiKey($0, header: Self.keyHeader))] } ?? []
        api = APIClient(
            baseURL: Self.versioned(baseURL),
            transport: transport,
            middleware: authentication + middleware,
            retryPolicy: retryPolicy,
            serverErrors: .newsAPI
        )
        feedAPI = api
        feedAPI.middleware = middleware
        feedAPI.serverErrors = .standard
    }

    /// Creates a client over a configured `APIClient`, which adds the key itself; feeds
    /// are fetched with `feedAPI`, by default the same client without its `Authentication`:
    /// feeds live on other servers, which must not receive NewsAPI's key.
    public init(api: APIClient, feedAPI: APIClient? = nil) {
        self.api = api
        if let feedAPI {
            self.feedAPI = feedAPI
        } else {
            self.feedAPI = api
            self.feedAPI.middleware = api.middleware.filter { !($0 is Authentication) }
            self.feedAPI.serverErrors = .standard
        }
    }

    /// A page of articles from top headlines or everything.
    public func articles(_ endpoint: NewsEndpoint) async throws(NewsError) -> ArticlesPage {
        if case .sources = endpoint {
            throw NewsError(.invalidRequest(reason: "the sources endpoint lists sources, not articles"))
        }
        return try await send(endpoint, as: ArticlesPage.self)
    }

    /// The sources matching `query`.
    public func sources(_ query: NewsEndpoint.Sources = .init()) async throws(NewsError) -> [NewsSource] {
        try await send(.sources(query), as: SourcesPage.self).sources
    }

    /// A publisher of the page ``articles(_:)`` returns, sent when subscribed to and
    /// cancelled with the subscription.
    public func articlesPublisher(_ endpoint: NewsEndpoint) -> AnyPublisher<ArticlesPage, NewsError> {
        AsyncOperationPublisher { () async throws(NewsError) in try await articles(endpoint) }
            .eraseToAnyPublisher()
    }

    /// A publisher of the sources ``sources(_:)`` returns.
    public func sourcesPublisher(
        _ query: NewsEndpoint.Sources = .init()
    ) -> AnyPublisher<[NewsSource], NewsError> {
        AsyncOperationPublisher { () async throws(NewsError) in try await sources(query) }
            .eraseToAnyPublisher()
    }

    /// The entries of the RSS or Atom feed at `url`.
    public func feedEntries(_ url: URL) async throws(NewsError) -> [FeedEntry] {
        try await feed(url).entries
    }

    /// The RSS or Atom feed at `url`: its title, its entries, and the flaws forgiven to read it.
    public func feed(_ url: URL) async throws(NewsError) -> FeedDocument {
        let data: Data
        let contentType: String?
        let contentLocation: String?
        do {
            let exchange = try await feedAPI.exchange(Request<Data>(.url(url)))
            data = exchange.value
            contentType = exchange.response.headerFields[.contentType]
            contentLocation = exchange.response.headerFields[.contentLocation]
        } catch {
            var failure = NewsError(error, now: feedAPI.now())
            failure.feedURL = url
            throw failure
        }
        // Parsing a large feed keeps a thread busy: it runs off the cooperative pool, whose
        // few threads every task shares.
        let parsed = await Self.parsingQueue.run {
            Result { () throws(FeedError) in
                try FeedReader.document(
                    data,
                    baseURL: url,
                    contentType: contentType,
                    contentLocation: contentLocation
                )
            }
        }
        do {
            return try parsed.get()
        } catch {
            throw NewsError(.feed(error))
        }
    }

    /// A publisher of ``feed(_:)``.
    public func feedPublisher(_ url: URL) -> AnyPublisher<FeedDocument, NewsError> {
        AsyncOperationPublisher { () async throws(NewsError) in try await feed(url) }
            .eraseToAnyPublisher()
    }

    private static let parsingQueue = DispatchQueue(
        label: "NewsAPI.feeds",
        qos: .userInitiated,
        attributes: .concurrent
    )

    private func send<Response: Decodable & Sendable>(
        _ endpoint: NewsEndpoint,
        as: Response.Type
    ) async throws(NewsError) -> Response {
        try endpoint.validate()
        do {
            return try await api.send(Request<Response>(.path(endpoint.path), query: endpoint.queryItems))
        } catch {
            throw NewsError(error, now: api.now())
        }
    }
}
