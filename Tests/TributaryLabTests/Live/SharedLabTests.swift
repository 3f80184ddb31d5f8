import Foundation
import HTTPTypes
import Testing
import TributaryAsyncHTTPClient
import TributaryLab
import TributaryLabWire
import TributaryTestSupport

/// Two lab instances behind one address: each with a store of its own on one PostgreSQL database.
@Suite(.timeLimit(.minutes(5)), .enabled(if: StoreBackend.available.contains(.postgres)))
struct SharedLabTests {
    struct Instance: Sendable {
        let lab: LabConnection
        let port: Int

        func live(_ id: String, withToken: Bool = false) -> LiveEndpoint {
            LiveEndpoint(
                url: "ws://127.0.0.1:\(port)/api/streams/\(id)/live",
                token: withToken ? lab.token : nil
            )
        }
    }

    func withTwoLabs(
        _ body: @Sendable (Instance, Instance, _ database: String) async throws -> Void
    ) async throws {
        let token = "shared-token-0123456789"
        try await PostgresTestServer.withDatabase { url in
            let first = LabServer(
                store: try PostgresDocumentStore(url: url, logger: quietLogger),
                token: token
            )
            let second = LabServer(
                store: try PostgresDocumentStore(url: url, logger: quietLogger),
                token: token
            )
            try await first.withRunning { firstURL in
                try await second.withRunning { secondURL in
                    try await AsyncHTTPClientTransport.withTransport { transport in
                        try await body(
                            Instance(
                                lab: LabConnection(base: firstURL, token: token, transport: transport),
                                port: firstURL.port ?? 0
                            ),
                            Instance(
                                lab: LabConnection(base: secondURL, token: token, transport: transport),
                                port: secondURL.port ?? 0
                            ),
                            url
                        )
                    }
                }
            }
        }
    }

    /// A save through either instance reaches the viewers of both, each version once and in order.
    @Test func aSaveThroughOneReachesTheViewersOfTheOther() async throws {
        try await withTwoLabs { first, second, database in
            let created = try await first.lab.send(.post, "/api/streams", body: document(named: "Shared"))
            let id = try #require(created.json["id"] as? String)
            let onFirst = LiveViewer(first.live(id))
            let onSecond = LiveViewer(second.live(id, withToken: true))
            try await waitUntil {
                !onFirst.messages(of: "snapshot").isEmpty && !onSecond.messages(of: "snapshot").isEmpty
            }

            let put = try await first.lab.send(
                .put,
                "/api/streams/\(id)",
                body: document(named: "Through the first"),
                headers: [.ifMatch: "\"1\""]
            )
            #expect(put.status == 200)
            try await waitUntil { !onSecond.messages(of: "saved").isEmpty }
            let saved = try #require(onSecond.messages(of: "saved").first)
            #expect(saved["version"] as? Int == 2)
            #expect((saved["document"] as? [String: Any])?["name"] as? String == "Through the first")

            try onSecond.save(document(named: "Through the second"), baseVersion: 2)
            try await waitUntil {
                onFirst.messages(of: "saved").count == 2 && onSecond.messages(of: "saved").count == 2
            }
            for viewer in [onFirst, onSecond] {
                #expect(viewer.messages(of: "saved").map { $0["version"] as? Int } == [2, 3])
            }
            let read = try await first.lab.send(.get, "/api/streams/\(id)")
            #expect(read.json["version"] as? Int == 3)
            onFirst.close()
            onSecond.close()
        }
    }

    /// A deletion through one instance tells the viewers of the other and ends their connections.
    @Test func aDeletionThroughOneEndsTheViewersOfTheOther() async throws {
        try await withTwoLabs { first, second, database in
            let created = try await first.lab.send(.post, "/api/streams", body: document(named: "Doomed"))
            let id = try #require(created.json["id"] as? String)
            let onSecond = LiveViewer(second.live(id))
            try await waitUntil { !onSecond.messages(of: "snapshot").isEmpty }
            #expect(try await first.lab.send(.delete, "/api/streams/\(id)").status == 204)
            try await waitUntil { !onSecond.messages(of: "deleted").isEmpty }
            await onSecond.ended()
            #expect(try await second.lab.send(.get, "/api/streams/\(id)").status == 404)
        }
    }

