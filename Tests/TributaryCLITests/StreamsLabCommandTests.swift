import ArgumentParser
import Foundation
import Testing
import TributaryLab
import TributaryLabClient
import TributaryLabWire
import TributaryTestSupport

@testable import TributaryCLI

/// `tributary streams push / pull / watch` against a running lab.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct StreamsLabCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Examples/streams/map-filter-scan.json").path

    /// Runs `body` with a lab on loopback, its token, and a folder of its own, which holds the
    /// lab's database and is removed afterwards.
    func withLab(
        _ body: @Sendable (_ url: URL, _ token: String, _ folder: URL) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "streams-lab-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = "streams-token-0123456789"
        let server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: token
        )
        try await server.withRunning { url in try await body(url, token, folder) }
    }

    func command<Command: ParsableCommand>(_ arguments: [String], as: Command.Type) throws -> Command {
        try #require(try TributaryCommand.parseAsRoot(arguments) as? Command)
    }

    @Test func pushesPullsAndWatchesADocument() async throws {
        try await withLab { url, token, _ in
            let lab = ["--lab", url.absoluteString, "--token", token]
            let pushed = CapturedConsole()
            try await command(["streams", "push", Self.example] + lab, as: StreamsCommand.Push.self)
                .execute(console: pushed.console)
            let line = try #require(pushed.output.split(separator: "\n").first)
            #expect(line.hasSuffix(" version 1"))
            let id = String(line.prefix { $0 != " " })

            let pulled = CapturedConsole()
            try await command(
                ["streams", "pull", id, "--lab", url.absoluteString],
                as: StreamsCommand.Pull.self
            )
            .execute(console: pulled.console)
            #expect(pulled.output.contains("\"name\" : \"Map, filter and scan\""))

            let watched = CapturedConsole()
            let watch = try command(
                ["streams", "watch", id, "--lab", url.absoluteString],
                as: StreamsCommand.Watch.self
            )
            let watching = Task { try await watch.execute(console: watched.console) }
            // The lanes follow the version's line once the run is drawn.
            try await waitUntil { watched.output.contains("Map, filter and scan, version 1:\nnumbers") }
            #expect(watched.output.contains("total"))
            let again = CapturedConsole()
            try await command(
                ["streams", "push", Self.example, "--id", id, "--base-version", "1"] + lab,
                as: StreamsCommand.Push.self
            )
            .execute(console: again.console)
            #expect(again.output.hasPrefix("\(id) version 2"))
            try await waitUntil { watched.output.contains("version 2:") }
            watching.cancel()
            _ = await watching.result
        }
    }

    /// A pull keeps the version it read, and a push based on it never replaces a save made
    /// since: it fails naming both versions, and only --force saves over it.
    @Test func refusesAStalePushAndForcesOneOnPurpose() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "streams-lab-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = "streams-token-0123456789"
        let server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: token
        )
        try await server.withRunning { url in
            let lab = ["--lab", url.absoluteString, "--token", token]
            let created = CapturedConsole()
            try await command(["streams", "push", Self.example] + lab, as: StreamsCommand.Push.self)
                .execute(console: created.console)
            let text = String(created.output.prefix { $0 != " " })
            let id = try #require(DocumentID(text))
            let mine = folder.appending(path: "mine.json").path
            try await command(
                ["streams", "pull", text, "--output", mine] + lab,
                as: StreamsCommand.Pull.self
            )
            .execute(console: CapturedConsole().console)
            #expect(StreamsCommand.Pulled.read(from: mine) == .init(id: id, version: 1))

            // Someone else saves meanwhile.
            try await command(
                ["streams", "push", Self.example, "--id", text, "--base-version", "1"] + lab,
                as: StreamsCommand.Push.self
            )
            .execute(console: CapturedConsole().console)

            let stale = CapturedConsole()
            await #expect(throws: ExitCode.failure) {
                try await command(
                    ["streams", "push", mine, "--id", text] + lab,
                    as: StreamsCommand.Push.self
                )
                .execute(console: stale.console)
            }
            #expect(stale.errors.contains("version 2") && stale.errors.contains("version 1"))
            #expect(stale.errors.contains("--force"))

            let forced = CapturedConsole()
            try await command(
                ["streams", "push", mine, "--id", text, "--force"] + lab,
                as: StreamsCommand.Push.self
            )
            .execute(console: forced.console)
            #expect(forced.output.hasPrefix("\(id) version 3"))

            // A file pulled and pushed again stands for the version it saved.
            let again = folder.appending(path: "again.json").path
            try await command(
                ["streams", "pull", text, "--output", again] + lab,
                as: StreamsCommand.Pull.self
            )
            .execute(console: CapturedConsole().console)
            try await command(["streams", "push", again, "--id", text] + lab, as: StreamsCommand.Push.self)
                .execute(console: CapturedConsole().console)
            #expect(StreamsCommand.Pulled.read(from: again) == .init(id: id, version: 4))
            try await command(["streams", "push", again, "--id", text] + lab, as: StreamsCommand.Push.self)
                .execute(console: CapturedConsole().console)
            #expect(StreamsCommand.Pulled.read(from: again) == .init(id: id, version: 5))

            // Without the note, a push to an id says how to name the version.
            let unnoted = CapturedConsole()
            await #expect(throws: ExitCode.failure) {
                try await command(
                    ["streams", "push", Self.example, "--id", text] + lab,
                    as: StreamsCommand.Push.self
                )
                .execute(console: unnoted.console)
            }
            #expect(unnoted.errors.contains("--base-version"))
        }
    }

    @Test(arguments: [
        ("title \u{1B}]0;owned\u{07}", "title \\u{1B}]0;owned\\u{7}"), ("a\u{9B}2Jb", "a\\u{9B}2Jb"),
        ("tab\tand\nline", "tab\tand\nline"), ("\u{202E}evil", "\\u{202E}evil"),
    ])
    func printsControlCharactersEscaped(given: String, shown: String) {
        let captured = CapturedConsole()
        captured.console.print(given)
        captured.console.note(given)
        #expect(captured.output == shown + "\n" && captured.errors == shown + "\n")
    }

    @Test func refusesToPushWithoutTheToken() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "streams-lab-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: "right-token-0123456789"
        )
        try await server.withRunning { url in
            var push = try command(
                ["streams", "push", Self.example, "--lab", url.absoluteString],
                as: StreamsCommand.Push.self
            )
            push.options.environment = [:]
            let console = CapturedConsole()
            await #expect(throws: (any Error).self) { try await push.execute(console: console.console) }
        }
    }
}

