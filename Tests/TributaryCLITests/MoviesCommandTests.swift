import ArgumentParser
import Foundation
import Testing

@testable import TributaryCLI

/// `tributary movies`, run in-process against the sandbox it starts.
@Suite(.timeLimit(.minutes(1)))
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

    @Test func saysWhenThereIsNoSuchMovie() async throws {
        await #expect(throws: (any Error).self) { _ = try await run(["movies", "movie", "12"]) }
    }

    @Test(arguments: [
        (["movies", "popular", "--list", "upcoming"], "--list takes popular, top_rated or now_playing"),
        (["movies", "popular", "--page", "501"], "--page must be from 1 to 500"),
        (["movies", "search", " "], "Give some words of the title"),
        (["movies", "movie", "0"], "Movie ids are positive numbers"),
    ])
    func refusesBadFlags(arguments: [String], message: String) {
        expectRefused(arguments, saying: message)
    }
}
