import ArgumentParser
import Foundation
import HackerNews
import NewsSandbox
import TributaryAsyncHTTPClient
import TributaryHTTP

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
        subcommands: [Top.self, New.self, Best.self, Item.self]
    )

    /// Where the stories come from.
    struct Connection: ParsableArguments {
        @Option(
            name: .customLong("base-url"),
            help: "A server that speaks the Hacker News API (HN_BASE_URL)."
        )
        var baseURL: String?

        var environment: [String: String] = ProcessInfo.processInfo.environment

        enum CodingKeys: CodingKey {
            case baseURL
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
            return try await NewsSandbox.withRunning { url in
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

        @OptionGroup var connection: Connection

        func validate() throws {
            guard page >= 1 else { throw ValidationError("--page counts from 1.") }
            guard (1...100).contains(pageSize) else {
                throw ValidationError("--page-size must be from 1 to 100.")
            }
        }

        func show(_ list: StoryList, console: Console) async throws {
            let (number, size) = (page, pageSize)
            let stories = try await connection.withClient(console: console) { client in
                try await client.stories(list, page: number, pageSize: size)
            }
            console.print(HackerNewsFormat.stories(stories, now: Date()))
        }
    }

    struct Top: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The front page's stories.")
        @OptionGroup var options: ListOptions
        func run() async throws { try await execute(console: .standard) }
        func execute(console: Console) async throws { try await options.show(.top, console: console) }
    }

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The newest stories.")
        @OptionGroup var options: ListOptions
        func run() async throws { try await execute(console: .standard) }
        func execute(console: Console) async throws { try await options.show(.new, console: console) }
    }

    struct Best: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The best stories of late.")
        @OptionGroup var options: ListOptions
        func run() async throws { try await execute(console: .standard) }
        func execute(console: Console) async throws { try await options.show(.best, console: console) }
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
            let (item, replies) = try await connection.withClient(console: console) {
                client -> (HNItem?, [HNComment]) in
                guard let item = try await client.item(id) else { return (nil, []) }
                return (item, comments ? try await client.commentTree(of: item, maximumDepth: depth) : [])
            }
            guard let item else {
                console.note("error: There is no item \(id).")
                throw ExitCode.failure
            }
            console.print(HackerNewsFormat.item(item, comments: comments ? replies : nil, now: Date()))
        }
    }
}

/// How Hacker News is shown in a terminal.
enum HackerNewsFormat {
    /// A numbered list: title and site, then points, author, age and comments, then the link.
    static func stories(_ page: StoryPage, now: Date) -> String {
        guard !page.items.isEmpty else { return "No stories (\(page.totalCount) in the list)." }
        let first = NewsFormat.firstNumber(page: page.page, pageSize: page.pageSize)
        var lines: [String] = []
        for (offset, item) in page.items.enumerated() {
            let label = "\(first.addingReportingOverflow(offset).partialValue)."
            let indent = String(repeating: " ", count: label.count + 1)
            lines.append("\(label) \(item.title ?? "(untitled)")" + (item.site.map { " (\($0))" } ?? ""))
            lines.append(indent + byline(item, now: now))
            lines.append(indent + (item.url?.absoluteString ?? "item \(item.id)"))
        }
        var summary = "\(page.items.count) of \(page.totalCount) stories"
        if page.skippedCount > 0 { summary += "; \(page.skippedCount) missing left out" }
        return lines.joined(separator: "\n") + "\n\n" + summary + "."
    }

    /// An item, its text, and its replies indented by depth.
    static func item(_ item: HNItem, comments: [HNComment]?, now: Date) -> String {
        var lines = [item.title ?? "\(item.kind.rawValue.capitalized) \(item.id)", byline(item, now: now)]
        if let url = item.url { lines.append(url.absoluteString) }
        if let text = item.plainText { lines += ["", text] }
        if let comments {
            lines.append("")
            lines.append(comments.isEmpty ? "No comments." : "\(comments.count) comments:")
            for comment in comments {
                let indent = String(repeating: "  ", count: comment.depth + 1)
                if comment.item.isDeleted {
                    lines.append("\(indent)[deleted]")
                    continue
                }
                let flag = comment.item.isDead ? " [dead]" : ""
                lines.append(
                    "\(indent)\(comment.item.author ?? "?") · \(NewsFormat.age(of: comment.item.time, now: now))\(flag)"
                )
                for paragraph in (comment.item.plainText ?? "").split(separator: "\n")
                where !paragraph.isEmpty {
                    lines.append("\(indent)\(paragraph)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func byline(_ item: HNItem, now: Date) -> String {
        var parts: [String] = []
        if let score = item.score, item.kind != .job {
            parts.append("\(score) point\(score == 1 ? "" : "s")")
        }
        if let author = item.author { parts.append("by \(author)") }
        parts.append(NewsFormat.age(of: item.time, now: now))
        if let descendants = item.descendants {
            parts.append("\(descendants) comment\(descendants == 1 ? "" : "s")")
        }
        return parts.joined(separator: " · ")
    }
}
