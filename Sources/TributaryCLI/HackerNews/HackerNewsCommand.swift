import ArgumentParser
import Foundation
import HackerNews
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributarySandbox

/// `tributary hn`: Hacker News from its official API, or from the built-in sandbox.
struct HackerNewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hn",
        abstract: "Read Hacker News from its API, or from the built-in sandbox.",
        discussion: """
            Without --base-url (HN_BASE_URL), a sandbox starts in this process on a free \
            loopback port and serves generated stories and comments; with \
            --base-url https://hacker-news.firebaseio.com/v0 the stories are the real ones.
            """,
        subcommands: [Top.self, New.self, Best.self, Ask.self, Show.self, Job.self, Item.self, User.self]
    )

    /// Where the stories come from.
    struct Connection: ParsableArguments {
        @Option(
            name: .customLong("base-url"),
            help: "A server that speaks the Hacker News API (HN_BASE_URL)."
        )
        var baseURL: String?

        @Flag(help: "Print the items as JSON, in the API's own fields, instead of a list.")
        var json = false

        var environment: [String: String] = ProcessInfo.processInfo.environment

        enum CodingKeys: CodingKey {
            case baseURL, json
        }

        func validate() throws {
            if let text = baseURL ?? environment["HN_BASE_URL"], NewsCommand.Connection.url(text) == nil {
                throw ValidationError("The base URL \"\(text)\" is not an http or https URL.")
            }
        }

        /// Runs `body` with a client of the server these options name, starting the sandbox
        /// when they name none.
        func withClient<Result: Sendable>(
            console: Console,
            _ body: (HackerNewsClient) async throws -> Result
        ) async throws -> Result {
            if let base = (baseURL ?? environment["HN_BASE_URL"]).flatMap(NewsCommand.Connection.url) {
                return try await Self.withClient(baseURL: base, body)
            }
            return try await Sandbox.withRunning { url in
                let base = url.deletingLastPathComponent().appending(path: "hn/v0")
                console.note("No HN_BASE_URL set: reading the built-in sandbox at \(base).")
                return try await Self.withClient(baseURL: base, body)
            }
        }

        private static func withClient<Result: Sendable>(
            baseURL: URL,
            _ body: (HackerNewsClient) async throws -> Result
        ) async throws -> Result {
            try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(HackerNewsClient(baseURL: baseURL, transport: transport))
            }
        }
    }

    /// The options of the story lists.
    struct ListOptions: ParsableArguments {
        @Option(help: "The page of stories, from 1.")
        var page = 1

        @Option(help: "Stories on a page, 1 to 100.")
        var pageSize = 30

        @Flag(help: "Keep dead and deleted stories in the list, flagged, rather than counting them.")
        var showDead = false

        @OptionGroup var connection: Connection

        func validate() throws {
            guard page >= 1 else { throw ValidationError("--page counts from 1.") }
            guard (1...100).contains(pageSize) else {
                throw ValidationError("--page-size must be from 1 to 100.")
            }
        }

        func show(_ list: StoryList, console: Console) async throws {
            let (number, size, dead) = (page, pageSize, showDead)
            let stories = try await connection.withClient(console: console) { client in
                try await client.stories(list, page: number, pageSize: size, includingDead: dead)
            }
            if connection.json {
                try console.printJSON(HackerNewsFormat.StoriesJSON(stories))
            } else {
                console.print(HackerNewsFormat.stories(stories, now: Date()))
            }
        }
    }

    /// A command that prints a page of one story list.
    protocol ListCommand: AsyncParsableCommand {
        static var list: StoryList { get }
        var options: ListOptions { get }
    }

    struct Top: ListCommand {
        static let configuration = CommandConfiguration(abstract: "The front page's stories.")
        static let list = StoryList.top
        @OptionGroup var options: ListOptions
    }

    struct New: ListCommand {
        static let configuration = CommandConfiguration(abstract: "The newest stories.")
        static let list = StoryList.new
        @OptionGroup var options: ListOptions
    }

    struct Best: ListCommand {
        static let configuration = CommandConfiguration(abstract: "The best stories of late.")
        static let list = StoryList.best
        @OptionGroup var options: ListOptions
    }

    struct Ask: ListCommand {
        static let configuration = CommandConfiguration(abstract: "The latest Ask HN stories.")
        static let list = StoryList.ask
        @OptionGroup var options: ListOptions
    }

    struct Show: ListCommand {
        static let configuration = CommandConfiguration(abstract: "The latest Show HN stories.")
        static let list = StoryList.show
        @OptionGroup var options: ListOptions
    }

    struct Job: ListCommand {
        static let configuration = CommandConfiguration(abstract: "The latest job posts.")
        static let list = StoryList.job
        @OptionGroup var options: ListOptions
    }

    struct Item: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One item: a story, a comment, a job or a poll; with --comments, its replies."
        )

        @Argument(help: "The item's id.")
        var id: Int

        @Flag(help: "Also show the replies, as threads.")
        var comments = false

        @Option(help: "How many levels of replies to show.")
        var depth = 10

        @OptionGroup var connection: Connection

        func validate() throws {
            guard id > 0 else { throw ValidationError("Item ids are positive numbers.") }
            guard (1...50).contains(depth) else { throw ValidationError("--depth must be from 1 to 50.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let (id, comments, depth) = (id, comments, depth)
            let shown = try await connection.withClient(console: console) {
                client -> HackerNewsFormat.ItemView? in
                guard let item = try await client.item(id) else { return nil }
                let poll = item.kind == .poll && !item.parts.isEmpty ? await client.poll(item) : nil
                let thread = comments ? try await client.thread(of: item, maximumDepth: depth) : nil
                return HackerNewsFormat.ItemView(item: item, poll: poll, thread: thread)
            }
            guard let shown else {
                console.note("error: There is no item \(id).")
                throw ExitCode.failure
            }
            if connection.json {
                try console.printJSON(HackerNewsFormat.ItemJSON(shown))
            } else {
                console.print(HackerNewsFormat.item(shown, now: Date()))
            }
        }
    }

    struct User: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A user: karma, about, and what they submitted lately."
        )

        @Argument(help: "The user name, which is case-sensitive.")
        var name: String

        @Option(help: "How many of the latest submissions to show, 0 to 30.")
        var recent = 5

        @OptionGroup var connection: Connection

        func validate() throws {
            guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw ValidationError("User names have no spaces or slashes.")
            }
            guard (0...30).contains(recent) else { throw ValidationError("--recent must be from 0 to 30.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let (name, recent) = (name, recent)
            let found = try await connection.withClient(console: console) {
                client -> (HNUser, [HNItem])? in
                guard let user = try await client.user(name) else { return nil }
                return (user, await client.items(Array(user.submitted.prefix(recent))).items)
            }
            guard let (user, submissions) = found else {
                console.note("error: There is no user \(name).")
                throw ExitCode.failure
            }
            if connection.json {
                try console.printJSON(HackerNewsFormat.UserJSON(user: user, submissions: submissions))
            } else {
                console.print(HackerNewsFormat.user(user, submissions: submissions, now: Date()))
            }
        }
    }
}

extension HackerNewsCommand.ListCommand {
    func run() async throws { try await execute(console: .standard) }

    func execute(console: Console) async throws { try await options.show(Self.list, console: console) }
}