extension StreamsLabCommandTests {
    /// A missing document and a pulled file pushed without `--id` are each told in a sentence:
    /// no HTTP status line, and no silent new document where a new version was meant.
    @Test func saysWhatAMissingDocumentAndAPulledFileWithoutAnIdMean() async throws {
        try await withLab { url, token, folder in
            let missing = CapturedConsole()
            await #expect(throws: ExitCode.failure) {
                try await command(
                    ["streams", "pull", "AAAAAAAAAAAAAAAAAAAAAA", "--lab", url.absoluteString],
                    as: StreamsCommand.Pull.self
                )
                .execute(console: missing.console)
            }
            #expect(missing.errors == "error: There is no document AAAAAAAAAAAAAAAAAAAAAA.\n")

            let lab = ["--lab", url.absoluteString, "--token", token]
            let pushed = CapturedConsole()
            try await command(
                ["streams", "push", Self.example, "--author", "Ada"] + lab,
                as: StreamsCommand.Push.self
            )
            .execute(console: pushed.console)
            let id = String(pushed.output.prefix { $0 != " " })
            // The version is credited to whom --author names.
            let versions = try await StreamsCommand.LabOptions.parse(["--lab", url.absoluteString])
                .withClient { client in try await client.versions(of: try #require(DocumentID(id))) }
            #expect(versions.map(\.author) == ["Ada"])
            let file = folder.appending(path: "pulled.json").path
            try await command(
                ["streams", "pull", id, "--lab", url.absoluteString, "--output", file],
                as: StreamsCommand.Pull.self
            )
            .execute(console: CapturedConsole().console)
            let again = CapturedConsole()
            try await command(["streams", "push", file] + lab, as: StreamsCommand.Push.self)
                .execute(console: again.console)
            #expect(!again.output.hasPrefix(id))
            #expect(again.errors.contains("was pulled from \(id): this made a new document. `--id \(id)`"))
        }
        #expect(throws: (any Error).self) {
            try TributaryCommand.parseAsRoot(["streams", "pull", "nosuchid"])
        }
    }
}
