import ArgumentParser
import Foundation
import Testing
import TributaryLab
import TributaryTestSupport

@testable import TributaryCLI

/// `tributary streams push / pull / watch` against a running lab.
@Suite(.timeLimit(.minutes(1)))
struct StreamsLabCommandTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Examples/streams/map-filter-scan.json").path

    func command<Command: ParsableCommand>(_ arguments: [String], as: Command.Type) throws -> Command {
        try #require(try TributaryCommand.parseAsRoot(arguments) as? Command)
    }

    @Test func pushesPullsAndWatchesADocument() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "streams-lab-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = "streams-token-0123456789"
        let server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: token
        )
        try await server.withRunning { url in
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
                ["streams", "push", Self.example, "--id", id] + lab,
                as: StreamsCommand.Push.self
            )
            .execute(console: again.console)
            #expect(again.output.hasPrefix("\(id) version 2"))
            try await waitUntil { watched.output.contains("version 2:") }
            watching.cancel()
            _ = await watching.result
        }
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
