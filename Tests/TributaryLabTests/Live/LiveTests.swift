import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOWebSocket
import Testing
import TributaryAsyncHTTPClient
import TributaryLab
import TributaryLabWire
import TributaryTestSupport
import WSCore

/// Where a live connection goes, and the token it sends as `Authorization: Bearer`, if any.
struct LiveEndpoint: Sendable {
    var url: String
    var token: String?
}

/// A viewer of a document over `GET /api/streams/{id}/live`, as a client of the lab's own.
final class LiveViewer: Sendable {
    private let received = Locked<[String]>([])
    private let outgoing: AsyncStream<String>.Continuation
    private let connection: Task<WebSocketCloseFrame?, any Error>

    init(_ endpoint: LiveEndpoint, headers: HTTPFields = [:], maxFrameSize: Int = 4 << 20) {
        var headers = headers
        if let token = endpoint.token { headers[.authorization] = "Bearer \(token)" }
        let (messages, outgoing) = AsyncStream<String>.makeStream()
        self.outgoing = outgoing
        let received = received
        var logger = Logger(label: "LiveViewer")
        logger.logLevel = .critical
        connection = Task {
            try await WebSocketClient.connect(
                url: endpoint.url,
                configuration: .init(maxFrameSize: maxFrameSize, additionalHeaders: headers),
                logger: logger
            ) {
                inbound,
                outbound,
                _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in messages { try await outbound.writeTextMessage(text) }
                    }
                    for try await message in inbound.messages(maxSize: 4 << 20) {
                        if case .text(let text) = message { received.withLock { $0.append(text) } }
                    }
                    group.cancelAll()
                }
            }
        }
    }

    /// The messages received so far, as JSON objects.
    var messages: [[String: Any]] {
        received.current.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    func messages(of type: String) -> [[String: Any]] { messages.filter { $0["type"] as? String == type } }

    func send(_ text: String) { outgoing.yield(text) }

    func save(_ document: Data, baseVersion: Int) throws {
        let object = try JSONSerialization.jsonObject(with: document)
        let message = try JSONSerialization.data(withJSONObject: [
            "type": "save", "baseVersion": baseVersion, "document": object,
        ])
        send(String(decoding: message, as: UTF8.self))
    }

    /// How the lab closed a connection.
    struct Closing: Sendable {
        var code: WebSocketErrorCode
        var reason: String?
    }

    /// Waits until the connection has ended; how the lab closed it, when it said.
    @discardableResult
    func ended() async -> Closing? {
        guard let frame = (try? await connection.value) ?? nil else { return nil }
        return Closing(code: frame.closeCode, reason: frame.reason)
    }

    func close() {
        outgoing.finish()
        connection.cancel()
    }
}

