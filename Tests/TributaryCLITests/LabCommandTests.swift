import ArgumentParser
import Foundation
import Testing
import TributaryTestSupport

@testable import TributaryCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tributary lab`, served in-process on a free port.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct LabCommandTests {
    @Test func servesTheLabAndSaysWhere() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lab-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appending(path: "data/lab.sqlite").path
        var command = try #require(
            try TributaryCommand.parseAsRoot(["lab", "--port", "0", "--database", database]) as? LabCommand
        )
        command.environment = [:]
        let capture = CapturedConsole()
        let serving = Task { [command] in
            try await command.serve(console: capture.console, shutdownSignals: [])
        }
        try await waitUntil { capture.output.contains("Tributary lab at ") }
        let line = try #require(capture.output.split(separator: "\n").first)
        #expect(line.hasPrefix("Tributary lab at http://127.0.0.1:"))
        let token = try #require(line.split(separator: "?token=").last.map(String.init))
        #expect(token.count == 22)
        let base = try #require(line.split(separator: " ").last.flatMap { URL(string: String($0)) })
        let (data, _) = try await URLSession.shared.data(
            from: base.deletingLastPathComponent().appending(path: "api/health")
        )
        #expect(String(decoding: data, as: UTF8.self) == #"{"status":"ok"}"#)
        #expect(FileManager.default.fileExists(atPath: database))
        serving.cancel()
        _ = await serving.result
    }

    @Test(arguments: [
        (["lab", "--port", "70000"], "--port must be from 0 to 65535"),
        (["lab", "--token", "short"], "at least 16 characters"),
    ])
    func refusesBadFlags(arguments: [String], message: String) {
        expectRefused(arguments, saying: message)
    }
}
