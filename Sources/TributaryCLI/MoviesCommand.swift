import ArgumentParser
import Foundation
import NewsSandbox
import TMDb
import TributaryAsyncHTTPClient
import TributaryHTTP

/// `tributary movies`: movies from TMDb, or from the built-in sandbox.
struct MoviesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movies",
        abstract: "Browse movies from TMDb, or from the built-in sandbox.",
        discussion: """
            With TMDB_API_KEY set (a v3 key, or a v4 read access token), the movies come from \
            api.themoviedb.org, or from --base-url (TMDB_BASE_URL). Without a key and without a \
            base URL, a sandbox starts in this process on a free loopback port and serves \
            generated movies.
            """,
        subcommands: [Popular.self, Search.self, Movie.self]
    )

    /// Where the movies come from.
    struct Connection: ParsableArguments {
        @Option(name: .customLong("base-url"), help: "A server that speaks TMDb's v3 API (TMDB_BASE_URL).")
        var baseURL: String?

        @Option(name: .customLong("api-key"), help: "A TMDb v3 key or v4 token (TMDB_API_KEY).")
        var apiKey: String?

        var environment: [String: String] = ProcessInfo.processInfo.environment

        enum CodingKeys: CodingKey {
            case baseURL, apiKey
        }

        func validate() throws {
            if let text = baseURL ?? environment["TMDB_BASE_URL"], NewsCommand.Connection.url(text) == nil {
                throw ValidationError("The base URL \"\(text)\" is not an http or https URL.")
            }
        }

        func withClient<Result: Sendable>(
            console: Console,
            _ body: (TMDbClient) async throws -> Result
        ) async throws -> Result {
            let key = apiKey ?? environment["TMDB_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            let base = (baseURL ?? environment["TMDB_BASE_URL"]).flatMap(NewsCommand.Connection.url)
            if key == nil, base == nil {
                return try await NewsSandbox.withRunning { url in
                    let base = url.deletingLastPathComponent().appending(path: "tmdb/3")
                    console.note("No TMDB_API_KEY set: reading the built-in sandbox at \(base).")
                    return try await Self.withClient(key: NewsSandbox.demoKey, baseURL: base, body)
                }
            }
            return try await Self.withClient(
                key: key ?? NewsSandbox.demoKey,
                baseURL: base ?? TMDbClient.officialBaseURL,
                body
            )
        }

        private static func withClient<Result: Sendable>(
            key: String,
            baseURL: URL,
            _ body: (TMDbClient) async throws -> Result
        ) async throws -> Result {
            // A v4 token is a JWT, three dot-separated parts; a v3 key is 32 hex digits.
            let credential: TMDbClient.Credential =
                key.split(separator: ".").count == 3 ? .bearerToken(key) : .apiKey(key)
            return try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(TMDbClient(credential: credential, baseURL: baseURL, transport: transport))
            }
        }
    }

    struct Popular: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Popular, top rated or now playing movies.")

        @Option(help: "popular, top_rated or now_playing.")
        var list: String = MovieList.popular.rawValue

        @Option(help: "The page, from 1 to 500.")
        var page = 1

        @OptionGroup var connection: Connection

        func validate() throws {
            guard MovieList(rawValue: list) != nil else {
                throw ValidationError("--list takes popular, top_rated or now_playing, not \"\(list)\".")
            }
            guard (1...500).contains(page) else { throw ValidationError("--page must be from 1 to 500.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let (chosen, number) = (MovieList(rawValue: list) ?? .popular, page)
            let (movies, genres) = try await connection.withClient(console: console) { client in
                (try await client.movies(chosen, page: number), try await client.genres())
            }
            console.print(MoviesFormat.page(movies, genres: genres))
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Movies whose titles match.")

        @Argument(help: "Words of the title.")
        var query: String

        @Option(help: "The year the movie came out.")
        var year: Int?

        @OptionGroup var connection: Connection

        func validate() throws {
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("Give some words of the title to search for.")
            }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let (text, year) = (query, year)
            let (movies, genres) = try await connection.withClient(console: console) { client in
                (try await client.search(text, year: year), try await client.genres())
            }
            console.print(MoviesFormat.page(movies, genres: genres))
        }
    }

    struct Movie: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One movie, with its cast and crew.")

        @Argument(help: "The movie's TMDb id.")
        var id: Int

        @OptionGroup var connection: Connection

        func validate() throws {
            guard id > 0 else { throw ValidationError("Movie ids are positive numbers.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let id = id
            let (details, images) = try await connection.withClient(console: console) { client in
                (try await client.movie(id), try await client.images())
            }
            console.print(MoviesFormat.details(details, images: images))
        }
    }
}

/// How movies are shown in a terminal.
enum MoviesFormat {
    static func page(_ page: TMDbPage<TMDb.Movie>, genres: [Genre]) -> String {
        guard !page.results.isEmpty else { return "No movies (\(page.totalResults) in all)." }
        let names = Dictionary(genres.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let first = NewsFormat.firstNumber(page: page.page, pageSize: 20)
        var lines: [String] = []
        for (offset, movie) in page.results.enumerated() {
            let label = "\(first.addingReportingOverflow(offset).partialValue)."
            let indent = String(repeating: " ", count: label.count + 1)
            lines.append("\(label) \(movie.title)" + (movie.year.map { " (\($0))" } ?? ""))
            let kinds = movie.genreIDs.compactMap { names[$0] }.joined(separator: ", ")
            lines.append(
                indent
                    + ["★ \(String(format: "%.1f", movie.voteAverage))", kinds, "id \(movie.id)"].filter {
                        !$0.isEmpty
                    }.joined(separator: " · ")
            )
        }
        return lines.joined(separator: "\n")
            + "\n\nPage \(page.page) of \(page.totalPages); \(page.totalResults) movies."
    }

    static func details(_ details: MovieDetails, images: TMDbImages) -> String {
        let movie = details.movie
        var lines = ["\(movie.title)" + (movie.year.map { " (\($0))" } ?? "")]
        var facts = details.genres.map(\.name)
        if let runtime = details.runtime { facts.append("\(runtime) min") }
        facts.append("★ \(String(format: "%.1f", movie.voteAverage)) from \(movie.voteCount) votes")
        lines.append(facts.joined(separator: " · "))
        if let tagline = details.tagline, !tagline.isEmpty { lines.append(tagline) }
        lines += ["", movie.overview]
        if !details.directors.isEmpty {
            lines += ["", "Directed by \(details.directors.joined(separator: ", "))"]
        }
        if let cast = details.credits?.cast.sorted(by: { $0.order < $1.order }).prefix(5), !cast.isEmpty {
            lines.append("Starring " + cast.map { "\($0.name) as \($0.character)" }.joined(separator: ", "))
        }
        if let poster = images.url(poster: movie.posterPath, width: 342) {
            lines += ["", "Poster: \(poster.absoluteString)"]
        }
        return lines.joined(separator: "\n")
    }
}