    /// Events ingested through one instance reach the viewers of a recording on the other, once
    /// and in order, and so does its deletion.
    @Test(.unsanitized("two labs and a flood of events; runs in the plain pass"))
    func anIngestThroughOneReachesTheRecordingViewersOfTheOther() async throws {
        try await withTwoLabs { first, second, database in
            let recorder = LiveViewer(first.lab.ingest("shared", recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            let id = try #require(recorder.messages(of: "stored").first?["recording"] as? String)
            recorder.send(batchText(first: 0, laneEvents("a", 2)))
            try await waitUntil { recorder.storedNext == [0, 2] }
            let viewer = LiveViewer(second.lab.watch(id))
            try await waitUntil { !viewer.messages(of: "snapshot").isEmpty }
            #expect((viewer.messages(of: "snapshot").first?["events"] as? [Any])?.count == 2)

            recorder.send(batchText(first: 2, laneEvents("a", 2, start: 2)))
            recorder.send(batchText(first: 4, laneEvents("b", 3, start: 4)))
            try await waitUntil {
                viewer.messages(of: "events").flatMap { $0["events"] as? [Any] ?? [] }.count == 5
            }
            let values = viewer.messages(of: "events").flatMap {
                ($0["events"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            }
            #expect(values == ["2", "3", "4", "5", "6"])
            #expect(try await first.lab.send(.delete, "/api/recordings/\(id)").status == 204)
            try await waitUntil { !viewer.messages(of: "deleted").isEmpty }
            await viewer.ended()
            recorder.close()
        }
    }

    /// When the connection that brings the notifications drops, an instance listens again and
    /// brings its viewers what was saved meanwhile.
    @Test func catchesUpAfterItsNotificationsDrop() async throws {
        try await withTwoLabs { first, second, database in
            let created = try await first.lab.send(.post, "/api/streams", body: document(named: "Dropped"))
            let id = try #require(created.json["id"] as? String)
            let onSecond = LiveViewer(second.live(id))
            try await waitUntil { !onSecond.messages(of: "snapshot").isEmpty }
            #expect(try await PostgresTestServer.terminateListeners(in: database) == 2)
            let put = try await first.lab.send(
                .put,
                "/api/streams/\(id)",
                body: document(named: "While nobody listened"),
                headers: [.ifMatch: "\"1\""]
            )
            #expect(put.status == 200)
            try await waitUntil { !onSecond.messages(of: "saved").isEmpty }
            #expect(onSecond.messages(of: "saved").first?["version"] as? Int == 2)
            onSecond.close()
        }
    }
}

/// The PostgreSQL store's own failures.
@Suite(.timeLimit(.minutes(5)))
struct PostgresDocumentStoreTests {
    @Test func refusesWhatIsNotAPostgresURL() {
        for url in ["http://example.com/db", "postgres://", "not a url", "postgres://h/db?sslmode=sometimes"]
        {
            #expect(throws: DocumentStoreError.self, "\(url)") { try PostgresDocumentStore(url: url) }
        }
        #expect(throws: Never.self) {
            try PostgresDocumentStore(url: "postgresql://ada:s%40cret@[::1]:6543/lab")
        }
    }

    /// A server that is not there is a storage error, soon, rather than a call that waits forever.
    @Test func reportsAServerThatIsNotThere() async throws {
        let port = try closedPort()
        let store = try PostgresDocumentStore(
            url: "postgres://nobody@127.0.0.1:\(port)/lab?sslmode=disable&connect_timeout=2",
            logger: quietLogger
        )
        await #expect(throws: DocumentStoreError.self) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await store.run() }
                group.addTask { _ = try await store.document("AAAAAAAAAAAAAAAAAAAAAA") }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
    }
}
