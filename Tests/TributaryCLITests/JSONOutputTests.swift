import ArgumentParser
import Foundation
import Hummingbird
import NewsAPI
import Testing
import TributaryStreams
import TributaryTestSupport

@testable import TributaryCLI

/// Every command's `--json` is JSON whatever the text in it: each control character, and each
/// byte from 0x80 to 0x9F in a feed, goes through every command that prints JSON, and the
/// output parses back to the very text the server sent.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts servers and runs hundreds of commands; runs in the plain pass")
)
struct JSONOutputTests {
    /// U+0000 to U+001F and U+007F to U+009F: what JSONEncoder leaves raw is the second range,
    /// and a terminal obeys both.
    static let controls: [Unicode.Scalar] = (Array(0x00...0x1F) + Array(0x7F...0x9F)).compactMap(
        Unicode.Scalar.init
    )

    /// `scalar` written as a JSON string escape.
    private func escape(_ scalar: Unicode.Scalar) -> String {
        String(format: "\\u%04x", scalar.value)
    }

    /// The JSON `output` holds, or a recorded issue naming `scalar`.
    private func parse(_ output: String, _ scalar: Unicode.Scalar, _ command: String) -> Any? {
        do {
            return try JSONSerialization.jsonObject(with: Data(output.utf8), options: [.fragmentsAllowed])
        } catch {
            Issue.record(
                "\(command) printed no JSON for U+\(String(format: "%04X", scalar.value)): \(output)"
            )
            return nil
        }
    }

    @Test func escapesEveryControlCharacterTheJSONWay() throws {
        for scalar in Self.controls {
            let text = "a" + String(Character(scalar)) + "b"
            let json = Console.jsonEscaped(String(decoding: try JSONEncoder().encode([text]), as: UTF8.self))
            #expect(!json.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            #expect(try JSONDecoder().decode([String].self, from: Data(json.utf8)) == [text])
        }
        // The bidirectional overrides, which reorder what a terminal shows, too.
        let bidi = "a\u{202E}b\u{2066}c"
        let json = Console.jsonEscaped(String(decoding: try JSONEncoder().encode([bidi]), as: UTF8.self))
        #expect(json == #"["a\u202eb\u2066c"]"#)
    }

