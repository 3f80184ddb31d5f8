import CombineSchedulers
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryImages
import TributaryLab
import TributaryLabWire
import TributarySandbox
import TributaryStreams
import TributaryTestSupport

/// A news sandbox on a free port and the lab's news read from it, trusting its address, for
/// `body`.
func withSandboxNews(
    trusted: Set<HTTPOrigin> = [],
    _ body:
        @Sendable (_ news: LabNews, _ transport: AsyncHTTPClientTransport, _ sandbox: URL) async throws ->
        Void
) async throws {
    try await Sandbox.withRunning { sandbox in
        try await AsyncHTTPClientTransport.withTransport { transport in
            let news = try LabNews.reading(
                baseURL: sandbox,
                apiKey: Sandbox.demoKey,
                transport: transport,
                trusted: trusted.union(HTTPOrigin(sandbox).map { [$0] } ?? [])
            )
            try await body(news, transport, sandbox)
        }
    }
}

/// A lab with its news reader on an in-process sandbox, serving on a free port, for `body`.
func withNewsLab(
    imageHosts: Set<String> = [],
    trusted: Set<HTTPOrigin> = [],
    scheduler: AnySchedulerOf<DispatchQueue> = .main,
    _ body: @Sendable (_ lab: LabConnection, _ live: LiveEndpoint, _ sandbox: URL) async throws -> Void
) async throws {
    let folder = FileManager.default.temporaryDirectory.appending(path: "news-lab-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withSandboxNews(trusted: trusted) { news, transport, sandbox in
        var news = news
        news.imageHosts = imageHosts
        news.scheduler = scheduler
        let server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: "news-token-0123456789",
            news: news
        )
        try await server.withRunning { url in
            try await body(
                LabConnection(base: url, token: "news-token-0123456789", transport: transport),
                LiveEndpoint(
                    url: "ws://127.0.0.1:\(url.port ?? 0)/api/news/live",
                    token: "news-token-0123456789"
                ),
                sandbox
            )
        }
    }
}

