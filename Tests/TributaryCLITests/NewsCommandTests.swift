import ArgumentParser
import Foundation
import Hummingbird
import NewsAPI
import Testing
import TributarySandbox
import TributaryTestSupport

@testable import TributaryCLI

/// `tributary news` and `tributary sandbox`, run in-process against real sandboxes.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct NewsCommandTests {
    /// Runs `arguments` with `environment`, returning what was printed and the exit code.
    private func run(
        _ arguments: [String],
        environment: [String: String] = [:]
    ) async -> (
        output: String, errors: String, exitCode: ExitCode
    ) {
        let capture = CapturedConsole()
        do {
            let parsed = try TributaryCommand.parseAsRoot(arguments)
            switch parsed {
            case var command as NewsCommand.Headlines:
                command.connection.environment = environment
                try await command.execute(console: capture.console)
            case var command as NewsCommand.Search:
                command.connection.environment = environment
                try await command.execute(console: capture.console)
            case var command as NewsCommand.Sources:
                command.connection.environment = environment
                try await command.execute(console: capture.console)
            default:
                Issue.record("unexpected command \(parsed)")
            }
            return (capture.output, capture.errors, .success)
        } catch {
            let message = TributaryCommand.fullMessage(for: error)
            return (capture.output, capture.errors + message, TributaryCommand.exitCode(for: error))
        }
    }

    @Test func readsHeadlinesFromTheBuiltInSandboxWithoutAKey() async {
        let result = await run(["news", "headlines", "--category", "science", "--page-size", "5"])
        #expect(result.exitCode == .success)
        #expect(
            result.errors.contains("No NEWSAPI_KEY set: reading the built-in sandbox at http://127.0.0.1:")
        )
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("1. ") == true)
        #expect(lines.contains { $0.hasPrefix("5. ") })
        #expect(lines.contains { $0.contains(" · ") && $0.hasSuffix(" ago") })
        #expect(lines.contains { $0.hasPrefix("   https://") })
        #expect(result.output.contains(" of ") && result.output.hasSuffix("articles.\n"))
    }

    @Test func printsTheServersJSONWhenAsked() async throws {
        let result = await run(["news", "search", "swift OR compiler", "--sort", "popularity", "--json"])
        #expect(result.exitCode == .success)
        let page = try JSONDecoder().decode(ArticlesPage.self, from: Data(result.output.utf8))
        #expect(page.articles.count == 20)
        #expect(page.totalResults > 20)
    }

    @Test func talksToTheServerTheBaseURLNames() async throws {
        try await Sandbox.withRunning(.init(apiKeys: ["k1"], seed: 9)) { url in
            let environment = ["NEWSAPI_BASE_URL": url.absoluteString, "NEWSAPI_KEY": "k1"]
            let sources = await run(["news", "sources", "--country", "de"], environment: environment)
            #expect(sources.exitCode == .success)
            #expect(sources.errors.isEmpty)
            #expect(sources.output.contains("(") && sources.output.contains("DE, de)"))

            let paged = await run(
                ["news", "headlines", "--country", "us", "--page", "2", "--page-size", "3"],
                environment: environment
            )
            #expect(paged.output.hasPrefix("4. "))

            // A bare origin means its /v2, with the flag as with the variable.
            let origin = url.deletingLastPathComponent().absoluteString
            for (arguments, variables) in [
                (["--base-url", origin], ["NEWSAPI_KEY": "k1"]),
                ([], ["NEWSAPI_BASE_URL": String(origin.dropLast()), "NEWSAPI_KEY": "k1"]),
            ] {
                let bare = await run(
                    ["news", "headlines", "--country", "us"] + arguments,
                    environment: variables
                )
                #expect(bare.exitCode == .success, "\(bare.errors)")
                #expect(bare.output.hasPrefix("1. "))
            }

            let wrongKey = await run(
                ["news", "headlines"],
                environment: ["NEWSAPI_BASE_URL": url.absoluteString, "NEWSAPI_KEY": "nope"]
            )
            #expect(wrongKey.exitCode == .failure)
            #expect(wrongKey.errors == "error: Your API key is invalid.\n")
            #expect(wrongKey.output.isEmpty)
        }
    }

    @Test func saysWhatIsWrongInOneLine() async {
        let unreachable = await run(
            ["news", "sources"],
            environment: ["NEWSAPI_BASE_URL": "http://127.0.0.1:1/v2"]
        )
        #expect(
            unreachable.errors
                == "error: GET http://127.0.0.1:1/v2/top-headlines/sources could not reach the server: the connection was refused: nothing is listening there.\n"
        )
    }

    /// A "[Removed]" placeholder is left out of --json as of the list, and the JSON says so
    /// beside the `totalResults` that counted it.
    @Test func saysInItsJSONWhatWasRemoved() async throws {
        let article =
            #"{"source": {"id": null, "name": "Example"}, "author": null, "title": "T", "description": null, "url": "https://example.com/a", "urlToImage": null, "publishedAt": "2026-01-01T00:00:00Z", "content": null}"#
        let removed =
            #"{"source": {"id": null, "name": "[Removed]"}, "author": null, "title": "[Removed]", "description": "[Removed]", "url": "https://removed.com", "urlToImage": null, "publishedAt": "1970-01-01T00:00:00Z", "content": "[Removed]"}"#
        let server = FixtureServer([
            "v2/everything": (
                200, #"{"status": "ok", "totalResults": 2, "articles": [\#(article), \#(removed)]}"#
            )
        ])
        let (json, text) = try await server.run { url in
            let environment = [
                "NEWSAPI_BASE_URL": url.appending(path: "v2").absoluteString, "NEWSAPI_KEY": "k",
            ]
            return (
                await run(["news", "search", "t", "--json"], environment: environment).output,
                await run(["news", "search", "t"], environment: environment).output
            )
        }
        #expect(text.hasSuffix("1 of 2 articles; 1 removed left out.\n"), "\(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["totalResults"] as? Int == 2 && object["removedCount"] as? Int == 1)
        #expect((object["articles"] as? [Any])?.count == 1)
    }

    /// A page far past any result is numbered without overflowing, whatever a server answers.
    @Test func numbersAPageFarOnWithoutOverflowing() async throws {
        let router = Router()
        router.get("v2/top-headlines") { _, _ in
            let article =
                #"{"source": {"id": null, "name": "Example"}, "title": "T", "url": "https://example.com/a", "publishedAt": "2026-01-01T00:00:00Z"}"#
            let body = #"{"status": "ok", "totalResults": 2, "articles": [\#(article), \#(article)]}"#
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: body))
            )
        }
        try await withLoopbackServer(router) { url in
            let environment = [
                "NEWSAPI_BASE_URL": url.appendingPathComponent("v2").absoluteString, "NEWSAPI_KEY": "k",
            ]
            for (page, first) in [("9223372036854775807", "9223372036854775807."), ("3", "201.")] {
                let result = await run(
                    ["news", "headlines", "--page", page, "--page-size", "100"],
                    environment: environment
                )
                #expect(result.exitCode == .success)
                #expect(result.output.hasPrefix(first), "\(result.output)")
            }
        }
        #expect(
            NewsFormat.firstNumber(page: 92_233_720_368_547_759, pageSize: 100) == 9_223_372_036_854_775_801
        )
        #expect(NewsFormat.firstNumber(page: 92_233_720_368_547_760, pageSize: 100) == .max)
    }

    @Test(arguments: [
        (["news", "search", "swift", "--in", "body"], "--in takes title, description and content"),
        (["news", "search", "swift", "--from", "last week"], "is not an ISO 8601 date"),
        (["news", "headlines", "--category", "weather"], "The value 'weather' is invalid"),
        (["news", "headlines", "--base-url", "ftp://example.com"], "is not an http or https URL"),
        (
            ["news", "headlines", "--country", "us", "--source", "bbc-news"],
            "error: This request cannot be made: sources cannot be mixed with a country or a category.",
        ),
        (
            ["news", "headlines", "--page", "0"],
            "This request cannot be made: pages are numbered from 1, not 0."
        ),
        (["news", "search", "swift", "--page-size", "500"], "the page size must be from 1 to 100, not 500"),
        (["news", "search", " "], "a search of everything needs a query, sources or domains"),
        (
            ["news", "search", "swift", "--from", "2026-02-01", "--to", "2026-01-01"],
            "the search starts after it ends",
        ),
        (["sandbox", "--failure-rate", "2"], "--failure-rate must be from 0 to 1"),
        (["sandbox", "--port", "70000"], "--port must be from 0 to 65535"),
        (["sandbox", "--now", "yesterday"], "--now must be a date and time such as 2026-01-15T12:00:00Z"),
    ])
    func refusesBadFlags(arguments: [String], message: String) {
        expectRefused(arguments, saying: message)
    }

    @Test func configuresTheSandboxFromItsFlags() throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot([
                "sandbox", "--port", "0", "--api-key", "a", "--api-key", "b", "--daily-quota", "5",
                "--developer-plan", "--latency", "20", "--failure-rate", "0.25", "--seed", "42",
            ]) as? SandboxCommand
        )
        let configuration = command.sandboxConfiguration
        #expect(configuration.apiKeys == ["a", "b"])
        #expect(configuration.dailyQuota == 5)
        #expect(configuration.developerPlan)
        #expect(configuration.latency == .milliseconds(20))
        #expect(configuration.failureRate == 0.25)
        #expect(configuration.seed == 42)
        let dated = try #require(
            try TributaryCommand.parseAsRoot(["sandbox", "--now", "2026-01-15T12:00:00Z"]) as? SandboxCommand
        )
        let start = Date(timeIntervalSince1970: 1_768_478_400)
        let now = dated.sandboxConfiguration.now()
        #expect(now >= start && now.timeIntervalSince(start) < 60)
        #expect(
            Sandbox(configuration: dated.sandboxConfiguration).dataset.referenceDate
                == start.addingTimeInterval(-12 * 3_600)
        )
        let defaults = try #require(try TributaryCommand.parseAsRoot(["sandbox"]) as? SandboxCommand)
        #expect(defaults.sandboxConfiguration.apiKeys == [Sandbox.demoKey])
        #expect(defaults.sandboxConfiguration.port == 8080)
    }
}

