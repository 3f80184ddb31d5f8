import Foundation
import Testing
import TributaryLab
import TributaryLabWire
import TributaryStreams

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The code of `TributaryLabWire`'s Getting Started article, as it is written there, against a
/// lab on loopback.
@Suite(.timeLimit(.minutes(2)))
struct LabWireGettingStartedTests {
    @Test func theArticlesCodeRuns() async throws {
        let token = "getting-started-token-0123"
        let folder = FileManager.default.temporaryDirectory.appending(path: "started-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lab = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: token
        )
        try await lab.withRunning(port: 0) { labURL in
            // Share a document and read the answer
            var create = URLRequest(url: labURL.appending(path: "api/streams"))
            create.httpMethod = "POST"
            create.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            create.setValue("application/json", forHTTPHeaderField: "Content-Type")
            create.httpBody = Data(
                #"""
                {"schemaVersion": 1, "name": "Doubled",
                 "streams": [{"id": "numbers", "items": [{"value": 1}, {"value": 2}]}],
                 "nodes": [{"id": "doubled", "operator": "map", "input": "numbers", "expression": "$0 * 2"}]}
                """#.utf8
            )
            let (body, _) = try await URLSession.shared.data(for: create)
            let shared = try LabJSON.decoder.decode(SharedDocument.self, from: body)
            print(shared.id, shared.version, shared.author)  // the id is the document's link
            #expect(shared.version == 1)
            #expect(shared.document.name == "Doubled")
            #expect(abs(shared.updatedAt.timeIntervalSinceNow) < 600)

            var read: SharedDocument?
            let link = shared.id.description  // as it reaches you: in a link, a file, an argument
            if let id = DocumentID(link) {
                let (again, _) = try await URLSession.shared.data(
                    from: labURL.appending(path: "api/streams/\(id)")
                )
                let latest = try LabJSON.decoder.decode(SharedDocument.self, from: again)
                print(latest.title, latest.version)  // Doubled 1
                read = latest
            }
            #expect(read == shared)
            let typo = "not an id"
            #expect(DocumentID(typo) == nil)

            // Read a refusal
            create.httpBody = Data(
                #"""
                {"schemaVersion": 1, "streams": [],
                 "nodes": [{"id": "doubled", "operator": "map", "input": "numbers", "expression": "$0 * 2"}]}
                """#.utf8
            )
            let (refusal, response) = try await URLSession.shared.data(for: create)
            var refused: LabProblem?
            if (response as? HTTPURLResponse)?.statusCode == 422 {
                let problem = try LabJSON.decoder.decode(LabErrorBody.self, from: refusal).error
                print(problem.code, problem.path ?? "", problem.message)  // invalidDocument $.nodes[0]…
                refused = problem
            }
            #expect(refused?.code == "invalidDocument")
            #expect(refused?.path?.hasPrefix("$.nodes[0]") == true)
        }
    }
}
