import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import Logging
import NIOCore
import Testing
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryLab
import TributaryLabWire
import TributarySandbox
import TributaryTestSupport
import WSCore

/// The live routes driven through Hummingbird's own test framework: the application started by
/// `app.test(.live)`, its WebSockets opened by `client.ws`.
@Suite(.timeLimit(.minutes(5)))
struct LiveApplicationTests {
    static let token = "live-application-token-0123456789"

    /// A lab on a store in a folder of its own, with one document made and `news` if given, for
    /// `body`.
    static func withLiveApplication(
        news: LabNews? = nil,
        _ body: @Sendable (_ client: any TestClientProtocol, _ id: String) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "live-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path)
        var logger = Logger(label: "LiveApplicationTests")
        logger.logLevel = .critical
        // Hummingbird's test client holds one connection and never opens another, so the lab
        // must not close it as idle while a slow machine runs the test's WebSockets.
        var configuration = LabConfiguration()
        configuration.idleTimeout = .seconds(600)
        let app = LabServer(store: store, token: token, news: news, configuration: configuration)
            .buildApplication(logger: logger)
        try await app.test(.live) { client in
            let id = try await client.execute(
                uri: "/api/streams",
                method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                body: ByteBuffer(bytes: document(named: "Shared"))
            ) { response in
                #expect(response.status == .created)
                let object =
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                    as? [String: Any]
                return try #require(object?["id"] as? String)
            }
            try await body(client, id)
        }
    }

    /// Opens the document's live route, with the token when `authorized`; sends `messages`
    /// once the snapshot has come, and answers what came, as JSON objects, from the snapshot
    /// to the first message `last` accepts.
    static func view(
        _ id: String,
        with client: some TestClientProtocol,
        authorized: Bool,
        sending messages: [String] = [],
        until last: @escaping @Sendable ([String: Any]) -> Bool
    ) async throws -> [[String: Any]] {
        try await texts(
            "/api/streams/\(id)/live",
            with: client,
            authorized: authorized,
            sending: messages,
            until: last
        )
        .map(object)
    }

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// The messages of the live route at `path` as they came, with `messages` sent once a
    /// message of type `first` has come (at once when `first` is `nil`), and `ready` called then.
    static func texts(
        _ path: String,
        with client: some TestClientProtocol,
        authorized: Bool,
        sending messages: [String] = [],
        once first: String? = "snapshot",
        ready: (@Sendable () -> Void)? = nil,
        until last: @escaping @Sendable ([String: Any]) -> Bool
    ) async throws -> [String] {
        let received = Locked<[String]>([])
        var headers: HTTPFields = [:]
        if authorized { headers[.authorization] = "Bearer \(token)" }
        try await client.ws(path, configuration: .init(maxFrameSize: 4 << 20, additionalHeaders: headers)) {
            inbound,
            outbound,
            _ in
            if first == nil {
                for message in messages { try await outbound.write(.text(message)) }
                ready?()
            }
            for try await message in inbound.messages(maxSize: 4 << 20) {
                guard case .text(let text) = message else { continue }
                let object = Self.object(text)
                received.withLock { $0.append(text) }
                if let first, object["type"] as? String == first {
                    for message in messages { try await outbound.write(.text(message)) }
                    ready?()
                }
                if last(object) { return }
            }
        }
        return received.withLock { $0 }
    }

    static func type(_ name: String) -> @Sendable ([String: Any]) -> Bool {
        { $0["type"] as? String == name }
    }

    static func save(named name: String, baseVersion: Int) throws -> String {
        let message: [String: Any] = [
            "type": "save", "baseVersion": baseVersion,
            "document": try JSONSerialization.jsonObject(with: document(named: name)),
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self)
    }

