import ArgumentParser
import Foundation
import HackerNews
import NewsSandbox
import Testing

@testable import TributaryCLI

/// `tributary hn`, run in-process against the sandbox it starts.
@Suite(.timeLimit(.minutes(1)))
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

    @Test(arguments: [
        (["hn", "top", "--page", "0"], "--page counts from 1"),
        (["hn", "new", "--page-size", "500"], "--page-size must be from 1 to 100"),
        (["hn", "item", "0"], "Item ids are positive numbers"),
        (["hn", "best", "--base-url", "ftp://x"], "is not an http or https URL"),
    ])
    func refusesBadFlags(arguments: [String], message: String) {
        expectRefused(arguments, saying: message)
    }
}