/// Runs a lab with its WebSockets on a free port, with one document made, for `body`.
func withLiveLab(
    _ body:
        @Sendable (_ lab: LabConnection, _ id: String, _ live: @Sendable (Bool) -> LiveEndpoint) async throws
        ->
        Void
) async throws {
    let folder = FileManager.default.temporaryDirectory.appending(path: "live-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let token = "live-token-0123456789"
    let server = LabServer(
        store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
        token: token
    )
    try await server.withRunning { url in
        try await AsyncHTTPClientTransport.withTransport { transport in
            let lab = LabConnection(base: url, token: token, transport: transport)
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Shared"))
            let id = try #require(created.json["id"] as? String)
            let port = url.port ?? 0
            try await body(lab, id) { withToken in
                LiveEndpoint(
                    url: "ws://127.0.0.1:\(port)/api/streams/\(id)/live",
                    token: withToken ? token : nil
                )
            }
        }
    }
}

/// Several viewers of one document see each other's saves, as they happen.
@Suite(.timeLimit(.minutes(5)))
struct LiveTests {
    @Test func aSaveReachesEveryViewerAndAStaleOneConflicts() async throws {
        try await withLiveLab { lab, id, live in
            let editor = LiveViewer(live(true))
            try await waitUntil { !editor.messages(of: "snapshot").isEmpty }
            let snapshot = try #require(editor.messages(of: "snapshot").first)
            #expect(snapshot["version"] as? Int == 1)
            // How many view comes in the presence that follows; the snapshot is one copy for all.
            try await waitUntil { editor.messages(of: "presence").contains { $0["viewers"] as? Int == 1 } }
            let watcher = LiveViewer(live(false))
            try await waitUntil { editor.messages(of: "presence").contains { $0["viewers"] as? Int == 2 } }
            try await waitUntil { !watcher.messages(of: "snapshot").isEmpty }

            try editor.save(document(named: "Edited live"), baseVersion: 1)
            try await waitUntil {
                !watcher.messages(of: "saved").isEmpty && !editor.messages(of: "saved").isEmpty
            }
            let saved = try #require(watcher.messages(of: "saved").first)
            #expect(saved["version"] as? Int == 2)
            #expect((saved["document"] as? [String: Any])?["name"] as? String == "Edited live")

            // Based on version 1 again: refused to the sender alone, with the current document.
            try editor.save(document(named: "Too late"), baseVersion: 1)
            try await waitUntil { !editor.messages(of: "conflict").isEmpty }
            #expect(editor.messages(of: "conflict").first?["version"] as? Int == 2)
            #expect(watcher.messages(of: "conflict").isEmpty && watcher.messages(of: "saved").count == 1)

            // A viewer without the token cannot save.
            try watcher.save(document(named: "Not mine"), baseVersion: 2)
            try await waitUntil { !watcher.messages(of: "invalid").isEmpty }
            #expect(
                (watcher.messages(of: "invalid").first?["error"] as? [String: Any])?["code"] as? String
                    == "unauthorized"
            )

            // A save through the API reaches the viewers too.
            let put = try await lab.send(
                .put,
                "/api/streams/\(id)",
                body: document(named: "From REST"),
                headers: [.ifMatch: "\"2\""]
            )
            #expect(put.status == 200)
            try await waitUntil { watcher.messages(of: "saved").count == 2 }
            #expect(try await lab.send(.get, "/api/streams/\(id)").json["version"] as? Int == 3)

            watcher.close()
            try await waitUntil { editor.messages(of: "presence").last?["viewers"] as? Int == 1 }
            editor.close()
        }
    }

    /// Viewers who say who they are are named in everyone's presence; saves carry the author.
    @Test func namesTheViewersWhoGaveANameAndCreditsSaves() async throws {
        try await withLiveLab { lab, id, live in
            let ada = LiveViewer(live(true))
            let watcher = LiveViewer(live(false))
            try await waitUntil { watcher.messages(of: "presence").last?["viewers"] as? Int == 2 }
            #expect(watcher.messages(of: "presence").last?["names"] as? [String] == [])

            ada.send(#"{"type":"hello","name":"  Ada\u0007 Lovelace  "}"#)
            try await waitUntil {
                watcher.messages(of: "presence").last?["names"] as? [String] == ["Ada Lovelace"]
            }
            watcher.send(#"{"type":"hello","name":"Grace"}"#)
            try await waitUntil {
                ada.messages(of: "presence").last?["names"] as? [String] == ["Ada Lovelace", "Grace"]
            }
            // A name of nothing but spaces takes the name back; one far too long is cut to 64.
            watcher.send(#"{"type":"hello","name":"   "}"#)
            try await waitUntil {
                ada.messages(of: "presence").last?["names"] as? [String] == ["Ada Lovelace"]
            }
            ada.send(#"{"type":"hello","name":"\#(String(repeating: "x", count: 500))"}"#)
            try await waitUntil {
                ada.messages(of: "presence").last?["names"] as? [String] == [
                    String(repeating: "x", count: 64)
                ]
            }
            watcher.send(#"{"type":"hello"}"#)
            try await waitUntil { !watcher.messages(of: "invalid").isEmpty }

            ada.send(
                #"{"type":"save","baseVersion":1,"author":"Ada Lovelace","document":"#
                    + String(decoding: document(named: "Named"), as: UTF8.self) + "}"
            )
            try await waitUntil {
                watcher.messages(of: "saved").first?["author"] as? String == "Ada Lovelace"
            }
            let versions = try await lab.send(.get, "/api/streams/\(id)/versions")
            #expect(versions.text.contains("Ada Lovelace"))

            ada.close()
            try await waitUntil { watcher.messages(of: "presence").last?["names"] as? [String] == [] }
            watcher.close()
        }
    }

    /// Bad messages get an answer and change nothing; nothing crashes.
    @Test func answersBadMessagesWithoutChangingTheDocument() async throws {
        try await withLiveLab { lab, id, live in
            let viewer = LiveViewer(live(true))
            try await waitUntil { !viewer.messages(of: "snapshot").isEmpty }
            viewer.send("not json")
            viewer.send(#"{"type":"dance"}"#)
            viewer.send(#"{"type":"save","document":{}}"#)
            var broken = String(decoding: document(named: "Broken"), as: UTF8.self)
            broken = broken.replacingOccurrences(of: "$0 * 2", with: "$0 * * 2")
            try viewer.save(Data(broken.utf8), baseVersion: 1)
            try await waitUntil { viewer.messages(of: "invalid").count == 4 }
            let codes = viewer.messages(of: "invalid").compactMap {
                ($0["error"] as? [String: Any])?["code"] as? String
            }
            #expect(codes == ["malformedJSON", "unknownMessage", "badMessage", "invalidDocument"])
            #expect(
                (viewer.messages(of: "invalid").last?["error"] as? [String: Any])?["path"] as? String
                    == "$.nodes[0].expression"
            )
            #expect(try await lab.send(.get, "/api/streams/\(id)").json["version"] as? Int == 1)
            viewer.close()
        }
    }

    /// A viewer that comes back says what it has, and gets what it missed as one snapshot.
    @Test func resumesWithWhatWasMissed() async throws {
        try await withLiveLab { lab, id, live in
            let first = LiveViewer(live(false))
            try await waitUntil { !first.messages(of: "snapshot").isEmpty }
            first.close()
            await first.ended()
            _ = try await lab.send(
                .put,
                "/api/streams/\(id)",
                body: document(named: "While away"),
                headers: [.ifMatch: "\"1\""]
            )
            let again = LiveViewer(live(false))
            try await waitUntil { !again.messages(of: "snapshot").isEmpty }
            again.send(#"{"type":"resume","version":1}"#)
            try await waitUntil { again.messages(of: "snapshot").count == 2 }
            #expect(again.messages(of: "snapshot").last?["version"] as? Int == 2)
            again.send(#"{"type":"resume","version":2}"#)
            again.send(#"{"type":"dance"}"#)
            try await waitUntil { !again.messages(of: "invalid").isEmpty }
            #expect(again.messages(of: "snapshot").count == 2)
            again.close()
        }
    }

    /// Deleting the document tells every viewer and ends their connections.
    @Test func tellsViewersOfADeletion() async throws {
        try await withLiveLab { lab, id, live in
            let viewer = LiveViewer(live(false))
            try await waitUntil { !viewer.messages(of: "snapshot").isEmpty }
            #expect(try await lab.send(.delete, "/api/streams/\(id)").status == 204)
            try await waitUntil { !viewer.messages(of: "deleted").isEmpty }
            await viewer.ended()
        }
    }
}

/// The pulse every page of the lab holds open, to say at once when the lab is gone and when it
/// is back.
@Suite(.timeLimit(.minutes(5)))
struct PulseTests {
    @Test func saysWhenTheLabStartedAndClosesWhenItStops() async throws {
        let opened = Locked<LiveViewer?>(nil)
        let before = Date()
        try await withLiveLab { _, _, live in
            // Anyone may hold one: no token, as a share link's viewer has none.
            let url = live(false).url.replacingOccurrences(
                of: #"/api/streams/.*"#,
                with: "/api/pulse",
                options: .regularExpression
            )
            let pulse = LiveViewer(LiveEndpoint(url: url, token: nil))
            opened.withLock { $0 = pulse }
            try await waitUntil { !pulse.messages(of: "lab").isEmpty }
            let greeting = try #require(pulse.messages(of: "lab").first)
            let startedAt = try Date(
                #require(greeting["startedAt"] as? String),
                strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            )
            #expect(startedAt >= before.addingTimeInterval(-1) && startedAt <= Date())
            #expect(greeting.count == 2)
        }
        // The lab stopped: it said so with a close frame, not by dropping the connection.
        #expect(await opened.current?.ended() != nil)
    }

    /// A lab that is stopping closes its sockets, rather than wait for the pages holding them
    /// to leave: a client here that never answers a close holds the lab no longer.
    @Test func stopsWithoutWaitingForTheSocketsItHolds() async throws {
        let held = Locked<RawConnection?>(nil)
        try await withLab { lab in
            let pulse = try RawConnection(port: lab.base.port ?? 0)
            held.withLock { $0 = pulse }
            pulse.send(
                "GET /api/pulse HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            let greeting = await pulse.readUntil(timeout: .seconds(30)) { $0.contains("startedAt") }
            #expect(greeting.hasPrefix("HTTP/1.1 101"))
        }
        // Here only once the lab has stopped, with the socket still held open on this side.
        let (bytes, closed) = try #require(await held.current?.readBytes(timeout: .seconds(30)))
        #expect(closed)
        // A close frame came before the connection ended: 1001, going away.
        let close = try #require(bytes.firstIndex(of: 0x88))
        #expect(Array(bytes[(close + 2)...].prefix(2)) == [0x03, 0xE9])
    }
}
