import ArgumentParser
import Foundation
import Testing
import TributaryLab
import TributaryTestSupport

@testable import TributaryCLI

/// Every command says what failed the same way: one line after `error: `, naming the request
/// and the cause when a server cannot be reached. Port 1 on loopback is closed.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct CommandFailureTests {
    static let refused =
        " could not reach the server: the connection was refused: nothing is listening there.\n"

    /// Runs `arguments` without the process's environment, returning what went to standard
    /// error, ArgumentParser's line for a thrown error included.
    private func errors(of arguments: [String]) async -> String {
        let capture = CapturedConsole()
        do {
            switch try TributaryCommand.parseAsRoot(arguments) {
            case var command as NewsCommand.Sources:
                command.connection.environment = [:]
                try await command.execute(console: capture.console)
            case var command as NewsCommand.Headlines:
                command.connection.environment = [:]
                try await command.execute(console: capture.console)
            case let command as NewsCommand.Feed:
                try await command.execute(console: capture.console)
            case var command as HackerNewsCommand.Top:
                command.options.connection.environment = [:]
                try await command.execute(console: capture.console)
            case var command as HackerNewsCommand.Item:
                command.connection.environment = [:]
                try await command.execute(console: capture.console)
            case var command as MoviesCommand.Popular:
                command.connection.environment = [:]
                try await command.execute(console: capture.console)
            case var command as MoviesCommand.Movie:
                command.connection.environment = [:]
                try await command.execute(console: capture.console)
            case let command:
                Issue.record("\(command) is not run here")
            }
            return capture.errors
        } catch {
            // As the process prints it: ArgumentParser ends the line when it writes it.
            let message = TributaryCommand.fullMessage(for: error)
            return capture.errors + (message.isEmpty ? "" : message + "\n")
        }
    }

    @Test(arguments: [
        (
            ["news", "sources", "--base-url", "http://127.0.0.1:1/v2"],
            "GET http://127.0.0.1:1/v2/top-headlines/sources"
        ),
        (
            ["news", "headlines", "--base-url", "http://127.0.0.1:1/v2", "--api-key", "k"],
            "GET http://127.0.0.1:1/v2/top-headlines?country=us"
        ),
        (["news", "feed", "http://127.0.0.1:1/feed.rss"], "GET http://127.0.0.1:1/feed.rss"),
        (["hn", "top", "--base-url", "http://127.0.0.1:1/v0"], "GET http://127.0.0.1:1/v0/topstories.json"),
        (
            ["hn", "item", "8863", "--base-url", "http://127.0.0.1:1/v0"],
            "GET http://127.0.0.1:1/v0/item/8863.json"
        ),
        (
            ["movies", "popular", "--base-url", "http://127.0.0.1:1/3"],
            "GET http://127.0.0.1:1/3/movie/popular"
        ),
    ])
    func namesTheServerThatCannotBeReachedAndWhy(arguments: [String], request: String) async {
        let errors = await errors(of: arguments)
        #expect(errors.hasPrefix("error: \(request)"), "\(errors)")
        #expect(errors.hasSuffix(Self.refused), "\(errors)")
        #expect(errors.components(separatedBy: "\n").count == 2, "\(errors)")
    }

    @Test func saysThereIsNoSuchMovieAsThereIsNoSuchItem() async {
        #expect(await errors(of: ["movies", "movie", "1"]).hasSuffix("error: There is no movie 1.\n"))
    }

    /// ArgumentParser's own lines for flags it refuses start the same way as the commands'.
    @Test func startsArgumentParsersLinesAsItsOwn() {
        let refused = #expect(throws: (any Error).self) {
            try TributaryCommand.parseAsRoot(["news", "headlines", "--page-size", "x"])
        }
        #expect(refused.map { TributaryCommand.fullMessage(for: $0) }?.hasPrefix("error: ") == true)
        #expect(TributaryCommand.fullMessage(for: CocoaError(.fileNoSuchFile)).hasPrefix("error: "))
    }

    /// `--category` lists its values once, as ArgumentParser writes them.
    @Test(arguments: [NewsCommand.Headlines.self, NewsCommand.Sources.self] as [any ParsableCommand.Type])
    func listsTheCategoriesOnce(command: any ParsableCommand.Type) throws {
        let help = TributaryCommand.helpMessage(for: command)
        let start = try #require(help.range(of: "  --category <category>"))
        let block = help[start.upperBound...].prefix { $0 != "-" }
        #expect(block.contains("(values: business,"), "\(help)")
        #expect(help.components(separatedBy: "technology").count == 2, "\(help)")
    }

    @Test func pushingWithoutATokenNamesWhereOneGoes() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "push-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: "right-token-0123456789"
        )
        try await server.withRunning { url in
            for token in [[], ["--token", "wrong-token-0123456789"]] {
                var push = try #require(
                    try TributaryCommand.parseAsRoot(
                        ["streams", "push", StreamsLabCommandTests.example, "--lab", url.absoluteString]
                            + token
                    ) as? StreamsCommand.Push
                )
                push.options.environment = [:]
                let capture = CapturedConsole()
                await #expect(throws: ExitCode.failure) { try await push.execute(console: capture.console) }
                #expect(capture.errors.hasPrefix("error: "), "\(capture.errors)")
                #expect(
                    capture.errors.contains("--token") && capture.errors.contains("TRIBUTARY_LAB_TOKEN"),
                    "\(capture.errors)"
                )
            }
        }
    }

    /// A database in a folder that does not exist yet: the folder is made, and the lab says
    /// so; one that cannot be made is named.
    @Test func makesTheDatabasesFolderAndSaysSoOrNamesItWhenItCannot() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lab-db-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appending(path: "new/data")
        var command = try #require(
            try TributaryCommand.parseAsRoot(
                ["lab", "--port", "0", "--database", missing.appending(path: "lab.sqlite").path]
            ) as? LabCommand
        )
        command.environment = [:]
        let capture = CapturedConsole()
        let serving = Task { [command] in
            try await command.serve(console: capture.console, shutdownSignals: [])
        }
        try await waitUntil { capture.output.contains("Tributary lab at ") }
        #expect(
            capture.errors.contains("Made the folder \(missing.path) for the database."),
            "\(capture.errors)"
        )
        serving.cancel()
        _ = await serving.result

        let file = folder.appending(path: "plain-file")
        try Data("x".utf8).write(to: file)
        for database in [file.appending(path: "lab.sqlite"), file.appending(path: "deeper/lab.sqlite")] {
            var blocked = try #require(
                try TributaryCommand.parseAsRoot(["lab", "--port", "0", "--database", database.path])
                    as? LabCommand
            )
            blocked.environment = [:]
            let refused = CapturedConsole()
            await #expect(throws: ExitCode.failure) {
                try await blocked.serve(console: refused.console, shutdownSignals: [])
            }
            let folderName = database.deletingLastPathComponent().path
            #expect(refused.errors.hasPrefix("error: --database \(database.path) cannot be used: "))
            #expect(refused.errors.contains(folderName), "\(refused.errors)")
        }
    }
}

extension CommandFailureTests {
    /// A wrong `--docs` is named at start, and a missing folder told apart from one that is
    /// not an archive.
    @Test func namesAWrongDocumentationArchiveAtStart() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, expected) in [
            (folder.appending(path: "missing").path, "does not exist"),
            (folder.path, "is not an archive made for /docs"),
        ] {
            #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(["lab", "--docs", path]) }
            do {
                _ = try TributaryCommand.parseAsRoot(["lab", "--docs", path])
            } catch {
                #expect(TributaryCommand.fullMessage(for: error).contains("--docs \(path) \(expected)"))
            }
        }
    }
}
