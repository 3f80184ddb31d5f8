import Foundation
import Testing
import Tributary
import TributaryHTTP
import TributaryLab
import TributaryLabClient
import TributaryLabWire
import TributaryStreams
import TributaryTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The code of `TributaryLabClient`'s Getting Started article, as it is written there, against a
/// lab on loopback: what the article shows compiles and does what it says.
@Suite(.timeLimit(.minutes(2)))
struct LabClientGettingStartedTests {
    @Test func theArticlesCodeRuns() async throws {
        let token = "getting-started-token-0123"
        let folder = FileManager.default.temporaryDirectory.appending(path: "started-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: token
        )
        try await server.withRunning(port: 0) { labURL in
            // Share a document
            let lab = LabClient(baseURL: labURL, token: token, transport: URLSessionTransport())
            let json = #"""
                {"schemaVersion": 1, "name": "Doubled",
                 "streams": [{"id": "numbers", "items": [{"value": 1}, {"value": 2}, {"value": 3}]}],
                 "nodes": [{"id": "doubled", "operator": "map", "input": "numbers", "expression": "$0 * 2"}]}
                """#
            let shared = try await lab.create(try StreamDocument.decode(Data(json.utf8)))
            #expect(shared.version == 1 && shared.document.name == "Doubled")

            // Save a new version
            var edited = shared.document
            edited.name = "Doubled, named again"
            let saved = try await lab.save(shared.id, document: edited, baseVersion: shared.version)
            #expect(saved.version == 2)

            var conflicted: SharedDocument?
            do {
                _ = try await lab.save(shared.id, document: edited, baseVersion: shared.version)
            } catch LabSaveError.conflict(let current) {
                conflicted = current
            }
            #expect(conflicted?.version == saved.version)

            // Follow it live
            let seen = Locked<[Int]>([])
            let versions = lab.live(shared.id)
                .map(\.version)
                .sink(
                    receiveCompletion: { _ in },
                    receiveValue: { version in seen.withLock { $0.append(version) } }
                )
            try await waitUntil { seen.current == [2] }
            _ = try await lab.save(shared.id, document: shared.document, baseVersion: 2)
            try await waitUntil { seen.current == [2, 3] }
            versions.cancel()
            #expect(try await lab.versions(of: shared.id).map(\.number).sorted() == [1, 2, 3])
            #expect(try await lab.document(shared.id, version: 1).document.name == "Doubled")
        }
    }
}