/// The pages, their files and their headers.
@Suite(.timeLimit(.minutes(5)))
struct WebAppTests {
    /// Every page is the app's HTML, deep links included, with headers that keep it to itself.
    @Test func servesThePagesWithTheirSecurityHeaders() async throws {
        try await withLab { lab in
            for path in ["/", "/news?q=swift", "/streams", "/streams/AAAAAAAAAAAAAAAAAAAAAA"] {
                let page = try await lab.send(.get, path, authorized: false)
                #expect(page.status == 200, "\(path)")
                #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
                #expect(page.text.contains(#"<script type="module" src="/app/app.js">"#))
                let policy = try #require(page.headers[HTTPField.Name("Content-Security-Policy")!])
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
                #expect(policy.contains("connect-src 'self'") && policy.contains("frame-ancestors 'none'"))
                #expect(page.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            }
            // An error answer carries them too.
            let missing = try await lab.send(.get, "/app/nothing.js", authorized: false)
            #expect(
                missing.status == 404
                    && missing.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff"
            )
            let unknown = try await lab.send(.get, "/no/such/page", authorized: false)
            #expect(
                unknown.status == 404 && unknown.headers[HTTPField.Name("Content-Security-Policy")!] != nil
            )
            // A person reads a page that says so; a program reads the API's error.
            #expect(unknown.headers[.contentType] == "text/html; charset=utf-8")
            #expect(unknown.text.contains("<h1>No such page</h1>"))
            let route = try await lab.send(.get, "/api/no/such/route", authorized: false)
            #expect(route.status == 404 && route.errorCode == "notFound")
        }
    }

    /// The files come with their types and versions, and a browser that has them gets a 304;
    /// the whole first load stays small and names nothing outside the lab.
    @Test func servesItsFilesSmallAndSelfContained() async throws {
        try await withLab { lab in
            var total = 0
            for (file, type) in [
                ("app.js", "text/javascript"), ("news.js", "text/javascript"),
                ("streams.js", "text/javascript"),
                ("dom.js", "text/javascript"), ("app.css", "text/css"),
            ] {
                let answer = try await lab.send(.get, "/app/\(file)", authorized: false)
                #expect(
                    answer.status == 200 && answer.headers[.contentType]?.hasPrefix(type) == true,
                    "\(file)"
                )
                let eTag = try #require(answer.headers[.eTag])
                let again = try await lab.send(
                    .get,
                    "/app/\(file)",
                    authorized: false,
                    headers: [.ifNoneMatch: eTag]
                )
                #expect(again.status == 304)
                #expect(
                    !answer.text.contains("http://") && !answer.text.contains("https://"),
                    "\(file) reaches out"
                )
                total += answer.body.count
            }
            total += try await lab.send(.get, "/", authorized: false).body.count
            #expect(total < 150 << 10)
        }
    }

    /// The operator catalogue the editor's form is made from, as TributaryStreams has it.
    @Test func servesTheOperatorCatalogue() async throws {
        try await withLab { lab in
            let answer = try await lab.send(.get, "/api/operators", authorized: false)
            #expect(answer.status == 200)
            let operators = try #require(answer.json["operators"] as? [[String: Any]])
            #expect(
                operators.compactMap { $0["name"] as? String } == StreamOperator.Name.allCases.map(\.rawValue)
            )
            let debounce = try #require(operators.first { $0["name"] as? String == "debounce" })
            let parameters = try #require(debounce["parameters"] as? [[String: Any]])
            #expect(parameters.map { $0["key"] as? String } == ["seconds"])
            #expect(parameters.first?["kind"] as? String == "seconds")
            #expect(operators.first { $0["name"] as? String == "zip" }?["joins"] as? Bool == true)
        }
    }

    /// The examples "new from example" offers, and marbles turned into a stream.
    @Test func offersExamplesAndReadsMarbles() async throws {
        try await withLab { lab in
            let examples = try await lab.send(.get, "/api/examples", authorized: false)
            let list = try #require(examples.json["examples"] as? [[String: Any]])
            #expect(list.count >= 6)
            #expect(list.contains { $0["title"] as? String == "Map, filter and scan" })

            let marbles = try await lab.send(
                .post,
                "/api/marbles",
                body: Data(#"{"marbles": "-1-2-3|", "frame": 0.5, "id": "numbers"}"#.utf8)
            )
            #expect(marbles.status == 200)
            let stream = try #require(marbles.json["stream"] as? [String: Any])
            #expect(stream["id"] as? String == "numbers" && (stream["items"] as? [Any])?.count == 3)

            let broken = try await lab.send(
                .post,
                "/api/marbles",
                body: Data(#"{"marbles": "-1-|-2"}"#.utf8)
            )
            #expect(broken.status == 422 && broken.errorCode == "invalidDocument")
        }
    }

    /// Values longer than a character go through a table, as in RxJS: the diagram names them by
    /// letters, `/api/marbles` reads the table, and `/api/run` answers the table of its lanes.
    @Test func readsAndAnswersTheValuesTable() async throws {
        try await withLab { lab in
            let read = try await lab.send(
                .post,
                "/api/marbles",
                body: Data(
                    #"{"marbles": "--a--b|", "id": "langs", "values": {"a": "swift", "b": "rust"}}"#.utf8
                )
            )
            #expect(read.status == 200)
            let stream = try #require(read.json["stream"] as? [String: Any])
            let items = try #require(stream["items"] as? [[String: Any]])
            #expect(items.compactMap { $0["value"] as? String } == ["swift", "rust"])

            let wide = try await lab.send(
                .post,
                "/api/marbles",
                body: Data(#"{"marbles": "-ab|", "values": {"ab": "swift"}}"#.utf8)
            )
            #expect(wide.status == 422 && wide.errorCode == "invalidDocument")
            #expect((wide.json["error"] as? [String: Any])?["path"] as? String == "$.values")

            let document = try JSONSerialization.data(withJSONObject: [
                "schemaVersion": 1, "streams": [stream],
            ])
            let run = try await lab.send(.post, "/api/run", body: document)
            #expect(run.status == 200)
            let marbles = run.json["marbles"] as? String ?? ""
            #expect(marbles.hasPrefix("langs  --a--b|"), "\(marbles)")
            #expect(run.json["values"] as? [String: String] == ["a": "swift", "b": "rust"])
        }
    }
}
