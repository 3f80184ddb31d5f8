import Foundation
public import TributaryHTTP

/// The lists of movies TMDb keeps.
public enum MovieList: String, Sendable, Hashable, CaseIterable {
    case popular
    case topRated = "top_rated"
    case nowPlaying = "now_playing"
}

/// The requests of TMDb's v3 API (`https://api.themoviedb.org/3`) that a movie app starts with.
public enum TMDbEndpoint {
    /// A page of a movie list, from 1 to 500.
    public static func movies(
        _ list: MovieList,
        page: Int = 1,
        language: String? = nil
    ) -> Request<TMDbPage<Movie>> {
        Request(.path("movie/\(list.rawValue)"), query: query(["page": String(page), "language": language]))
    }

    /// One movie, with its cast and crew when `credits` is true.
    public static func movie(
        _ id: Int,
        credits: Bool = true,
        language: String? = nil
    ) -> Request<MovieDetails> {
        Request(
            .path("movie/\(id)"),
            query: query(["append_to_response": credits ? "credits" : nil, "language": language])
        )
    }

    /// A page of movies whose titles match `text`.
    public static func search(
        _ text: String,
        year: Int? = nil,
        includeAdult: Bool = false,
        page: Int = 1
    ) -> Request<TMDbPage<Movie>> {
        Request(
            .path("search/movie"),
            query: query([
                "query": text, "year": year.map(String.init),
                "include_adult": includeAdult ? "true" : "false",
                "page": String(page),
            ])
        )
    }

    /// Every movie genre, with its name.
    public static var genres: Request<GenreList> { Request(.path("genre/movie/list")) }

    /// Where images live and the sizes they come in.
    public static var configuration: Request<TMDbConfiguration> { Request(.path("configuration")) }

    /// Query items in a fixed order, without the nil ones.
    private static func query(_ items: KeyValuePairs<String, String?>) -> [URLQueryItem] {
        items.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
    }
}

/// The body of `genre/movie/list`.
public struct GenreList: Sendable, Hashable, Codable {
    public var genres: [Genre]
}
