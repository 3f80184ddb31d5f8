import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
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

    /// Serves a lab with `arguments` until `body` returns, handing it the printed link.
    private func serving<Result>(
        _ arguments: [String],
        _ body: (_ link: URL, _ capture: CapturedConsole) async throws -> Result
    ) async throws -> Result {
        var command = try #require(try TributaryCommand.parseAsRoot(["lab"] + arguments) as? LabCommand)
        command.environment = [:]
        let capture = CapturedConsole()
        let serving = Task { [command] in
            try await command.serve(console: capture.console, shutdownSignals: [])
        }
        defer { serving.cancel() }
        try await waitUntil {
            capture.output.contains("Tributary lab at ") || capture.errors.contains("error:")
        }
        let line = try #require(capture.output.split(separator: "\n").first, "\(capture.errors)")
        let link = try #require(line.split(separator: " ").last.flatMap { URL(string: String($0)) })
        let result = try await body(link, capture)
        serving.cancel()
        _ = await serving.result
        return result
    }

    /// Without --token, the token is kept beside the database, readable by its owner alone: a
    /// restart keeps the link and the sessions it opened; --new-token ends both.
    @Test func keepsItsTokenAndSessionsAcrossARestartUntilANewToken() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lab-token-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appending(path: "lab.sqlite").path
        let tokenFile = database + ".token"
        let arguments = ["--port", "0", "--database", database]
        // AsyncHTTPClient, which is told to leave redirects alone and keeps no cookies, to see
        // each answer as it is.
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(redirectConfiguration: .disallow)
        )
        defer { _ = client.shutdown() }
        /// The session cookie the link opens.
        func signIn(_ link: URL) async throws -> String {
            let answer = try await client.execute(
                HTTPClientRequest(url: link.absoluteString),
                timeout: .seconds(30)
            )
            return String(answer.headers.first(name: "set-cookie")?.prefix { $0 != ";" } ?? "")
        }
        /// Whether `cookie` is signed in.
        func isSignedIn(_ link: URL, cookie: String) async throws -> Bool {
            var request = HTTPClientRequest(
                url: link.deletingLastPathComponent().appending(path: "api/session").absoluteString
            )
            request.headers.add(name: "Cookie", value: cookie)
            let answer = try await client.execute(request, timeout: .seconds(30))
            let body = try await answer.body.collect(upTo: 1 << 16)
            let session =
                try JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [String: Any]
            return session?["signedIn"] as? Bool == true
        }
        let (first, cookie) = try await serving(arguments) { link, capture async throws in
            #expect(capture.errors.contains("The token is kept in \(tokenFile)"), "\(capture.errors)")
            return (link, try await signIn(link))
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(cookie.hasPrefix("tributary_lab=") && !cookie.contains(first.query ?? "-"))
        try await serving(arguments) { link, capture async throws in
            #expect(link.query == first.query)
            #expect(!capture.errors.contains("kept in"))
            #expect(try await isSignedIn(link, cookie: cookie))
            // A cookie changed by one character is no session.
            let forged = String(cookie.dropLast()) + (cookie.last == "A" ? "B" : "A")
            #expect(try await isSignedIn(link, cookie: forged) == false)
        }
        // A token file others can read is made its owner's alone.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: tokenFile)
        try await serving(arguments) { link, capture async throws in
            #expect(link.query == first.query)
            #expect(capture.errors.contains("could be read by others"), "\(capture.errors)")
        }
        let tightened = try FileManager.default.attributesOfItem(atPath: tokenFile)
        #expect((tightened[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try await serving(arguments + ["--new-token"]) { link, capture async throws in
            #expect(link.query != first.query)
            #expect(capture.errors.contains("A new token, kept in \(tokenFile)"))
            #expect(try await isSignedIn(link, cookie: cookie) == false)
        }
        // A token file that holds no token says so, and how to mend it.
        try Data("short\n".utf8).write(to: URL(fileURLWithPath: tokenFile))
        var broken = try #require(try TributaryCommand.parseAsRoot(["lab"] + arguments) as? LabCommand)
        broken.environment = [:]
        let capture = CapturedConsole()
        await #expect(throws: ExitCode.failure) {
            try await broken.serve(console: capture.console, shutdownSignals: [])
        }
        #expect(
            capture.errors.contains("The token file \(tokenFile) cannot be used: it holds no token")
                && capture.errors.contains("--new-token makes one"),
            "\(capture.errors)"
        )
    }

    @Test func namesThePortInUseAndWhatToDo() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lab-port-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await serving(["--port", "0", "--database", folder.appending(path: "a.sqlite").path]) {
            link,
            _ async throws in
            let port = try #require(link.port)
            var second = try #require(
                try TributaryCommand.parseAsRoot([
                    "lab", "--port", "\(port)", "--database", folder.appending(path: "b.sqlite").path,
                ]) as? LabCommand
            )
            second.environment = [:]
            let capture = CapturedConsole()
            await #expect(throws: ExitCode.failure) {
                try await second.serve(console: capture.console, shutdownSignals: [])
            }
            // One line, and nothing made for a lab that never started.
            #expect(
                capture.errors
                    == "error: Port \(port) on 127.0.0.1 is in use by another program: give the lab another with --port (0 picks a free one).\n",
                "\(capture.errors)"
            )
            #expect(capture.output.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "b.sqlite").path))
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "b.sqlite.token").path))
        }
    }

    @Test(arguments: [
        (["lab", "--port", "70000"], "--port must be from 0 to 65535"),
        (["lab", "--new-token", "--token", "0123456789abcdefgh"], "--new-token makes a token"),
        (["lab", "--token", "short"], "at least 16 characters"),
    ])
    func refusesBadFlags(arguments: [String], message: String) {
        expectRefused(arguments, saying: message)
    }
}
