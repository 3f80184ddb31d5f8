import Foundation
import HTTPTypes
import Testing

@testable import TributaryLab

/// The package's documentation at `/docs`: a DocC archive made for static hosting, served from
/// its folder and nowhere else, under a policy that lets DocC's one inline script run.
@Suite(.timeLimit(.minutes(2)))
struct DocumentationTests {
    /// A folder laid out as DocC lays out an archive for static hosting under `docs`, and a file
    /// beside it that must never be served.
    static func archive() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appending(path: "docs-\(UUID().uuidString)")
        let archive = root.appending(path: "Tributary.doccarchive")
        let files = [
            "documentation/index.html": #"<html><script>var baseUrl = "/docs/"</script>Every module</html>"#,
            "documentation/tributary/index.html": "<html>Tributary</html>",
            "js/index.js": "console.log('docc')",
            "data/documentation/tributary.json": #"{"kind":"symbol"}"#,
        ]
        for (path, text) in files {
            let file = archive.appending(path: path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: file)
        }
        try Data("secret".utf8).write(to: root.appending(path: "secret.txt"))
        return archive
    }

    @Test func servesTheArchiveAtDocs() async throws {
        let archive = try Self.archive()
        defer { try? FileManager.default.removeItem(at: archive.deletingLastPathComponent()) }
        var configuration = LabConfiguration()
        configuration.documentation = archive
        try await withLab(configuration: configuration) { lab in
            let port = lab.base.port ?? 0
            let bare = try RawConnection(port: port)
            bare.send("GET /docs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let redirect = await bare.readUntilClosed(timeout: .seconds(60)).text
            #expect(redirect.hasPrefix("HTTP/1.1 303") && redirect.contains("Location: /docs/documentation/"))

            let page = try await lab.send(.get, "/docs/documentation/tributary/", authorized: false)
            #expect(page.status == 200 && page.text == "<html>Tributary</html>")
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("'sha256-") && policy.contains("frame-ancestors 'none'"))
            #expect(try await lab.send(.get, "/docs/js/index.js", authorized: false).status == 200)
            let data = try await lab.send(.get, "/docs/data/documentation/tributary.json")
            #expect(data.text.contains("symbol"))

            // A page's folder without its slash leads to the page, within /docs.
            let folder = try RawConnection(port: port)
            folder.send(
                "GET /docs/documentation/tributary HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            )
            let moved = await folder.readUntilClosed(timeout: .seconds(60)).text
            #expect(
                moved.hasPrefix("HTTP/1.1 301") && moved.contains("/docs/documentation/tributary/"),
                "\(moved)"
            )

            // Nothing outside the archive, however the path is spelt.
            for path in ["/docs/../secret.txt", "/docs/%2e%2e/secret.txt", "/docs/..%2fsecret.txt"] {
                let probe = try RawConnection(port: port)
                probe.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let answer = await probe.readUntilClosed(timeout: .seconds(60)).text
                #expect(
                    !answer.contains("secret") && !answer.hasPrefix("HTTP/1.1 200"),
                    "\(path): \(answer.prefix(60))"
                )
            }
            #expect(try await lab.send(.get, "/docs/documentation/nothing/").status == 404)
            let session = try await lab.send(.get, "/api/session", authorized: false)
            #expect(session.json["documentation"] as? Bool == true)
        }
    }

    /// An archive of one module, which has no page of every module, leads to its module's.
    @Test func aModulesArchiveLeadsToItsModule() async throws {
        let archive = try Self.archive()
        defer { try? FileManager.default.removeItem(at: archive.deletingLastPathComponent()) }
        try FileManager.default.removeItem(at: archive.appending(path: "documentation/index.html"))
        var configuration = LabConfiguration()
        configuration.documentation = archive
        try await withLab(configuration: configuration) { lab in
            let bare = try RawConnection(port: lab.base.port ?? 0)
            bare.send("GET /docs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let redirect = await bare.readUntilClosed(timeout: .seconds(60)).text
            #expect(redirect.contains("Location: /docs/documentation/tributary/"), "\(redirect)")
        }
    }

    /// The policy's hash is of the script DocC writes for the base path `docs`, as
    /// `printf 'var baseUrl = "/docs/"' | openssl dgst -sha256 -binary | base64` gives it.
    @Test func thePolicyHashesDocCsScript() {
        #expect(DocumentationMiddleware.baseURLScriptHash == "77EWPyjUT2bZILT2rauaG3kt/w83/XPAfBGN/zpoqgs=")
    }

    @Test func withoutTheArchiveDocsSaysHowToBuildIt() async throws {
        try await withLab { lab in
            for path in ["/docs", "/docs/documentation/tributary/"] {
                let page = try await lab.send(.get, path)
                #expect(page.status == 404)
                #expect(page.text.contains("The documentation is not built"))
                #expect(page.text.contains("--enable-experimental-combined-documentation"))
            }
            let session = try await lab.send(.get, "/api/session", authorized: false)
            #expect(session.json["documentation"] as? Bool == false)
        }
    }
}
