public import ArgumentParser
import Foundation
public import NewsAPI
import TributaryAsyncHTTPClient
import TributaryFeeds
import TributaryHTTP
import TributarySandbox

/// `tributary news`: headlines, searches and sources from NewsAPI or the sandbox.
struct NewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "news",
        abstract: "Read the news from NewsAPI.org, or from the built-in sandbox.",
        discussion: """
            With NEWSAPI_KEY set, the news comes from newsapi.org, or from --base-url \
            (NEWSAPI_BASE_URL). Without a key and without a base URL, a sandbox starts in this \
            process on a free loopback port and serves generated news.
            """,
        subcommands: [Headlines.self, Search.self, Sources.self, Feed.self]
    )

    /// Where the news comes from, and how it is shown.
    struct Connection: ParsableArguments {
        @Option(
            name: .customLong("base-url"),
            help: "A server that speaks the NewsAPI protocol (NEWSAPI_BASE_URL)."
        )
        var baseURL: String?

        @Option(name: .customLong("api-key"), help: "The NewsAPI key (NEWSAPI_KEY).")
        var apiKey: String?

        @Flag(help: "Print the server's JSON instead of a list.")
        var json = false

        var environment: [String: String] = ProcessInfo.processInfo.environment

        enum CodingKeys: CodingKey {
            case baseURL, apiKey, json
        }

        func validate() throws {
            if let text = baseURL ?? environment["NEWSAPI_BASE_URL"], Self.url(text) == nil {
                throw ValidationError("The base URL \"\(text)\" is not an http or https URL.")
            }
        }

        static func url(_ text: String) -> URL? {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else { return nil }
            return url
        }

        /// Runs `body` with a client of the server these options name, starting the sandbox
        /// when they name none.
        func withClient<Result: Sendable>(
            console: Console,
            _ body: (NewsClient) async throws -> Result
        ) async throws -> Result {
            let key = apiKey ?? environment["NEWSAPI_KEY"].flatMap { $0.isEmpty ? nil : $0 }
            let base = (baseURL ?? environment["NEWSAPI_BASE_URL"]).flatMap(Self.url)
            if key == nil, base == nil {
                return try await Sandbox.withRunning { url in
                    console.note("No NEWSAPI_KEY set: reading the built-in sandbox at \(url).")
                    return try await Self.withClient(key: Sandbox.demoKey, baseURL: url, body)
                }
            }
            return try await Self.withClient(
                key: key ?? Sandbox.demoKey,
                baseURL: base ?? NewsClient.newsAPIBaseURL,
                body
            )
        }

        private static func withClient<Result: Sendable>(
            key: String,
            baseURL: URL,
            _ body: (NewsClient) async throws -> Result
        ) async throws -> Result {
            try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(NewsClient(apiKey: key, baseURL: baseURL, transport: transport))
            }
        }
    }

    struct Paging: ParsableArguments {
        @Option(help: "The page of results, from 1.")
        var page = 1

        @Option(help: "Results on a page, 1 to 100.")
        var pageSize = 20

        var value: NewsEndpoint.Paging { .init(page: page, pageSize: pageSize) }
    }

    struct Headlines: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Top headlines by country, category or source."
        )

        @Option(help: "A two-letter country code, such as us or de.")
        var country: String?

        // ArgumentParser lists the values itself.
        @Option(help: "The category of the headlines.")
        var category: NewsCategory?

        @Option(help: "Source ids, separated by commas.")
        var source: String?

        @Option(help: "Keywords to look for.")
        var query: String?

        @OptionGroup var paging: Paging
        @OptionGroup var connection: Connection

        func validate() throws {
            try refuseInvalid(endpoint)
        }

        private var endpoint: NewsEndpoint {
            let sources = source.map { $0.split(separator: ",").map(String.init) } ?? []
            // With nothing chosen, the headlines of the United States, as NewsAPI's examples.
            let country = country ?? (category == nil && sources.isEmpty && query == nil ? "us" : nil)
            return .topHeadlines(
                .init(
                    country: country,
                    category: category,
                    sources: sources,
                    query: query,
                    paging: paging.value
                )
            )
        }

        func run() async throws {
            try await execute(console: .standard)
        }

        func execute(console: Console) async throws {
            try await showArticles(endpoint, connection: connection, console: console)
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Search every article.",
            discussion: """
                QUERY takes NewsAPI's syntax: "exact phrase", +must, -mustNot, AND, OR, NOT and \
                parentheses.
                """
        )

        @Argument(help: "What to search for.")
        var query: String

        @Option(
            name: .customLong("in"),
            help: "Fields to search, separated by commas: title, description, content."
        )
        var searchIn: String?

        @Option(help: "The oldest date, ISO 8601 (2026-01-10 or 2026-01-10T08:00:00Z).")
        var from: String?

        @Option(help: "The newest date, ISO 8601.")
        var to: String?

        @Option(help: "relevancy, popularity or publishedAt.")
        var sort: NewsEndpoint.SortOrder?

        @Option(help: "A two-letter language code, such as en.")
        var language: String?

        @OptionGroup var paging: Paging
        @OptionGroup var connection: Connection

        func validate() throws {
            for field in fields where NewsEndpoint.SearchField(rawValue: field) == nil {
                throw ValidationError("--in takes title, description and content, not \"\(field)\".")
            }
            for (name, value) in [("--from", from), ("--to", to)] {
                if let value, ISO8601Date.parse(value) == nil {
                    throw ValidationError("\(name) \"\(value)\" is not an ISO 8601 date.")
                }
            }
            try refuseInvalid(endpoint)
        }

        private var fields: [String] {
            (searchIn ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }

        func run() async throws {
            try await execute(console: .standard)
        }

        private var endpoint: NewsEndpoint {
            .everything(
                .init(
                    query: query,
                    searchIn: fields.compactMap(NewsEndpoint.SearchField.init(rawValue:)),
                    from: from.flatMap(ISO8601Date.parse),
                    to: to.flatMap(ISO8601Date.parse),
                    language: language,
                    sortBy: sort,
                    paging: paging.value
                )
            )
        }

        func execute(console: Console) async throws {
            try await showArticles(endpoint, connection: connection, console: console)
        }
    }

    struct Sources: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The sources headlines come from.")

        @Option(help: "A two-letter country code.")
        var country: String?

        @Option(help: "The category of the sources.")
        var category: NewsCategory?

        @Option(help: "A two-letter language code.")
        var language: String?

        @OptionGroup var connection: Connection

        func run() async throws {
            try await execute(console: .standard)
        }

        func execute(console: Console) async throws {
            let query = NewsEndpoint.Sources(country: country, category: category, language: language)
            let sources = try await reporting(console) {
                try await connection.withClient(console: console) { try await $0.sources(query) }
            }
            if connection.json {
                try console.printJSON(SourcesPage(sources: sources))
            } else {
                console.print(NewsFormat.sources(sources))
            }
        }
    }
}