    /// The news reader's route: the page sends its inputs, the lab answers with the pickers'
    /// choices from the news server, and refuses a page without the session or the token.
    @Test func theNewsRouteAnswersThePagesInputs() async throws {
        try await withSandboxNews { news, _, _ in
            try await Self.withLiveApplication(news: news) { client, _ in
                let input = #"{"type":"input","feed":{"kind":"top","country":"us"},"searchText":""}"#
                let messages = try await Self.texts(
                    "/api/news/live",
                    with: client,
                    authorized: true,
                    sending: [input],
                    once: nil,
                    until: Self.type("choices")
                ).map(Self.object)
                let countries = messages.last?["countries"] as? [String] ?? []
                #expect(countries.contains("us"), "\(messages)")
                await #expect(throws: (any Error).self) {
                    try await Self.texts(
                        "/api/news/live",
                        with: client,
                        authorized: false,
                        until: { _ in true }
                    )
                }
            }
        }
    }

    @Test func aViewerGetsTheSnapshotOnJoining() async throws {
        try await Self.withLiveApplication { client, id in
            let messages = try await Self.view(
                id,
                with: client,
                authorized: false,
                until: Self.type("snapshot")
            )
            let snapshot = try #require(messages.first)
            #expect(snapshot["type"] as? String == "snapshot")
            #expect(snapshot["version"] as? Int == 1)
            #expect((snapshot["document"] as? [String: Any])?["name"] as? String == "Shared")
            // Read as the lab sends it: a client library can lose a connection that ends as
            // soon as it is upgraded, before its handler sees the message.
            let missing = try await RawConnection.webSocket(
                "/api/streams/AAAAAAAAAAAAAAAAAAAAAA/live",
                port: try #require(client.port)
            )
            #expect(missing.hasPrefix("HTTP/1.1 101") && missing.contains(#"{"type":"notFound"}"#))
        }
    }

    @Test func aSaveReachesASecondViewer() async throws {
        try await Self.withLiveApplication { client, id in
            let (watching, watchingStarted) = AsyncStream<Void>.makeStream()
            try await withThrowingTaskGroup(of: [String].self) { group in
                group.addTask {
                    try await Self.texts(
                        "/api/streams/\(id)/live",
                        with: client,
                        authorized: false,
                        ready: { watchingStarted.yield() },
                        until: Self.type("saved")
                    )
                }
                for await _ in watching { break }
                let editor = try await Self.view(
                    id,
                    with: client,
                    authorized: true,
                    sending: [try Self.save(named: "Edited", baseVersion: 1)],
                    until: Self.type("saved")
                )
                #expect(editor.last?["version"] as? Int == 2)
                let watcher = try #require(try await group.next())
                let saved = Self.object(try #require(watcher.last))
                #expect(saved["type"] as? String == "saved")
                #expect(saved["version"] as? Int == 2)
                #expect((saved["document"] as? [String: Any])?["name"] as? String == "Edited")
            }
        }
    }

    @Test func aSaveWithoutTheTokenIsRefused() async throws {
        try await Self.withLiveApplication { client, id in
            let messages = try await Self.view(
                id,
                with: client,
                authorized: false,
                sending: [try Self.save(named: "Anonymous", baseVersion: 1)],
                until: Self.type("invalid")
            )
            let error = messages.last?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "unauthorized")
            try await client.execute(uri: "/api/streams/\(id)", method: .get) { response in
                let object =
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                    as? [String: Any]
                #expect(object?["version"] as? Int == 1)
            }
        }
    }

    @Test(arguments: ["not json", #"{"type":"dance"}"#, #"{"type":"save","document":{}}"#])
    func aMalformedMessageIsAnsweredInvalid(message: String) async throws {
        try await Self.withLiveApplication { client, id in
            let messages = try await Self.view(
                id,
                with: client,
                authorized: true,
                sending: [message],
                until: Self.type("invalid")
            )
            let error = messages.last?["error"] as? [String: Any]
            #expect(
                ["malformedJSON", "unknownMessage", "badMessage"].contains(error?["code"] as? String ?? "")
            )
            let words = error?["message"] as? String ?? ""
            #expect(!words.isEmpty)
        }
    }
}
