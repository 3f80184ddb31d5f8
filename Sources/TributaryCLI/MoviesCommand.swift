import ArgumentParser
import Foundation
import TMDb
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributarySandbox

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
        subcommands: [Popular.self, Upcoming.self, Search.self, Movie.self]
    )

    /// Where the movies come from.
    struct Connection: ParsableArguments {
        @Option(name: .customLong("base-url"), help: "A server that speaks TMDb's v3 API (TMDB_BASE_URL).")
        var baseURL: String?

        @Option(name: .customLong("api-key"), help: "A TMDb v3 key or v4 token (TMDB_API_KEY).")
        var apiKey: String?

        @Option(help: "The language of titles and overviews, such as en-US, ja-JP or de.")
        var language: String?

        @Option(help: "The country whose release dates count, such as US or JP.")
        var region: String?

        @Flag(help: "Print the server's JSON instead of a list.")
        var json = false

        var environment: [String: String] = ProcessInfo.processInfo.environment

        enum CodingKeys: CodingKey {
            case baseURL, apiKey, language, region, json
        }

        func validate() throws {
            if let text = baseURL ?? environment["TMDB_BASE_URL"], NewsCommand.Connection.url(text) == nil {
                throw ValidationError("The base URL \"\(text)\" is not an http or https URL.")
            }
            if let language, language.wholeMatch(of: /[a-z]{2}(-[A-Z]{2})?/) == nil {
                throw ValidationError(
                    "--language takes a code such as en, en-US or ja-JP, not \"\(language)\"."
                )
            }
            if let region, region.wholeMatch(of: /[A-Za-z]{2}/) == nil {
                throw ValidationError(
                    "--region takes a two-letter country code such as US or JP, not \"\(region)\"."
                )
            }
        }

        /// The language and region these options ask for.
        var locale: TMDbLocale { TMDbLocale(language: language, region: region?.uppercased()) }

        func withClient<Result: Sendable>(
            console: Console,
            _ body: (TMDbClient) async throws -> Result
        ) async throws -> Result {
            let key = apiKey ?? environment["TMDB_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            let base = (baseURL ?? environment["TMDB_BASE_URL"]).flatMap(NewsCommand.Connection.url)
            let locale = locale
            if key == nil, base == nil {
                return try await Sandbox.withRunning { url in
                    let base = url.deletingLastPathComponent().appending(path: "tmdb/3")
                    console.note("No TMDB_API_KEY set: reading the built-in sandbox at \(base).")
                    return try await Self.withClient(
                        key: Sandbox.demoKey,
                        baseURL: base,
                        locale: locale,
                        body
                    )
                }
            }
            return try await Self.withClient(
                key: key ?? Sandbox.demoKey,
                baseURL: base ?? TMDbClient.officialBaseURL,
                locale: locale,
                body
            )
        }

        private static func withClient<Result: Sendable>(
            key: String,
            baseURL: URL,
            locale: TMDbLocale,
            _ body: (TMDbClient) async throws -> Result
        ) async throws -> Result {
            // A v4 token is a JWT, three dot-separated parts; a v3 key is 32 hex digits.
            let credential: TMDbClient.Credential =
                key.split(separator: ".").count == 3 ? .bearerToken(key) : .apiKey(key)
            return try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(
                    TMDbClient(credential: credential, baseURL: baseURL, transport: transport, locale: locale)
                )
            }
        }
    }

    struct Popular: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Popular, top rated, now playing or upcoming movies."
        )

        @Option(help: "popular, top_rated, now_playing or upcoming.")
        var list: String = MovieList.popular.rawValue

        @Option(help: "The page, from 1 to 500.")
        var page = 1

        @OptionGroup var connection: Connection

        func validate() throws {
            guard MovieList(rawValue: list) != nil else {
                throw ValidationError(
                    "--list takes popular, top_rated, now_playing or upcoming, not \"\(list)\"."
                )
            }
            guard (1...500).contains(page) else { throw ValidationError("--page must be from 1 to 500.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            try await showList(
                MovieList(rawValue: list) ?? .popular,
                page: page,
                connection: connection,
                console: console
            )
        }
    }

    struct Upcoming: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Movies coming to theatres soon.")

        @Option(help: "The page, from 1 to 500.")
        var page = 1

        @OptionGroup var connection: Connection

        func validate() throws {
            guard (1...500).contains(page) else { throw ValidationError("--page must be from 1 to 500.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            try await showList(.upcoming, page: page, connection: connection, console: console)
        }
    }

    /// Prints a page of `list` with its genres named.
    private static func showList(
        _ list: MovieList,
        page: Int,
        connection: Connection,
        console: Console
    ) async throws {
        let (movies, genres) = try await connection.withClient(console: console) { client in
            (try await client.movies(list, page: page), try await client.genres())
        }
        if connection.json {
            try console.printJSON(movies)
        } else {
            console.print(MoviesFormat.page(movies, genres: genres, list: list))
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Movies whose titles match.")

        @Argument(help: "Words of the title.")
        var query: String

        @Option(help: "The year the movie came out.")
        var year: Int?

        @Option(help: "The page of results, from 1 to 500.")
        var page = 1

        @OptionGroup var connection: Connection

        func validate() throws {
            guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("Give some words of the title to search for.")
            }
            guard (1...500).contains(page) else { throw ValidationError("--page must be from 1 to 500.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let (text, year, page) = (query, year, page)
            let (movies, genres) = try await connection.withClient(console: console) { client in
                (try await client.search(text, year: year, page: page), try await client.genres())
            }
            if connection.json {
                try console.printJSON(movies)
            } else {
                console.print(MoviesFormat.page(movies, genres: genres, list: nil))
            }
        }
    }

    struct Movie: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One movie, with its cast and crew.")

        @Argument(help: "The movie's TMDb id.")
        var id: Int

        @Option(help: "How many of the cast to name, in billing order, 0 to 500.")
        var cast = 5

        @OptionGroup var connection: Connection

        func validate() throws {
            guard id > 0 else { throw ValidationError("Movie ids are positive numbers.") }
            guard (0...500).contains(cast) else { throw ValidationError("--cast must be from 0 to 500.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let id = id
            let found = try await connection.withClient(console: console) {
                client -> (MovieDetails, TMDbImages)? in
                do throws(APIError) {
                    return (try await client.movie(id), try await client.images())
                } catch  where error.statusCode == 404 {
                    // TMDb answers 404 for an id that names no movie.
                    return nil
                }
            }
            guard let (details, images) = found else {
                console.note("error: There is no movie \(id).")
                throw ExitCode.failure
            }
            if connection.json {
                try console.printJSON(details)
            } else {
                console.print(MoviesFormat.details(details, images: images, castCount: cast))
            }
        }
    }
}

/// How movies are shown in a terminal.
enum MoviesFormat {
    /// A numbered list: title, original title and year, then rating, genres and id; then the
    /// page, and the days a now playing or upcoming list spans.
    static func page(_ page: TMDbPage<TMDb.Movie>, genres: [Genre], list: MovieList?) -> String {
        guard !page.results.isEmpty else { return "No movies (\(page.totalResults) in all)." }
        let names = Dictionary(genres.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let first = NewsFormat.firstNumber(page: page.page, pageSize: 20)
        var lines: [String] = []
        for (offset, movie) in page.results.enumerated() {
            let label = "\(first.addingReportingOverflow(offset).partialValue)."
            let indent = String(repeating: " ", count: label.count + 1)
            lines.append("\(label) \(title(of: movie))")
            let kinds = movie.genreIDs.compactMap { names[$0] }.joined(separator: ", ")
            lines.append(
                indent
                    + [rating(of: movie), kinds, "id \(movie.id)"].filter { !$0.isEmpty }.joined(
                        separator: " · "
                    )
            )
        }
        let count = page.totalResults
        var summary = "Page \(page.page) of \(page.totalPages); \(counted(count, "movie"))"
        if let dates = page.dates {
            let span = "\(dates.minimum) to \(dates.maximum)"
            summary += list == .upcoming ? ", opening \(span)" : ", in theatres \(span)"
        }
        if page.skippedCount > 0 { summary += "; \(page.skippedCount) unreadable left out" }
        return lines.joined(separator: "\n") + "\n\n" + summary + "."
    }

    /// A movie: title, original title, facts, status and release date, tagline, overview,
    /// director, cast, poster.
    static func details(_ details: MovieDetails, images: TMDbImages, castCount: Int = 5) -> String {
        let movie = details.movie
        var lines = [title(of: movie, original: false)]
        if let original = movie.distinctOriginalTitle { lines.append("Original title: \(original)") }
        var facts = details.genres.map(\.name)
        if let runtime = details.runtime { facts.append("\(runtime) min") }
        facts.append(
            movie.rating.map {
                "★ \(String(format: "%.1f", $0)) from \(counted(movie.voteCount, "vote"))"
            }
                ?? "not yet rated"
        )
        lines.append(facts.joined(separator: " · "))
        let released =
            movie.releaseDate.map { "release date \($0.formatted(.iso8601.year().month().day()))" }
            ?? "release date unknown"
        lines.append([details.status, released].compactMap { $0 }.joined(separator: " · "))
        if let tagline = details.tagline { lines.append(tagline) }
        let overview = movie.overview.trimmingCharacters(in: .whitespacesAndNewlines)
        if !overview.isEmpty { lines += ["", overview] }
        var credits: [String] = []
        if !details.directors.isEmpty {
            credits.append("Directed by \(details.directors.joined(separator: ", "))")
        }
        let billed = details.credits?.billedCast ?? []
        if castCount > 0, !billed.isEmpty {
            let named = billed.prefix(castCount).map { member in
                member.character.map { "\(member.name) as \($0)" } ?? member.name
            }
            let more = billed.count - named.count
            credits.append(
                "Starring " + named.joined(separator: ", ")
                    + (more > 0 ? "; \(more) more (--cast \(billed.count) names them all)" : "")
            )
        }
        if !credits.isEmpty { lines += [""] + credits }
        if let poster = images.url(poster: movie.posterPath, width: 342) {
            lines += ["", "Poster: \(poster.absoluteString)"]
        }
        return lines.joined(separator: "\n")
    }

    /// The title, the original one beside it when it differs, and the year.
    private static func title(of movie: TMDb.Movie, original: Bool = true) -> String {
        var text = movie.title.isEmpty ? (movie.originalTitle ?? "(untitled)") : movie.title
        if original, let other = movie.distinctOriginalTitle { text += " · \(other)" }
        return text + (movie.year.map { " (\($0))" } ?? "")
    }

    /// The average vote, or "unrated" when nobody has voted.
    private static func rating(of movie: TMDb.Movie) -> String {
        movie.rating.map { "★ \(String(format: "%.1f", $0))" } ?? "unrated"
    }
}