extension NewsCommand {
    struct Feed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the entries of an RSS or Atom feed.",
            discussion: """
                A running sandbox serves feeds at /feeds/CATEGORY.rss and /feeds/CATEGORY.atom, and the \
                awkward shapes real publishers send at /feeds/quirks/NAME (an unknown NAME lists them). \
                Flaws the reader forgave to read a feed are noted on standard error.
                """
        )

        @Argument(help: "The feed's http or https URL.")
        var url: String

        @Flag(
            help: "Print the entries as JSON articles; what the feed does not say (a date, a link) is null."
        )
        var json = false

        func validate() throws {
            if Connection.url(url) == nil {
                throw ValidationError("\"\(url)\" is not an http or https URL.")
            }
        }

        func run() async throws {
            try await execute(console: .standard)
        }

        func execute(console: Console) async throws {
            let url = Connection.url(url)!
            let feed = try await reporting(console) {
                try await AsyncHTTPClientTransport.withTransport { transport in
                    try await NewsClient(apiKey: nil, transport: transport).feed(url)
                }
            }
            let entries = feed.entries
            if let note = NewsFormat.forgiven(feed.forgiven) { console.note(note) }
            if json {
                try console.printJSON(entries.map(NewsFormat.FeedArticle.init))
            } else {
                console.print(NewsFormat.entries(entries, now: Date()))
            }
        }
    }
}

/// Fetches and prints a page of articles.
private func showArticles(
    _ endpoint: NewsEndpoint,
    connection: NewsCommand.Connection,
    console: Console
)
    async throws
{
    let page = try await reporting(console) {
        try await connection.withClient(console: console) { try await $0.articles(endpoint) }
    }
    if connection.json {
        try console.printJSON(page)
    } else {
        let paging = endpoint.paging ?? .init()
        let first = NewsFormat.firstNumber(
            page: paging.page ?? 1,
            pageSize: paging.pageSize ?? page.receivedCount
        )
        console.print(NewsFormat.articles(page, numberedFrom: first, now: Date()))
    }
}

/// Refuses a request NewsAPI would refuse, while the flags are checked: before a sandbox starts
/// or anything is sent.
private func refuseInvalid(_ endpoint: NewsEndpoint) throws {
    do {
        try endpoint.validate()
    } catch {
        guard case .invalidRequest(let reason) = error.kind else { throw error }
        throw ValidationError("This request cannot be made: \(reason).")
    }
}

/// Runs `body`, turning a NewsAPI failure into one line on standard error and exit code 1.
///
/// A server that cannot be reached or does not answer in time is named with the request and
/// the cause, in the words every command uses for it (``APIError``'s own, which `hn` and
/// `movies` print too); other failures keep the news service's alert-ready sentence.
private func reporting<Result>(_ console: Console, _ body: () async throws -> Result) async throws -> Result {
    do {
        return try await body()
    } catch let error as NewsError {
        if case .http(let failure) = error.kind, failure.isUnanswered {
            console.note("error: \(failure.description)")
        } else {
            console.note("error: \(error.alertMessage)")
        }
        throw ExitCode.failure
    }
}

extension APIError {
    /// Whether the server never answered: it could not be reached, or took too long.
    var isUnanswered: Bool {
        switch kind {
        case .transport, .timedOut: true
        default: false
        }
    }
}

extension NewsCategory: ExpressibleByArgument {}
extension NewsEndpoint.SortOrder: ExpressibleByArgument {}
