import ArgumentParser
import Foundation
import Testing
import TributaryTestSupport

@testable import TributaryCLI

/// `tributary movies`, run in-process against the sandbox it starts.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct MoviesCommandTests {
    private func run(_ arguments: [String]) async throws -> CapturedConsole {
        let capture = CapturedConsole()
        var command = try TributaryCommand.parseAsRoot(arguments)
        switch command {
        case var popular as MoviesCommand.Popular:
            popular.connection.environment = [:]
            try await popular.execute(console: capture.console)
        case var search as MoviesCommand.Search:
            search.connection.environment = [:]
            try await search.execute(console: capture.console)
        case var movie as MoviesCommand.Movie:
            movie.connection.environment = [:]
            try await movie.execute(console: capture.console)
        case var upcoming as MoviesCommand.Upcoming:
            upcoming.connection.environment = [:]
            try await upcoming.execute(console: capture.console)
        default:
            try command.run()
        }
        return capture
    }

    @Test func listsPopularMoviesFromTheBuiltInSandbox() async throws {
        let capture = try await run(["movies", "popular", "--list", "top_rated"])
        #expect(
            capture.errors.contains("No TMDB_API_KEY set: reading the built-in sandbox at http://127.0.0.1:")
        )
        #expect(capture.output.hasPrefix("1. The "))
        #expect(capture.output.contains(" · id 9"))
        #expect(capture.output.contains("Page 1 of "))
    }

    @Test func searchesAndShowsAMovie() async throws {
        let found = try await run(["movies", "search", "glass"])
        let id = try #require(
            found.output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("900") }
        )
        let shown = try await run(["movies", "movie", String(id)])
        #expect(shown.output.contains("Glass"))
        #expect(shown.output.contains("Directed by "))
        #expect(shown.output.contains("Starring "))
        #expect(shown.output.contains("/tmdb/t/p/w342/poster-"))
    }

    /// A movie whose credits hold a `null` and an empty character, with TMDb's zeros for
    /// what it does not know: it is shown, and the unknowns are not printed as facts.
    @Test func showsAMovieWhoseDetailsHoldNullsAndZeros() async throws {
        let cast = (0..<8).map { order in
            let character = order == 1 ? "null" : order == 2 ? #""""# : #""Role \#(order)""#
            return
                #"{"id":\#(order + 1),"name":"Actor \#(order)","character":\#(character),"order":\#(order),"profile_path":null,"credit_id":"c\#(order)"}"#
        }
        let details = #"""
            {"adult":false,"backdrop_path":null,"belongs_to_collection":null,"genres":[{"id":28,"name":"Action"}],
             "homepage":"","id":399579,"imdb_id":null,"original_language":"ja","original_title":"銃夢","overview":"",
             "popularity":1.5,"poster_path":null,"release_date":"2027-02-14","runtime":0,"status":"Post Production",
             "tagline":"","title":"Battle Angel","video":false,"vote_average":0.0,"vote_count":0,
             "credits":{"cast":[\#(cast.joined(separator: ","))],
               "crew":[{"id":90,"name":"Robert Rodriguez","department":"Directing","job":"Director","credit_id":"d"},
                       {"id":91,"name":"Nobody","department":null,"job":null,"credit_id":"e"}]}}
            """#
        let configuration = #"""
            {"images":{"base_url":"http://image.tmdb.org/t/p/","secure_base_url":"https://image.tmdb.org/t/p/",
             "backdrop_sizes":["w300","original"],"logo_sizes":["w45"],"poster_sizes":["w342","original"],
             "profile_sizes":["w45"],"still_sizes":["w92"]},"change_keys":[]}
            """#
        let server = FixtureServer([
            "3/movie/399579": (200, details), "3/configuration": (200, configuration),
        ])
        let output = try await server.run { url in
            try await run([
                "movies", "movie", "399579", "--cast", "3", "--base-url",
                url.appending(path: "3").absoluteString, "--api-key", "k",
            ])
        }.output
        #expect(
            output == """
                Battle Angel (2027)
                Original title: 銃夢
                Action · not yet rated
                Post Production · release date 2027-02-14

                Directed by Robert Rodriguez
                Starring Actor 0 as Role 0, Actor 1, Actor 2; 5 more (--cast 8 names them all)

                """,
            "\(output)"
        )
    }

    /// Upcoming, searched pages and the locale reach TMDb as its query items; the list shows
    /// its window, the original title beside the translated one, and "unrated".
    @Test func asksForUpcomingPagesAndTheLocale() async throws {
        let movie = #"""
            {"adult":false,"backdrop_path":null,"genre_ids":[878],"id":399579,"original_language":"ja",
             "original_title":"銃夢","overview":"","popularity":1.5,"poster_path":null,"release_date":"2027-02-14",
             "title":"Battle Angel","video":false,"vote_average":0,"vote_count":0}
            """#
        let page =
            #"{"dates":{"maximum":"2027-03-01","minimum":"2027-02-10"},"page":1,"results":[\#(movie)],"total_pages":1,"total_results":1}"#
        let genres = #"{"genres":[{"id":878,"name":"Science Fiction"}]}"#
        let server = FixtureServer([
            "3/movie/upcoming": (200, page), "3/search/movie": (200, page),
            "3/genre/movie/list": (200, genres),
        ])
        let (upcoming, searched) = try await server.run { url in
            let base = ["--base-url", url.appending(path: "3").absoluteString, "--api-key", "k"]
            return (
                try await run(["movies", "upcoming", "--language", "en-US", "--region", "jp"] + base).output,
                try await run(["movies", "search", "battle angel", "--page", "2"] + base).output
            )
        }
        #expect(
            upcoming == """
                1. Battle Angel · 銃夢 (2027)
                   unrated · Science Fiction · id 399579

                Page 1 of 1; 1 movie, opening 2027-02-10 to 2027-03-01.

                """,
            "\(upcoming)"
        )
        #expect(searched.hasPrefix("1. Battle Angel · 銃夢 (2027)\n   unrated"))
        let asked = server.requests
        #expect(
            asked.contains {
                $0.hasPrefix("/3/movie/upcoming?") && $0.contains("language=en-US")
                    && $0.contains("region=JP")
            }
        )
        #expect(
            asked.contains {
                $0.hasPrefix("/3/search/movie?") && $0.contains("page=2") && $0.contains("query=battle")
            }
        )
    }

    /// The sandbox serves an unrated upcoming movie and a Japanese title in Japanese.
    @Test func readsUpcomingAndJapaneseTitlesFromTheSandbox() async throws {
        let upcoming = try await run(["movies", "upcoming"])
        #expect(upcoming.output.contains("   unrated · "))
        #expect(upcoming.output.contains(", opening "))
        let playing = try await run(["movies", "popular", "--list", "now_playing"])
        #expect(playing.output.contains(", in theatres "))
        let japanese = try await run(["movies", "search", "銃夢", "--language", "ja"])
        #expect(japanese.output.hasPrefix("1. 銃夢"), "\(japanese.output)")
    }

    @Test func saysWhenThereIsNoSuchMovie() async throws {
        await #expect(throws: (any Error).self) { _ = try await run(["movies", "movie", "12"]) }
    }

    @Test(arguments: [
        (
            ["movies", "popular", "--list", "soon"],
            "--list takes popular, top_rated, now_playing or upcoming"
        ),
        (["movies", "search", "x", "--page", "0"], "--page must be from 1 to 500"),
        (["movies", "movie", "1", "--cast", "501"], "--cast must be from 0 to 500"),
        (["movies", "popular", "--language", "Japanese"], "--language takes a code such as en"),
        (["movies", "upcoming", "--region", "USA"], "--region takes a two-letter country code"),
        (["movies", "popular", "--page", "501"], "--page must be from 1 to 500"),
        (["movies", "search", " "], "Give some words of the title"),
        (["movies", "movie", "0"], "Movie ids are positive numbers"),
    ])
    func refusesBadFlags(arguments: [String], message: String) {
        expectRefused(arguments, saying: message)
    }
}
