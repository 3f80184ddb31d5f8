public import Foundation
public import Tributary
public import TributaryHTTP

/// Talks to TMDb's v3 API, or to any server that speaks it (the sandbox).
///
/// ```swift
/// let tmdb = TMDbClient(credential: .apiKey(key), transport: URLSessionTransport())
/// let popular = try await tmdb.movies(.popular)
/// let details = try await tmdb.movie(popular.results[0].id)     // with cast and crew
/// ```
///
/// It is endpoints over `APIClient`: the key travels as `api_key` or a v4 bearer token, kept to
/// TMDb's origin; TMDb's `{success, status_code, status_message}` errors become the
/// `APIError`'s server error, whose message is ready for an alert; a 429 is retried after its
/// `Retry-After` by the client's retry policy.
public struct TMDbClient: Sendable {
    /// TMDb's own base URL.
    public static let officialBaseURL = URL(string: "https://api.themoviedb.org/3")!

    /// How requests prove who sends them.
    public enum Credential: Sendable {
        /// A v3 API key, sent as the `api_key` query item.
        case apiKey(String)
        /// A v4 API read access token, sent as `Authorization: Bearer`.
        case bearerToken(String)
    }

    /// The client that carries the exchanges.
    public var api: APIClient
    /// The language and region every request asks for.
    public var locale: TMDbLocale

    /// Creates a client over a configured `APIClient`.
    public init(api: APIClient, locale: TMDbLocale = .standard) {
        self.api = api
        self.locale = locale
    }

    /// Creates a client of the server at `baseURL`.
    public init(
        credential: Credential?,
        baseURL: URL = TMDbClient.officialBaseURL,
        transport: any HTTPTransporting,
        retryPolicy: RetryPolicy = .standard,
        locale: TMDbLocale = .standard
    ) {
        self.locale = locale
        let authentication: [any APIMiddleware] =
            switch credential {
            case .apiKey(let key)?: [Authentication(.apiKeyInQuery(key, name: "api_key"))]
            case .bearerToken(let token)?: [Authentication(.bearer(token))]
            case nil: []
            }
        api = APIClient(
            baseURL: baseURL,
            transport: transport,
            middleware: authentication,
            retryPolicy: retryPolicy,
            serverErrors: .tmdb
        )
    }

    /// A page of a movie list.
    public func movies(_ list: MovieList, page: Int = 1) async throws(APIError) -> TMDbPage<Movie> {
        try await api.send(TMDbEndpoint.movies(list, page: page, locale: locale))
    }

    /// One movie, with its cast and crew.
    public func movie(_ id: Int) async throws(APIError) -> MovieDetails {
        try await api.send(TMDbEndpoint.movie(id, locale: locale))
    }

    /// A page of the movies whose titles match `text`.
    public func search(
        _ text: String,
        year: Int? = nil,
        page: Int = 1
    ) async throws(APIError) -> TMDbPage<Movie> {
        try await api.send(TMDbEndpoint.search(text, year: year, page: page, locale: locale))
    }

    /// Every movie genre.
    public func genres() async throws(APIError) -> [Genre] {
        try await api.send(TMDbEndpoint.genres(locale: locale)).genres
    }

    /// Where images live, for building their URLs.
    public func images() async throws(APIError) -> TMDbImages {
        TMDbImages(try await api.send(TMDbEndpoint.configuration).images)
    }

    /// A publisher of `request`'s answer, sent when subscribed to and cancelled with the
    /// subscription.
    public func publisher<Response>(_ request: Request<Response>) -> AnyPublisher<Response, APIError> {
        api.publisher(for: request)
    }
}