@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct NewsFeedCommandTests {
    /// Runs `news feed` on the sandbox's quirky feed `name` with `flags`.
    private func quirk(
        _ name: String,
        _ flags: [String] = []
    ) async throws -> (
        output: String, errors: String, failed: Bool
    ) {
        try await Sandbox.withRunning { url in
            let feed = url.deletingLastPathComponent().appendingPathComponent("feeds/quirks/\(name)")
            let capture = CapturedConsole()
            let command = try #require(
                try TributaryCommand.parseAsRoot(["news", "feed", feed.absoluteString] + flags)
                    as? NewsCommand.Feed
            )
            var failed = false
            do {
                try await command.execute(console: capture.console)
            } catch {
                failed = true
            }
            return (capture.output, capture.errors, failed)
        }
    }

    /// An entry without a title is marked as such in the list, with the start of what it says,
    /// and has none in the JSON.
    @Test func marksAnUntitledEntryAndInventsNoTitle() async throws {
        let listed = try await quirk("sparse-entries.rss")
        #expect(
            listed.output.contains("6. [untitled] Only a description, and no title.\n"),
            "\(listed.output)"
        )
        #expect(listed.output.contains("7. Episode six\n"))
        #expect(listed.output.hasSuffix("\n\n8 entries.\n"))
        let json = try await quirk("sparse-entries.rss", ["--json"])
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        )
        #expect(entries.count == 8 && entries.prefix(6).allSatisfy { $0["title"] is NSNull })
    }

    @Test func printsJSONWithNullForWhatTheFeedDoesNotSay() async throws {
        let hidden = try await quirk("hidden-entries.rss", ["--json"])
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(hidden.output.utf8)) as? [[String: Any]]
        )
        #expect(entries.map { $0["title"] as? String } == ["Titled by Dublin Core", "Episode 12"])
        #expect(entries[1]["url"] is NSNull)
        #expect(entries[0]["publishedAt"] as? String == "2025-11-18T08:00:00Z")

        let dated = try await quirk("dates.rss", ["--json"])
        let dates = try #require(
            try JSONSerialization.jsonObject(with: Data(dated.output.utf8)) as? [[String: Any]]
        )
        #expect(dates.count == 13)
        #expect(dates[0]["publishedAt"] as? String == "2004-01-26T15:31:00Z")
        #expect(dates.suffix(2).allSatisfy { $0["publishedAt"] is NSNull })

        let pictures = try await quirk("guardian.rss", ["--json"])
        #expect(
            pictures.output.contains(#""urlToImage" : "https://i.guim.example/img/1/460.jpg?width=460&s=b""#)
        )
    }

    @Test(arguments: [
        ("gone.rss", "error: 127.0.0.1 has no feed at this address (HTTP 404).\n"),
        ("page.html", "error: This address is a web page, not a feed.\n"),
        ("feed.json", "error: This is a JSON Feed, not an RSS or Atom feed.\n"),
        ("newsml.xml", "error: This is a NewsML document, not an RSS or Atom feed.\n"),
        ("broken.rss", "error: This feed cannot be read: its XML is broken at line 7, column 42.\n"),
    ])
    func saysWhatWentWrong(quirk name: String, message: String) async throws {
        let result = try await quirk(name)
        #expect(result.failed)
        #expect(result.errors == message)
        #expect(!result.errors.contains("news service"))
    }

    @Test(arguments: [
        ("charset-in-header.rss", "Новости"), ("euc-kr.rss", "한국"), ("big5.rss", "中文"), ("gb2312.rss", "中文"),
        ("latin1.rss", "don’t “Q” – é"), ("control-character.rss", "Primera noticia"),
        ("undeclared-media.atom", "Video post"), ("prefixed.rdf", "Prefixed item"),
        ("markup.atom", "Example Atom"), ("euc-jp.rss", "日本"),
    ])
    func readsFeedsStricterReadersReject(quirk name: String, title: String) async throws {
        let result = try await quirk(name)
        #expect(!result.failed)
        #expect(result.output.hasPrefix("1. \(title)\n"))
    }

    @Test func notesWhatItForgave() async throws {
        let result = try await quirk("html-entities.rss")
        #expect(!result.failed)
        #expect(result.output.hasPrefix("1. El Gobierno aprueba\u{A0}el plan de vivienda\n"))
        #expect(result.output.hasSuffix("2 entries.\n"))
        #expect(
            result.errors == """
                note: to read the feed, the reader read the HTML entities \
                &nbsp; &ndash; &hellip; &ntilde;; read 1 bare ampersand as text.

                """
        )
        let rdf = try await quirk("undeclared-dc.rdf")
        #expect(
            rdf.errors
                == "note: to read the feed, the reader declared the namespace prefix dc.\n"
        )
    }

    @Test func listsTheEntriesOfAFeed() async throws {
        try await Sandbox.withRunning { url in
            let feed = url.deletingLastPathComponent().appendingPathComponent("feeds/sports.atom")
            let capture = CapturedConsole()
            let command = try #require(
                try TributaryCommand.parseAsRoot(["news", "feed", feed.absoluteString]) as? NewsCommand.Feed
            )
            try await command.execute(console: capture.console)
            #expect(capture.output.hasPrefix("1. "))
            #expect(capture.output.contains("undated"))
            #expect(capture.output.hasSuffix("20 entries.\n"))

            let missing = url.deletingLastPathComponent().appendingPathComponent("feeds/nothing.rss")
            let failing = try #require(
                try TributaryCommand.parseAsRoot(["news", "feed", missing.absoluteString])
                    as? NewsCommand.Feed
            )
            await #expect(throws: ExitCode.failure) { try await failing.execute(console: capture.console) }
            #expect(capture.errors.hasPrefix("error: "))
        }
    }
}
