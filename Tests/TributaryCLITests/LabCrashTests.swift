import Foundation
import HTTPTypes
import Testing
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The lab killed with SIGKILL in the middle of saves, again and again: every save it answered
/// with 2xx is there afterwards, and the versions run on without a gap.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct LabCrashTests {
    static func tributaryExecutable() -> URL? {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        if let main = Bundle.main.executableURL { directory = main.deletingLastPathComponent() }
        for _ in 0..<4 {
            let candidate = directory.appending(path: "tributary")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// Starts `tributary lab` on a free port over `database`; returns the process and its URL.
    static func startLab(_ executable: URL, database: String, token: String) async throws -> (Spawned, URL) {
        let process = try Spawned(
            executable,
            arguments: ["lab", "--port", "0", "--database", database, "--token", token],
            discardingErrors: true
        )
        let output = process.standardOutput
        let line = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            DispatchQueue.global().async {
                var text = ""
                while !text.contains("\n") {
                    let data = output.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                continuation.resume(returning: text)
            }
        }
        // "Tributary lab at http://127.0.0.1:PORT/?token=…"
        let address = line.split(separator: " ").last.map(String.init) ?? ""
        let base = try #require(URL(string: address.components(separatedBy: "/?").first ?? ""))
        return (process, base)
    }

    @Test func everyAnsweredSaveSurvivesAKill() async throws {
        let executable = try #require(Self.tributaryExecutable(), "tributary is built with the tests")
        let folder = FileManager.default.temporaryDirectory.appending(path: "lab-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appending(path: "lab.sqlite").path
        let token = "crash-token-0123456789"
        let document = try Data(contentsOf: URL(fileURLWithPath: StreamsLabCommandTests.example))
        var acknowledged: [Int] = []
        var id: String?
        try await AsyncHTTPClientTransport.withTransport { transport in
            func send(
                _ method: HTTPRequest.Method,
                _ url: String,
                version: Int? = nil
            ) async throws -> (Int, [String: Any]) {
                var head = HTTPRequest(method: method, url: URL(string: url)!)
                head.headerFields[.authorization] = "Bearer \(token)"
                head.headerFields[.contentType] = "application/json"
                if let version { head.headerFields[.ifMatch] = "\"\(version)\"" }
                let response = try await transport.send(
                    TransportRequest(head: head, body: method == .get ? nil : document, timeout: .seconds(10))
                )
                let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
                return (response.head.status.code, json)
            }
            for round in 0..<6 {
                let (process, base) = try await Self.startLab(executable, database: database, token: token)
                if id == nil {
                    let (status, json) = try await send(.post, base.absoluteString + "/api/streams")
                    #expect(status == 201)
                    id = json["id"] as? String
                    acknowledged.append(1)
                }
                let documentURL = base.absoluteString + "/api/streams/\(id ?? "")"
                let version = try await send(.get, documentURL).1["version"] as? Int ?? 0
                // Saves run on in a task of their own; the lab is killed as soon as enough were
                // answered, in the middle of whichever save is under way.
                let answered = Locked<[Int]>([])
                let saving = Task { [version] in
                    var version = version
                    while !Task.isCancelled {
                        guard let (status, json) = try? await send(.put, documentURL, version: version) else {
                            return
                        }
                        if status == 200, let saved = json["version"] as? Int {
                            answered.withLock { $0.append(saved) }
                            version = saved
                        } else if status == 412, let current = json["version"] as? Int {
                            version = current
                        }
                    }
                }
                try await waitUntil { answered.current.count >= 3 + round * 2 }
                process.signal(SIGKILL)
                _ = await saving.result
                acknowledged += answered.current
                #expect(process.wait() == .signal(SIGKILL))
            }
            let (process, base) = try await Self.startLab(executable, database: database, token: token)
            defer {
                process.signal(SIGTERM)
                _ = process.wait()
            }
            let (status, json) = try await send(
                .get,
                base.absoluteString + "/api/streams/\(id ?? "")/versions"
            )
            #expect(status == 200)
            let numbers = (json["versions"] as? [[String: Any]] ?? []).compactMap { $0["number"] as? Int }
            #expect(Set(acknowledged).isSubset(of: Set(numbers)), "\(acknowledged) ⊄ \(numbers)")
            #expect(numbers == Array(1...(numbers.last ?? 0)))
            #expect(acknowledged.count > 10)
        }
    }
}
