import Foundation
public import TributaryHTTP

/// The lists of movies TMDb keeps.
public enum MovieList: String, Sendable, Hashable, CaseIterable {
    /// The movies most popular on TMDb.
    case popular
    /// The movies TMDb's users rate highest.
    case topRated = "top_rated"
    /// Movies in theatres now; its pages say the days they span.
    case nowPlaying = "now_playing"
    /// Movies coming to theatres soon; its pages say the days they span.
    case upcoming
}

/// Where and in which language TMDb answers: `language` (`ja-JP`, `de`) picks the
/// translation of titles and overviews, `region` (`JP`, an ISO 3166-1 code) the country whose
/// release dates count.
public struct TMDbLocale: Sendable, Hashable {
    /// An ISO 639-1 language, optionally with a country: `en-US`, `ja`.
    public var language: String?
    /// An ISO 3166-1 country, upper case: `US`, `JP`.
    public var region: String?

    /// Creates a locale; what is nil is not sent, so TMDb's default applies.
    ///
    /// - Parameters:
    ///   - language: An ISO 639-1 language, optionally with a country: `en-US`, `ja`.
    ///   - region: An ISO 3166-1 country, upper case: `US`, `JP`.
    public init(language: String? = nil, region: String? = nil) {
        self.language = language
        self.region = region
    }

    /// TMDb's own defaults: English, no region.
    public static let standard = TMDbLocale()
}

/// The requests of TMDb's v3 API (`https://api.themoviedb.org/3`) that a movie app starts with.
public enum TMDbEndpoint {
    /// A page of a movie list, from 1 to 500.
    public static func movies(
        _ list: MovieList,
        page: Int = 1,
        locale: TMDbLocale = .standard
    ) -> Request<TMDbPage<Movie>> {
        Request(
            .path("movie/\(list.rawValue)"),
            query: query(["page": String(page), "language": locale.language, "region": locale.region])
        )
    }

    /// One movie, with its cast and crew when `credits` is true.
    public static func movie(
        _ id: Int,
        credits: Bool = true,
        locale: TMDbLocale = .standard
    ) -> Request<MovieDetails> {
        Request(
            .path("movie/\(id)"),
            query: query(["append_to_response": credits ? "credits" : nil, "language": locale.language])
        )
    }

    /// A page of movies whose titles, translated or original, match `text`.
    public static func search(
        _ text: String,
        year: Int? = nil,
        includeAdult: Bool = false,
        page: Int = 1,
        locale: TMDbLocale = .standard
    ) -> Request<TMDbPage<Movie>> {
        Request(
            .path("search/movie"),
            query: query([
                "query": text, "year": year.map(String.init),
                "include_adult": includeAdult ? "true" : "false",
                "page": String(page), "language": locale.language, "region": locale.region,
            ])
        )
    }

    /// Every movie genre, with its name.
    public static var genres: Request<GenreList> { genres() }

    /// Every movie genre, named in the locale's language.
    public static func genres(locale: TMDbLocale = .standard) -> Request<GenreList> {
        Request(.path("genre/movie/list"), query: query(["language": locale.language]))
    }

    /// Where images live and the sizes they come in.
    public static var configuration: Request<TMDbConfiguration> { Request(.path("configuration")) }

    /// Query items in a fixed order, without the nil ones.
    private static func query(_ items: KeyValuePairs<String, String?>) -> [URLQueryItem] {
        items.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
    }
}

/// The body of `genre/movie/list`.
public struct GenreList: Sendable, Hashable, Codable {
    /// Every movie genre, with its name.
    public var genres: [Genre]
}
