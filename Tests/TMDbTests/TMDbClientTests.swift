import Foundation
import HTTPTypes
import TMDb
import Testing
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryHTTPTesting
import TributaryImages
import TributarySandbox
import TributaryTestSupport

/// Runs a sandbox and gives `body` a TMDb client of it with `credential`.
func withTMDb<Result: Sendable>(
    _ configuration: Sandbox.Configuration = .init(),
    credential: TMDbClient.Credential? = .apiKey(Sandbox.demoKey),
    clock: ImmediateClock? = nil,
    _ body: @Sendable (TMDbClient, URL) async throws -> Result
) async throws -> Result {
    try await Sandbox(configuration: configuration).withRunning { url in
        try await AsyncHTTPClientTransport.withTransport { transport in
            let base = url.deletingLastPathComponent().appending(path: "tmdb/3")
            var client = TMDbClient(credential: credential, baseURL: base, transport: transport)
            if let clock { client.api.clock = RetryClock(clock) }
            return try await body(client, base)
        }
    }
}

/// The client against the sandbox's TMDb, over loopback.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct TMDbClientTests {
    @Test func pagesThroughTheListsInTheirOrder() async throws {
        try await withTMDb { client, _ in
            let first = try await client.movies(.popular)
            let second = try await client.movies(.popular, page: 2)
            #expect(first.page == 1 && first.results.count == 20 && first.hasMore)
            #expect(first.totalResults > 300 && first.totalPages == (first.totalResults + 19) / 20)
            let popularity = (first.results + second.results).map(\.popularity)
            #expect(popularity == popularity.sorted(by: >))
            #expect(Set(first.results.map(\.id)).isDisjoint(with: second.results.map(\.id)))
            #expect(!first.results.contains { $0.isAdult })
            let rated = try await client.movies(.topRated).results
            #expect(rated.allSatisfy { $0.voteCount >= 100 })
            #expect(rated.map(\.voteAverage) == rated.map(\.voteAverage).sorted(by: >))
            let playing = try await client.movies(.nowPlaying).results
            #expect(
                playing.allSatisfy {
                    ($0.releaseDate ?? .distantPast) > Date().addingTimeInterval(-50 * 86_400)
                }
            )
            let past = try await client.movies(.popular, page: 400)
            #expect(past.results.isEmpty)
        }
    }

    @Test func readsAMovieWithItsCastAndCrew() async throws {
        try await withTMDb { client, _ in
            let id = try await client.movies(.topRated).results[0].id
            let details = try await client.movie(id)
            #expect(details.id == id && !details.genres.isEmpty && details.runtime ?? 0 > 60)
            #expect(details.status == "Released" && details.imdbID != nil)
            let cast = try #require(details.credits?.cast)
            #expect(cast.count >= 4 && cast.map(\.order) == Array(0..<cast.count))
            #expect(Set(cast.map(\.name)).count == cast.count)
            #expect(details.directors.count == 1)
            #expect(details.movie.genreIDs == details.genres.map(\.id))
        }
    }

    /// Dates are `YYYY-MM-DD` or an empty string, which means none; a date that is not one
    /// is none too, rather than failing the movie.
    @Test func readsTheDatesTMDbSends() throws {
        let decoder = JSONDecoder()
        let dated = try decoder.decode(
            Movie.self,
            from: Data(#"{"id":1,"title":"A","release_date":"1982-06-25"}"#.utf8)
        )
        #expect(dated.year == 1982)
        let undated = try decoder.decode(
            Movie.self,
            from: Data(#"{"id":2,"title":"B","release_date":""}"#.utf8)
        )
        #expect(undated.releaseDate == nil && undated.year == nil)
        for odd in [#""25/06/1982""#, "null", "19820625"] {
            let movie = try decoder.decode(
                Movie.self,
                from: Data(#"{"id":3,"title":"C","release_date":\#(odd)}"#.utf8)
            )
            #expect(movie.releaseDate == nil)
        }
    }

    @Test func searchesTitlesByWordAndYear() async throws {
        try await withTMDb { client, _ in
            let found = try await client.search("glass")
            #expect(found.totalResults > 0)
            #expect(found.results.allSatisfy { $0.title.lowercased().contains("glass") })
            let year = try #require(found.results.compactMap(\.year).first)
            let inYear = try await client.search("glass", year: year)
            #expect(!inYear.results.isEmpty && inYear.results.allSatisfy { $0.year == year })
            #expect(try await client.search("no such title anywhere").results.isEmpty)
        }
    }

    /// Upcoming movies are dated after today within the page's window, and nobody has rated
    /// them; now playing says its window too.
    @Test func listsUpcomingMoviesUnratedWithTheirWindow() async throws {
        try await withTMDb { client, _ in
            let upcoming = try await client.movies(.upcoming)
            let window = try #require(upcoming.dates)
            let (start, end) = (try #require(window.start), try #require(window.end))
            #expect(!upcoming.results.isEmpty && start < end)
            for movie in upcoming.results {
                let date = try #require(movie.releaseDate)
                #expect(date >= start && date <= end)
                #expect(movie.rating == nil && movie.voteCount == 0)
            }
            let details = try await client.movie(upcoming.results[0].id)
            #expect(details.runtime == nil && details.imdbID == nil)
            #expect(["In Production", "Post Production"].contains(details.status ?? ""))
            let playing = try await client.movies(.nowPlaying)
            #expect(try #require(playing.dates).maximum < window.minimum)
            #expect(try await client.movies(.popular).dates == nil)
        }
    }

    /// A language picks the translated title; the original one stays beside it.
    @Test func asksForTheLocalesLanguage() async throws {
        try await withTMDb { english, _ in
            let found = try await english.search("銃夢")
            let movie = try #require(found.results.first)
            #expect(movie.originalTitle == "銃夢" && movie.title != "銃夢" && movie.distinctOriginalTitle == "銃夢")
            var japanese = english
            japanese.locale = TMDbLocale(language: "ja-JP", region: "JP")
            let translated = try await japanese.movie(movie.id)
            #expect(translated.movie.title == "銃夢" && translated.movie.distinctOriginalTitle == nil)
        }
        let request = TMDbEndpoint.search(
            "alita",
            page: 2,
            locale: TMDbLocale(language: "ja-JP", region: "JP")
        )
        #expect(
            request.query.map { "\($0.name)=\($0.value ?? "")" }
                == ["query=alita", "include_adult=false", "page=2", "language=ja-JP", "region=JP"]
        )
        let upcoming = TMDbEndpoint.movies(.upcoming, locale: TMDbLocale(region: "DE"))
        #expect(upcoming.query.map(\.name) == ["page", "region"])
    }

    /// Posters are URLs from the configuration, loaded and decoded through the image pipeline.
    @Test func loadsPostersThroughTheImagePipeline() async throws {
        try await withTMDb { client, _ in
            let images = try await client.images()
            let movie = try #require(try await client.movies(.popular).results.first { $0.posterPath != nil })
            let url = try #require(images.url(poster: movie.posterPath, width: 300))
            #expect(url.path.hasSuffix("/w342\(movie.posterPath!)"))
            #expect(images.url(poster: movie.posterPath, width: 5_000)?.path.contains("/original/") == true)
            #expect(images.url(poster: nil, width: 300) == nil)
            let pipeline = ImagePipeline(configuration: .init(dataLoader: DataLoader(client: client.api)))
            let full = try await pipeline.image(for: url)
            #expect(full.width == 342 && full.height == 513)
            let thumbnail = try await pipeline.image(
                for: try #require(images.request(poster: movie.posterPath, width: 92))
            )
            #expect(max(thumbnail.width, thumbnail.height) <= 92)
        }
    }

    @Test func loadsTheGenresByName() async throws {
        try await withTMDb { client, _ in
            let genres = try await client.genres()
            #expect(genres.count == 19)
            #expect(genres.contains(Genre(id: 878, name: "Science Fiction")))
        }
    }

    /// TMDb's own error bodies become the error's message, ready for an alert.
    @Test func turnsTMDbsErrorsIntoTheirMessages() async throws {
        try await withTMDb(credential: .apiKey("wrong")) { client, _ in
            let error = await #expect(throws: APIError.self) { try await client.movies(.popular) }
            #expect(error?.status == .unauthorized && error?.serverError?.code == "7")
            #expect(error?.serverError?.message == "Invalid API key: You must be granted a valid key.")
        }
        try await withTMDb(credential: nil) { client, _ in
            let error = await #expect(throws: APIError.self) { try await client.genres() }
            #expect(error?.serverError?.code == "7")
        }
        try await withTMDb(credential: .bearerToken(Sandbox.demoKey)) { client, _ in
            let missing = await #expect(throws: APIError.self) { try await client.movie(1) }
            #expect(missing?.status == .notFound)
            #expect(missing?.serverError?.message == "The resource you requested could not be found.")
            let badPage = await #expect(throws: APIError.self) {
                try await client.movies(.popular, page: 501)
            }
            #expect(badPage?.status == .badRequest && badPage?.serverError?.code == "22")
            #expect(badPage?.description.contains("Invalid page: Pages start at 1 and max at 500.") == true)
        }
    }

    /// A 429 carries `Retry-After`; the client's retry policy waits that long and tries again.
    @Test func waitsOutTheRateLimitAndTriesAgain() async throws {
        let clock = ImmediateClock()
        let start = Date()
        let configuration = Sandbox.Configuration(
            tmdbRateLimit: 2,
            now: { start.addingTimeInterval(Double(clock.now.offset.components.seconds)) }
        )
        try await withTMDb(configuration, clock: clock) { client, _ in
            _ = try await client.genres()
            _ = try await client.genres()
            let third = try await client.movies(.popular)
            #expect(third.results.count == 20)
            #expect(clock.sleeps == [.seconds(10)])
        }
    }

    /// The key travels only to TMDb: an absolute URL elsewhere goes without it.
    @Test func keepsTheKeyOnTMDbsOrigin() async throws {
        try await withTMDb { client, base in
            let elsewhere = URL(string: "http://localhost:\(base.port ?? 0)/tmdb/3/genre/movie/list")!
            let error = await #expect(throws: APIError.self) {
                try await client.api.send(Request<GenreList>(.url(elsewhere)))
            }
            #expect(error?.status == .unauthorized)
        }
    }
}