    @Test func newsHeadlinesPrintJSONForEveryControlCharacter() async throws {
        var answers: [String: (status: Int, body: String)] = [:]
        for scalar in Self.controls {
            let article =
                #"{"source": {"id": null, "name": "S\#(escape(scalar))"}, "author": null, "title": "T\#(escape(scalar))", "description": null, "url": "https://example.com/\#(scalar.value)", "urlToImage": null, "publishedAt": "2026-01-01T00:00:00Z", "content": null}"#
            answers["v2/everything-\(scalar.value)"] = (
                200, #"{"status": "ok", "totalResults": 1, "articles": [\#(article)]}"#
            )
        }
        // One path per character: the query names it.
        let served = answers
        let router = Router()
        router.get("v2/everything") { request, _ in
            let key = "v2/everything-" + (request.uri.queryParameters.get("q") ?? "")
            let answer = served[key] ?? (404, "{}")
            return Response(
                status: .init(code: answer.status),
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: answer.body))
            )
        }
        try await withLoopbackServer(router) { url in
            for scalar in Self.controls {
                let capture = CapturedConsole()
                var command = try #require(
                    try TributaryCommand.parseAsRoot(["news", "search", "\(scalar.value)", "--json"])
                        as? NewsCommand.Search
                )
                command.connection.environment = [
                    "NEWSAPI_BASE_URL": url.appending(path: "v2").absoluteString, "NEWSAPI_KEY": "k",
                ]
                try await command.execute(console: capture.console)
                let object = parse(capture.output, scalar, "news search") as? [String: Any]
                let article = (object?["articles"] as? [[String: Any]])?.first
                #expect(article?["title"] as? String == "T" + String(Character(scalar)))
            }
        }
    }

    /// A feed's text reaches `news feed --json` as characters (raw, or as references) and, in a
    /// feed that names no encoding, as bytes 0x80 to 0x9F, which are Windows-1252's.
    @Test func newsFeedPrintsJSONForEveryControlCharacterAndByte() async throws {
        func feed(title: [UInt8], declaration: String) -> Data {
            Data(
                "<?xml version=\"1.0\"\(declaration)?><rss version=\"2.0\"><channel><title>F</title><item><title>"
                    .utf8
            )
                + Data(title) + Data("</title><link>https://example.com/1</link></item></channel></rss>".utf8)
        }
        var feeds: [String: Data] = [:]
        for scalar in Self.controls {
            feeds["raw-\(scalar.value)"] = feed(
                title: Array(("x" + String(Character(scalar)) + "y").utf8),
                declaration: " encoding=\"UTF-8\""
            )
            feeds["reference-\(scalar.value)"] = feed(
                title: Array("x&#\(scalar.value);y".utf8),
                declaration: " encoding=\"UTF-8\""
            )
        }
        for byte in UInt8(0x80)...0x9F {
            feeds["byte-\(byte)"] = feed(
                title: [UInt8(ascii: "x"), byte, UInt8(ascii: "y")],
                declaration: ""
            )
        }
        let served = feeds
        let router = Router()
        router.get("feeds/:name") { _, context in
            let body = served[context.parameters.get("name") ?? ""] ?? Data()
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml"],
                body: .init(byteBuffer: ByteBuffer(bytes: body))
            )
        }
        try await withLoopbackServer(router) { url in
            for name in feeds.keys.sorted() {
                let capture = CapturedConsole()
                let command = try #require(
                    try TributaryCommand.parseAsRoot([
                        "news", "feed", url.appending(path: "feeds/\(name)").absoluteString, "--json",
                    ]) as? NewsCommand.Feed
                )
                try await command.execute(console: capture.console)
                let entries: Any
                do {
                    entries = try JSONSerialization.jsonObject(with: Data(capture.output.utf8))
                } catch {
                    Issue.record("news feed --json printed no JSON for \(name): \(capture.output)")
                    continue
                }
                let title = ((entries as? [[String: Any]])?.first?["title"] as? String) ?? ""
                #expect(title.hasPrefix("x") && title.hasSuffix("y"), "\(name): \(title)")
            }
        }
    }

    @Test func hackerNewsPrintsJSONForEveryControlCharacter() async throws {
        for scalar in Self.controls {
            let story =
                #"{"by":"u\#(escape(scalar))","id":1,"score":1,"time":1175714200,"title":"t\#(escape(scalar))","type":"story"}"#
            let server = FixtureServer([
                "v0/topstories.json": (200, "[1]"),
                "v0/item/1.json": (200, story),
                "v0/user/u.json": (
                    200,
                    #"{"id":"u","created":1173923446,"karma":1,"about":"a\#(escape(scalar))","submitted":[1]}"#
                ),
            ])
            try await server.run { url in
                let base = ["--base-url", url.appending(path: "v0").absoluteString, "--json"]
                let top = CapturedConsole()
                let list = try #require(
                    try TributaryCommand.parseAsRoot(["hn", "top"] + base) as? HackerNewsCommand.Top
                )
                try await list.execute(console: top.console)
                let stories =
                    (parse(top.output, scalar, "hn top") as? [String: Any])?["stories"] as? [[String: Any]]
                #expect(stories?.first?["title"] as? String == "t" + String(Character(scalar)))

                let shown = CapturedConsole()
                let item = try #require(
                    try TributaryCommand.parseAsRoot(["hn", "item", "1"] + base) as? HackerNewsCommand.Item
                )
                try await item.execute(console: shown.console)
                let object =
                    (parse(shown.output, scalar, "hn item") as? [String: Any])?["item"] as? [String: Any]
                #expect(object?["by"] as? String == "u" + String(Character(scalar)))

                let profile = CapturedConsole()
                let user = try #require(
                    try TributaryCommand.parseAsRoot(["hn", "user", "u"] + base) as? HackerNewsCommand.User
                )
                try await user.execute(console: profile.console)
                let found =
                    (parse(profile.output, scalar, "hn user") as? [String: Any])?["user"] as? [String: Any]
                #expect(found?["about"] as? String == "a" + String(Character(scalar)))
            }
        }
    }

    @Test func moviesPrintJSONForEveryControlCharacter() async throws {
        for scalar in Self.controls {
            let movie =
                #"{"adult":false,"backdrop_path":null,"genre_ids":[],"id":7,"original_language":"en","original_title":"o","overview":"v\#(escape(scalar))","popularity":1,"poster_path":null,"release_date":"2020-01-01","title":"m\#(escape(scalar))","video":false,"vote_average":0,"vote_count":0}"#
            let server = FixtureServer([
                "3/movie/popular": (
                    200, #"{"page":1,"results":[\#(movie)],"total_pages":1,"total_results":1}"#
                ),
                "3/genre/movie/list": (200, #"{"genres":[]}"#),
            ])
            try await server.run { url in
                let capture = CapturedConsole()
                var command = try #require(
                    try TributaryCommand.parseAsRoot([
                        "movies", "popular", "--json", "--api-key", "k", "--base-url",
                        url.appending(path: "3").absoluteString,
                    ]) as? MoviesCommand.Popular
                )
                command.connection.environment = [:]
                try await command.execute(console: capture.console)
                let results = (parse(capture.output, scalar, "movies popular") as? [String: Any])?["results"]
                #expect(
                    (results as? [[String: Any]])?.first?["title"] as? String == "m"
                        + String(Character(scalar))
                )
            }
        }
    }

    /// `streams new` prints a document whose values are any text given on the command line.
    @Test func streamsNewPrintsJSONForEveryControlCharacter() throws {
        for scalar in Self.controls where scalar != "\0" {
            let capture = CapturedConsole()
            let command = try #require(
                try TributaryCommand.parseAsRoot([
                    "streams", "new", "--marbles", "a|", "--value", "a=v" + String(Character(scalar)),
                ]) as? StreamsCommand.New
            )
            try command.execute(console: capture.console)
            #expect(parse(capture.output, scalar, "streams new") != nil)
            let document = try? StreamDocument.decode(Data(capture.output.utf8))
            #expect(document?.streams.first?.items.first?.value == .string("v" + String(Character(scalar))))
        }
    }

    /// `streams pull` and `recordings list --json` print what a lab sent, names and all.
    @Test func labCommandsPrintJSONForEveryControlCharacter() async throws {
        for scalar in Self.controls {
            let name = "n" + String(Character(scalar))
            let document = try StreamDocument(
                name: name,
                streams: [try Marbles.parse("a|", values: ["a": .string(name)], id: "input")]
            )
            let body = String(decoding: try document.encoded(), as: UTF8.self)
            let server = FixtureServer([
                "api/streams/Qm9vbGVhbnNBcmVGdW4xMg": (
                    200,
                    #"{"id":"Qm9vbGVhbnNBcmVGdW4xMg","version":1,"author":"ada","updatedAt":"2026-01-01T00:00:00.000Z","document":\#(body)}"#
                ),
                "api/recordings": (
                    200,
                    #"{"recordings":[{"id":"r1","name":"n\#(escape(scalar))","events":1,"dropped":0,"updatedAt":"2026-01-01T00:00:00Z"}]}"#
                ),
            ])
            try await server.run { url in
                let lab = ["--lab", url.absoluteString]
                let pulled = CapturedConsole()
                var pull = try #require(
                    try TributaryCommand.parseAsRoot(["streams", "pull", "Qm9vbGVhbnNBcmVGdW4xMg"] + lab)
                        as? StreamsCommand.Pull
                )
                pull.options.environment = [:]
                try await pull.execute(console: pulled.console)
                let object = parse(pulled.output, scalar, "streams pull") as? [String: Any]
                #expect(object?["name"] as? String == name)

                let listed = CapturedConsole()
                var list = try #require(
                    try TributaryCommand.parseAsRoot(["recordings", "list", "--json"] + lab)
                        as? RecordingsCommand.List
                )
                list.options.environment = [:]
                try await list.execute(console: listed.console)
                let recordings = parse(listed.output, scalar, "recordings list") as? [[String: Any]]
                #expect(recordings?.first?["name"] as? String == name)
            }
        }
    }
}
