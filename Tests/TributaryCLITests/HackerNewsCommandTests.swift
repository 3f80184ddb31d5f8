import ArgumentParser
import Foundation
import HackerNews
import Testing
import TributarySandbox
import TributaryTestSupport

@testable import TributaryCLI

/// `tributary hn`, run in-process against the sandbox it starts.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct HackerNewsCommandTests {
    @Test func listsTheFrontPageFromTheBuiltInSandbox() async throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot(["hn", "top", "--page-size", "5"]) as? HackerNewsCommand.Top
        )
        let capture = CapturedConsole()
        try await command.execute(console: capture.console)
        #expect(
            capture.errors.contains("No HN_BASE_URL set: reading the built-in sandbox at http://127.0.0.1:")
        )
        let lines = capture.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("1. ") == true)
        #expect(lines.contains { $0.contains(" points · by ") && $0.contains(" ago") })
        #expect(capture.output.contains(" of 500 stories"))
    }

    @Test func showsAnItemWithItsThreads() async throws {
        // The sandbox's items are the same on every day: a story with replies two levels deep.
        let dataset = HNDataset(seed: 1, storyCount: 600)
        let decoder = JSONDecoder()
        func item(_ id: Int) throws -> HNItem? {
            try decoder.decode(HNItem?.self, from: dataset.answer("item/\(id).json") ?? Data())
        }
        let ids = try decoder.decode([Int].self, from: dataset.answer("topstories.json") ?? Data())
        let story = try #require(
            try ids.compactMap(item).first { $0.kids.count > 1 && ($0.descendants ?? 0) > $0.kids.count }
        )
        let item = try #require(
            try TributaryCommand.parseAsRoot(["hn", "item", "\(story.id)", "--comments", "--depth", "20"])
                as? HackerNewsCommand.Item
        )
        let capture = CapturedConsole()
        try await item.execute(console: capture.console)
        let lines = capture.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == story.title)
        #expect(lines.contains { $0 == "\(story.descendants ?? 0) comments:" })
        // Replies to replies are indented one step further.
        #expect(lines.contains { $0.hasPrefix("  ") && !$0.hasPrefix("    ") })
        #expect(lines.contains { $0.hasPrefix("    ") })
        #expect(!capture.output.contains("<p>") && !capture.output.contains("&amp;"))
    }

    @Test func saysWhenThereIsNoSuchItem() async throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot(["hn", "item", "7"]) as? HackerNewsCommand.Item
        )
        let capture = CapturedConsole()
        await #expect(throws: ExitCode.failure) { try await command.execute(console: capture.console) }
        #expect(capture.errors.contains("error: There is no item 7."))
    }

    /// Runs `arguments` against `server`, named by --base-url, and returns what it wrote.
    private func run(_ arguments: [String], on server: FixtureServer) async throws -> CapturedConsole {
        try await server.run { url in
            let capture = CapturedConsole()
            let all = arguments + ["--base-url", url.appending(path: "v0").absoluteString]
            switch try TributaryCommand.parseAsRoot(all) {
            case let command as any HackerNewsCommand.ListCommand:
                try await command.execute(console: capture.console)
            case let command as HackerNewsCommand.Item: try await command.execute(console: capture.console)
            case let command as HackerNewsCommand.User: try await command.execute(console: capture.console)
            case let command: Issue.record("\(command) is not run here")
            }
            return capture
        }
    }

    /// The documentation's poll, with its options: each option shows with its votes.
    @Test func showsAPollWithItsOptionsAndScores() async throws {
        let option = { (id: Int, score: Int, text: String) in
            (
                200,
                #"{"by":"pg","id":\#(id),"poll":126809,"score":\#(score),"text":"\#(text)","time":1204403652,"type":"pollopt"}"#
            )
        }
        let server = FixtureServer([
            "v0/item/126809.json": (
                200,
                #"{"by":"pg","descendants":54,"id":126809,"kids":[126822],"parts":[126810,126811,126812],"score":46,"text":"","time":1204403652,"title":"Poll: What would happen if News.YC had explicit support for polls?","type":"poll"}"#
            ),
            "v0/item/126810.json": option(126810, 335, "Yes, ban them; I&#x27;m tired of it."),
            "v0/item/126811.json": option(126811, 12, "No"),
            "v0/item/126812.json": option(126812, 7, "Maybe"),
        ])
        let output = try await run(["hn", "item", "126809"], on: server).output
        #expect(
            output.hasPrefix("Poll: What would happen if News.YC had explicit support for polls?\n46 points")
        )
        #expect(output.contains("discuss: https://news.ycombinator.com/item?id=126809"))
        #expect(
            output.contains(
                """
                Options:
                  335 points  Yes, ban them; I'm tired of it.
                   12 points  No
                    7 points  Maybe
                  (3 options, 354 points in all)
                """
            ),
            "\(output)"
        )
    }

    /// Every reply refused: the story is printed, and the failure is said with Firebase's words.
    @Test func printsTheStoryWhenItsRepliesCannotBeRead() async throws {
        let denied = (401, #"{"error" : "Permission denied"}"#)
        let server = FixtureServer([
            "v0/item/8863.json": (
                200,
                #"{"by":"dhouston","descendants":71,"id":8863,"kids":[8952,9224],"score":111,"time":1175714200,"title":"My YC app: Dropbox - Throw away your USB drive","type":"story","url":"http://www.getdropbox.com/u/2/screencast.html"}"#
            ),
            "v0/item/8952.json": denied,
            "v0/item/9224.json": denied,
        ])
        let output = try await run(["hn", "item", "8863", "--comments"], on: server).output
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "My YC app: Dropbox - Throw away your USB drive")
        #expect(lines.contains("http://www.getdropbox.com/u/2/screencast.html"))
        #expect(lines.contains("discuss: https://news.ycombinator.com/item?id=8863"))
        #expect(lines.contains("No comments."))
        #expect(lines.contains("2 replies could not be loaded: HTTP 401: Permission denied."), "\(output)")
    }

    /// A job's preformatted lists keep their lines; a shortened link shows its whole target.
    @Test func keepsAJobsListsAndShowsFullLinks() async throws {
        let server = FixtureServer([
            "v0/item/192327.json": (
                200,
                #"{"by":"justin","id":192327,"score":6,"text":"Responsibilities<p><pre><code>    * Contribute to product design\n    * Implement projects\n</code></pre>\nSee <a href=\"https:&#x2F;&#x2F;github.com&#x2F;justin&#x2F;tv&#x2F;src&#x2F;index.tsx\" rel=\"nofollow\">https:&#x2F;&#x2F;github.com&#x2F;justin&#x2F;tv&#x2F;src&#x2F;index.t...</a>","time":1210981217,"title":"Justin.tv is looking for a Lead Flash Engineer!","type":"job","url":""}"#
            )
        ])
        let output = try await run(["hn", "item", "192327"], on: server).output
        #expect(
            output.contains(
                "Responsibilities\n\n    * Contribute to product design\n    * Implement projects\n\nSee https://github.com/justin/tv/src/index.tsx"
            ),
            "\(output)"
        )
        #expect(!output.contains("index.t..."))
    }

    /// A page whose every id is `null` says they are missing, not that the list is empty.
    @Test func saysWhenEveryStoryOnAPageIsMissing() async throws {
        let ids = (1...10).map { 40_000_000 + $0 }
        let server = FixtureServer([
            "v0/topstories.json": (200, "[\(ids.map(String.init).joined(separator: ","))]")
        ])
        let output = try await run(["hn", "top", "--page-size", "10"], on: server).output
        #expect(
            output
                == "None of the 10 stories on page 1 can be shown: 10 missing (the API has no item for them).\n"
        )
    }

    /// A dead story is left out with a count, and with --show-dead it is there, flagged; a
    /// dead story that lost its title says what it is.
    @Test func leavesDeadStoriesOutUnlessAsked() async throws {
        let server = FixtureServer([
            "v0/newstories.json": (200, "[8863, 41000002]"),
            "v0/item/8863.json": (
                200,
                #"{"by":"dhouston","descendants":0,"id":8863,"score":111,"time":1175714200,"title":"My YC app","type":"story","url":"http://www.getdropbox.com/"}"#
            ),
            "v0/item/41000002.json": (
                200,
                #"{"by":"spammer","dead":true,"id":41000002,"score":1,"time":1714000000,"type":"story"}"#
            ),
        ])
        let hidden = try await run(["hn", "new"], on: server).output
        #expect(hidden.contains("1. My YC app (getdropbox.com)"))
        #expect(!hidden.contains("2. "))
        #expect(hidden.hasSuffix("1 of 2 stories; 1 dead or deleted left out (--show-dead shows it).\n"))
        let shown = try await run(["hn", "new", "--show-dead"], on: server).output
        #expect(shown.contains("2. [dead] Story 41000002\n   1 point · by spammer"))
        #expect(!shown.contains("(untitled)"))
    }

    /// A deleted or dead item says what it is rather than showing as an empty one.
    @Test func saysWhenAnItemIsDeadOrDeleted() async throws {
        let server = FixtureServer([
            "v0/item/41000003.json": (
                200, #"{"deleted":true,"id":41000003,"parent":8863,"time":1714000000,"type":"comment"}"#
            ),
            "v0/item/41000004.json": (
                200,
                #"{"by":"troll","dead":true,"id":41000004,"parent":8863,"text":"Flagged words.","time":1714000000,"type":"comment"}"#
            ),
        ])
        let deleted = try await run(["hn", "item", "41000003"], on: server).output
        #expect(deleted.hasPrefix("[deleted] Comment 41000003\n"), "\(deleted)")
        let dead = try await run(["hn", "item", "41000004"], on: server).output
        #expect(dead.hasPrefix("[dead] Comment 41000004\nby troll · "), "\(dead)")
        #expect(dead.hasSuffix("\n\nFlagged words.\n"))
    }

    @Test func showsAUser() async throws {
        let server = FixtureServer([
            "v0/user/jl.json": (
                200,
                #"{"about":"This is a test","created":1173923446,"delay":0,"id":"jl","karma":2937,"submitted":[8863,2921983]}"#
            ),
            "v0/item/8863.json": (
                200,
                #"{"by":"jl","id":8863,"score":111,"time":1175714200,"title":"My YC app","type":"story"}"#
            ),
            "v0/item/2921983.json": (
                200,
                #"{"by":"jl","id":2921983,"parent":2921506,"text":"Aw shucks","time":1314211127,"type":"comment"}"#
            ),
        ])
        let output = try await run(["hn", "user", "jl", "--recent", "2"], on: server).output
        #expect(output.hasPrefix("jl\n2937 karma · joined 2007-03-15 ("))
        #expect(
            output.contains("https://news.ycombinator.com/user?id=jl\n\nThis is a test\n\n2 submissions.")
        )
        #expect(output.contains("  8863  My YC app · "))
        #expect(output.contains("  2921983  comment on 2921506 · "))
    }

    /// Ask, Show and job lists come from the sandbox like the others.
    @Test(arguments: [("ask", "Ask HN: "), ("show", "Show HN: "), ("job", " is hiring ")])
    func listsAskShowAndJobs(list: String, marker: String) async throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot(["hn", list, "--page-size", "3"])
                as? any HackerNewsCommand.ListCommand
        )
        let capture = CapturedConsole()
        try await command.execute(console: capture.console)
        let titles = capture.output.split(separator: "\n").filter { $0.prefixMatch(of: #/\d+\. /#) != nil }
        #expect(!titles.isEmpty && titles.allSatisfy { $0.contains(marker) }, "\(capture.output)")
    }

    @Test(arguments: [
        (["hn", "top", "--page", "0"], "--page counts from 1"),
        (["hn", "new", "--page-size", "500"], "--page-size must be from 1 to 100"),
        (["hn", "item", "0"], "Item ids are positive numbers"),
        (["hn", "best", "--base-url", "ftp://x"], "is not an http or https URL"),
        (["hn", "user", "a b"], "User names have no spaces or slashes"),
        (["hn", "user", "pg", "--recent", "31"], "--recent must be from 0 to 30"),
    ])
    func refusesBadFlags(arguments: [String], message: String) {
        expectRefused(arguments, saying: message)
    }
}
