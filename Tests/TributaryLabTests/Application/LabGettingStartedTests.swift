import Foundation
import Testing
import TributaryLab

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The code of `TributaryLab`'s Getting Started article, as it is written there.
@Suite(.timeLimit(.minutes(2)))
struct LabGettingStartedTests {
    @Test func theArticlesCodeRuns() async throws {
        let token = "getting-started-token-0123"
        let folder = FileManager.default.temporaryDirectory.appending(path: "started-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let store = try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path)
        var configuration = LabConfiguration(host: "127.0.0.1", port: 0)
        configuration.writeTimeout = .seconds(30)  // how long an answer may wait for its reader
        configuration.maximumConnectionsPerAddress = 64
        let lab = LabServer(store: store, token: token, configuration: configuration)

        let status = try await lab.withRunning { url in
            // The lab answers at `url` until this closure returns: its pages, its API, its sockets.
            let (_, response) = try await URLSession.shared.data(from: url.appending(path: "api/health"))
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }
        #expect(status == 200)
    }
}
