import CombineSchedulers
import Foundation
import HTTPTypes
import Testing
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryLab
import TributaryLabClient
import TributaryLabWire
import TributaryStreams
import TributaryTestSupport

/// The Swift client against a running lab.
@Suite(.timeLimit(.minutes(5)))
struct LabClientTests {
    let token = "client-token-0123456789"

    func sample(_ name: String, expression: String = "$0 * 2") throws -> StreamDocument {
        let text = String(decoding: document(named: name), as: UTF8.self).replacingOccurrences(
            of: "$0 * 2",
            with: expression
        )
        return try StreamDocument.decode(Data(text.utf8))
    }

    func withServer<Result: Sendable>(
        database: URL,
        port: Int = 0,
        _ body: @Sendable (URL, LabClient) async throws -> Result
    ) async throws -> Result {
        let server = LabServer(store: try SQLiteDocumentStore(path: database.path), token: token)
        return try await server.withRunning(port: port) { url in
            try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(
                    url,
                    LabClient(baseURL: url, token: token, transport: transport, retryPolicy: .never)
                )
            }
        }
    }

    @Test func createsReadsAndSavesWithVersions() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database: folder.appending(path: "lab.sqlite")) { _, client in
            let created = try await client.create(try sample("From Swift"))
            #expect(created.version == 1 && created.document.name == "From Swift")
            let saved = try await client.save(created.id, document: try sample("Again"), baseVersion: 1)
            #expect(saved.version == 2)
            // A stale save is a conflict that carries the document as it is now, to merge with.
            let late = try sample("Late")
            do throws(LabSaveError) {
                _ = try await client.save(created.id, document: late, baseVersion: 1)
                Issue.record("a stale save went through")
            } catch {
                guard case .conflict(let current) = error else {
                    Issue.record("a stale save failed with \(error)")
                    return
                }
                #expect(current.id == created.id && current.version == 2 && current.document.name == "Again")
                #expect(current.author == "anonymous")
            }
            #expect(try await client.document(created.id).document.name == "Again")
            #expect(try await client.document(created.id, version: 1).document.name == "From Swift")
            #expect(try await client.versions(of: created.id).map(\.number) == [1, 2])
            let list = try await client.documents(limit: 5)
            #expect(list.documents.map(\.id) == [created.id] && list.documents.first?.title == "Again")
            #expect(list.nextCursor == nil)
        }
    }

    /// A conflict brings the whole document, however much larger than what the client keeps
    /// of an error's body.
    @Test func aStaleSaveOfALargeDocumentBringsItWhole() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database: folder.appending(path: "lab.sqlite")) { _, client in
            var large = try sample("Large")
            large.description = String(repeating: "x", count: 200_000)
            let created = try await client.create(large)
            _ = try await client.save(created.id, document: large, baseVersion: 1)
            do throws(LabSaveError) {
                _ = try await client.save(created.id, document: large, baseVersion: 1)
                Issue.record("a stale save went through")
            } catch {
                guard case .conflict(let current) = error else {
                    Issue.record("a stale save failed with \(error)")
                    return
                }
                #expect(current.version == 2 && current.document == large)
            }
        }
    }

    /// The REST calls and the live connection follow a change of the base URL or the token:
    /// neither is kept from when the client was made.
    @Test func aChangedBaseURLOrTokenReachesEveryCall() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database: folder.appending(path: "lab.sqlite")) { url, client in
            var client = client
            client.token = "not-the-token-0123456789"
            let refused = try sample("Refused")
            do throws(APIError) {
                _ = try await client.create(refused)
                Issue.record("a wrong token was taken")
            } catch {
                #expect(error.status == .unauthorized)
            }
            client.token = token
            let created = try await client.create(try sample("Accepted"))
            client.baseURL = URL(string: "http://127.0.0.1:1")!
            do throws(APIError) {
                _ = try await client.document(created.id)
                Issue.record("a request reached the lab at its old address")
            } catch {
                guard case .transport = error.kind else {
                    Issue.record("\(error)")
                    return
                }
            }
            client.baseURL = url
            #expect(try await client.document(created.id).document.name == "Accepted")
        }
    }

    /// The live publisher gives the document, then each saved version, and fails when it is
    /// deleted.
    @Test func followsEverySave() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database: folder.appending(path: "lab.sqlite")) { _, client in
            let created = try await client.create(try sample("Live"))
            let versions = Locked<[Int]>([])
            let ended = Locked<String?>(nil)
            let subscription = client.live(created.id).sink(
                receiveCompletion: { completion in ended.withLock { $0 = "\(completion)" } },
                receiveValue: { shared in versions.withLock { $0.append(shared.version) } }
            )
            try await waitUntil { versions.current == [1] }
            _ = try await client.save(created.id, document: try sample("Two"), baseVersion: 1)
            _ = try await client.save(created.id, document: try sample("Three"), baseVersion: 2)
            try await waitUntil { versions.current == [1, 2, 3] }
            try await client.delete(created.id)
            try await waitUntil { ended.current != nil }
            #expect(ended.current?.contains("deleted") == true)
            subscription.cancel()
        }
    }

    /// A document far larger than a WebSocket frame's usual 16 KiB arrives whole, and so does
    /// each save of it.
    @Test func followsALargeDocument() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database: folder.appending(path: "lab.sqlite")) { _, client in
            let large = try StreamDocument.decode(document(named: "Large", values: Array(0..<4_000)))
            #expect(try large.encoded().count > 100 << 10)
            let created = try await client.create(large)
            let received = Locked<[SharedDocument]>([])
            let subscription = client.live(created.id).sink(
                receiveCompletion: { _ in },
                receiveValue: { shared in received.withLock { $0.append(shared) } }
            )
            try await waitUntil { received.current.count == 1 }
            _ = try await client.save(created.id, document: large, baseVersion: 1)
            try await waitUntil { received.current.count == 2 }
            #expect(received.current.map(\.version) == [1, 2])
            #expect(received.current.allSatisfy { $0.document == large })
            subscription.cancel()
        }
    }

    /// The lab restarts on the same port and file while a client listens: the client connects
    /// again, resumes, and publishes what was saved meanwhile, once.
    @Test func reconnectsAfterTheLabRestarts() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appending(path: "lab.sqlite")
        let versions = Locked<[Int]>([])
        let (port, id, subscription) = try await withServer(database: database) { url, client in
            let created = try await client.create(try sample("Survives"))
            let subscription = client.live(created.id).sink(
                receiveCompletion: { _ in },
                receiveValue: { shared in versions.withLock { $0.append(shared.version) } }
            )
            try await waitUntil { versions.current == [1] }
            return (url.port ?? 0, created.id, Locked(subscription))
        }
        try await withServer(database: database, port: port) { _, client in
            _ = try await client.save(id, document: try sample("After the restart"), baseVersion: 1)
            try await waitUntil { versions.current == [1, 2] }
        }
        subscription.withLock { $0.cancel() }
        #expect(versions.current == [1, 2])
    }

    /// The payoff: an app runs the pipeline someone else edits, and picks up each new version
    /// without a release.
    @Test func runsThePipelineSomeoneElseEdits() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database: folder.appending(path: "lab.sqlite")) { _, client in
            let created = try await client.create(try sample("Shared pipeline"))
            let scheduler = DispatchQueue.test
            let values = Locked<[String]>([])
            let running = client.live(created.id)
                .map { shared -> AnyPublisher<String, LiveDocumentError> in
                    guard let pipeline = try? shared.document.publisher(for: "doubled", scheduler: scheduler)
                    else {
                        return Empty().eraseToAnyPublisher()
                    }
                    return pipeline.map { "\($0)" }.catch { _ in Empty<String, Never>() }
                        .setFailureType(to: LiveDocumentError.self).eraseToAnyPublisher()
                }
                .switchToLatest()
                .sink(
                    receiveCompletion: { _ in },
                    receiveValue: { value in values.withLock { $0.append(value) } }
                )
            try await waitUntil {
                await scheduler.advance(by: .seconds(1))
                return values.current.count == 3
            }
            #expect(values.current == ["2", "4", "6"])
            _ = try await client.save(
                created.id,
                document: try sample("Edited", expression: "$0 * 10"),
                baseVersion: 1
            )
            try await waitUntil {
                await scheduler.advance(by: .seconds(1))
                return values.current.count == 6
            }
            #expect(Array(values.current.suffix(3)) == ["10", "20", "30"])
            running.cancel()
        }
    }
}

extension LabClientTests {
    /// Following an id the lab does not have fails with `notFound`, rather than retrying for
    /// ever.
    @Test func followingAnUnknownDocumentFailsWithNotFound() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database: folder.appending(path: "lab.sqlite")) { _, client in
            let ended = Locked<String?>(nil)
            let subscription = client.live("AAAAAAAAAAAAAAAAAAAAAA").sink(
                receiveCompletion: { completion in ended.withLock { $0 = "\(completion)" } },
                receiveValue: { _ in }
            )
            try await waitUntil { ended.current != nil }
            #expect(ended.current?.contains("There is no document") == true, "\(ended.current ?? "")")
            subscription.cancel()
        }
    }
}
