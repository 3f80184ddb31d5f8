import Foundation
import Testing
import TributaryLab
import TributaryStreams

/// The SQLite store on real files.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteDocumentStoreTests {
    let folder = FileManager.default.temporaryDirectory.appending(path: "store-\(UUID().uuidString)")

    func sample(_ name: String) throws -> StreamDocument {
        try StreamDocument.decode(document(named: name))
    }

    /// The folder and file are made on first start; what was saved is there after reopening.
    @Test func keepsDocumentsAcrossReopening() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "nested/lab.sqlite").path
        let id: String
        do {
            let store = try SQLiteDocumentStore(path: path)
            let created = try await store.create(try sample("Kept"), author: "ada")
            _ = try await store.save(
                created.id,
                document: try sample("Kept twice"),
                baseVersion: 1,
                author: "bob"
            )
            id = created.id
        }
        #expect(FileManager.default.fileExists(atPath: path))
        let reopened = try SQLiteDocumentStore(path: path)
        let document = try await reopened.document(id)
        #expect(document.version == 2 && document.author == "bob" && document.title == "Kept twice")
        #expect(try await reopened.versions(id).map(\.author) == ["ada", "bob"])
        #expect(try await reopened.version(id, number: 1).document == (try sample("Kept")))
    }

    /// Of saves racing from the same version, exactly one wins; the others conflict, and the
    /// versions stay consecutive.
    @Test func letsOneOfRacingSavesWin() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path)
        let created = try await store.create(try sample("Raced"), author: "ada")
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                let document = try sample("Writer \(index)")
                group.addTask {
                    do {
                        _ = try await store.save(
                            created.id,
                            document: document,
                            baseVersion: 1,
                            author: "w\(index)"
                        )
                        return true
                    } catch {
                        guard case .conflict(let current)? = error as? DocumentStoreError else { throw error }
                        #expect(current.version == 2)
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await store.versions(created.id).map(\.number) == [1, 2])
    }

    @Test func reportsWhatIsNotThere() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path)
        for operation in [
            { _ = try await store.document("AAAAAAAAAAAAAAAAAAAAAA") },
            { try await store.delete("AAAAAAAAAAAAAAAAAAAAAA") },
            {
                _ = try await store.save(
                    "AAAAAAAAAAAAAAAAAAAAAA",
                    document: try sample("X"),
                    baseVersion: 1,
                    author: "a"
                )
            },
        ] as [@Sendable () async throws -> Void] {
            do {
                try await operation()
                Issue.record("it succeeded")
            } catch {
                guard case .notFound = error as? DocumentStoreError else {
                    Issue.record("\(error)")
                    continue
                }
            }
        }
    }

    /// A file that is not a database is refused with a clear error, and left as it was.
    @Test func refusesAFileThatIsNoDatabase() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "lab.sqlite")
        try Data("not a database, just text that is long enough to fill a header page".utf8).write(to: file)
        #expect(throws: DocumentStoreError.self) { try SQLiteDocumentStore(path: file.path) }
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("not a database"))
    }
}
