import Foundation
import Testing
import Tributary
import TributaryLab
import TributaryLabWire
import TributaryStreams

func sample(_ name: String) throws -> StreamDocument {
    try StreamDocument.decode(document(named: name))
}

/// The store on both backends: real SQLite files, and a real PostgreSQL server.
extension DocumentStore {
    /// Saves version 2 of the document `id`, named `name`.
    func saveAgain(_ id: DocumentID, named name: String) async throws -> SharedDocument {
        try await save(id, document: try sample(name), baseVersion: 1, author: "bob")
    }
}

@Suite(.timeLimit(.minutes(5)))
struct DocumentStoreTests {
    /// What was saved is there when the store is opened again.
    @Test(arguments: StoreBackend.available)
    func keepsDocumentsAcrossReopening(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            let id = try await place.withStore { store in
                let created = try await store.create(try sample("Kept"), author: "ada")
                _ = try await store.saveAgain(created.id, named: "Kept twice")
                return created.id
            }
            try await place.withStore { reopened in
                let document = try await reopened.document(id)
                #expect(document.version == 2 && document.author == "bob" && document.title == "Kept twice")
                #expect(try await reopened.versions(id).map(\.author) == ["ada", "bob"])
                #expect(try await reopened.version(id, number: 1).document == (try sample("Kept")))
                #expect(try await reopened.version(id, number: 2).updatedAt == document.updatedAt)
            }
        }
    }

    /// Of saves racing from the same version, exactly one wins; the others conflict with the
    /// winner, and the versions stay consecutive.
    @Test(arguments: StoreBackend.available)
    func letsOneOfRacingSavesWin(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withStore { store in
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
                                guard case .conflict(let current)? = error as? DocumentStoreError else {
                                    throw error
                                }
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
        }
    }

    /// A save based on any version but the latest is a conflict with the latest, the largest
    /// version there is included, whose next would not fit in an integer.
    @Test(arguments: StoreBackend.available)
    func aSaveBasedOnAnyOtherVersionIsAConflict(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withStore { store in
                let created = try await store.create(try sample("Based"), author: "ada")
                for base in [Int.max, Int.max - 1, 2, 0, -1, Int.min] {
                    do {
                        _ = try await store.save(
                            created.id,
                            document: try sample("Stale"),
                            baseVersion: base,
                            author: "b"
                        )
                        Issue.record("a save based on version \(base) was stored")
                    } catch {
                        guard case .conflict(let current)? = error as? DocumentStoreError else {
                            Issue.record("\(error) is no conflict")
                            continue
                        }
                        #expect(current.version == 1)
                    }
                }
                #expect(try await store.versions(created.id).map(\.number) == [1])
            }
        }
    }

    /// A store says what it runs beside the lab and whether instances share it, by its type:
    /// the lab needs no cast to find out.
    @Test(arguments: StoreBackend.available)
    func saysWhatItRunsAndWhetherItIsShared(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withStore { store in
                let shared = backend == .postgres
                #expect((store.lifecycle != nil) == shared)
                #expect((store.sharedChanges != nil) == shared)
                let recordings = try #require(store.recordings)
                #expect((recordings.sharedChanges != nil) == shared)
            }
        }
    }

    /// The list pages newest first, each document once, and refuses a cursor it did not make.
    @Test(arguments: StoreBackend.available)
    func pagesNewestFirst(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withStore { store in
                var made: [DocumentID] = []
                for index in 0..<7 {
                    made.append(try await store.create(try sample("Doc \(index)"), author: "ada").id)
                }
                _ = try await store.saveAgain(made[2], named: "Doc 2 again")
                var seen: [DocumentSummary] = []
                var cursor: String?
                repeat {
                    let page = try await store.list(limit: 3, after: cursor)
                    #expect(page.documents.count <= 3)
                    seen += page.documents
                    cursor = page.nextCursor
                } while cursor != nil
                #expect(seen.map(\.id).sorted() == made.sorted())
                #expect(seen.first?.id == made[2] && seen.first?.version == 2)
                #expect(seen.first?.title == "Doc 2 again")
                #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.updatedAt >= $1.updatedAt })
                await #expect(throws: DocumentStoreError.self) {
                    _ = try await store.list(limit: 3, after: "bm90IGEgY3Vyc29y")
                }
                // Cursors shaped like the store's, at times that are no number.
                for time in ["nan", "inf", "-inf", "1e999"] {
                    let forged = DocumentID.base64URL(Data("\(time)|\(made[0])".utf8))
                    await #expect(throws: DocumentStoreError.self, "\(time)") {
                        _ = try await store.list(limit: 3, after: forged)
                    }
                }
            }
        }
    }

    /// A list and a summary name a version by the title kept beside it, without reading the
    /// document: a body that no longer reads does not stop them. A version kept before titles
    /// were is named from its body.
    @Test(arguments: StoreBackend.available)
    func namesVersionsWithoutReadingThem(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            let (old, new) = try await place.withStore { store in
                let old = try await store.create(try sample("Before titles"), author: "ada")
                let new = try await store.create(try sample("First name"), author: "ada")
                _ = try await store.saveAgain(new.id, named: "Renamed")
                return (old.id, new.id)
            }
            try await place.execute("UPDATE versions SET title = NULL WHERE document_id = '\(old)'")
            try await place.execute(
                "UPDATE versions SET body = \(backend == .sqlite ? "X'00'" : "'\\x00'") WHERE document_id = '\(new)'"
            )
            try await place.withStore { store in
                let listed = try await store.list(limit: 10, after: nil).documents
                #expect(listed.map(\.id) == [new, old])
                #expect(listed.map(\.title) == ["Renamed", "Before titles"])
                #expect(try await store.summary(new, version: nil).version == 2)
                #expect(try await store.summary(new, version: 1).title == "First name")
                #expect(try await store.summary(old, version: 1).title == "Before titles")
                await #expect(throws: DocumentStoreError.self) {
                    _ = try await store.summary(new, version: 3)
                }
                await #expect(throws: DocumentStoreError.self) { _ = try await store.document(new) }
            }
        }
    }

    /// Deleting removes the document and its history, and nothing else.
    @Test(arguments: StoreBackend.available)
    func deletesWithItsHistory(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withStore { store in
                let gone = try await store.create(try sample("Gone"), author: "ada")
                let kept = try await store.create(try sample("Kept"), author: "ada")
                _ = try await store.saveAgain(gone.id, named: "Gone 2")
                try await store.delete(gone.id)
                await #expect(throws: DocumentStoreError.self) { _ = try await store.versions(gone.id) }
                await #expect(throws: DocumentStoreError.self) {
                    _ = try await store.version(gone.id, number: 1)
                }
                #expect(try await store.document(kept.id).title == "Kept")
                #expect(try await store.list(limit: 10, after: nil).documents.map(\.id) == [kept.id])
            }
        }
    }

    @Test(arguments: StoreBackend.available)
    func reportsWhatIsNotThere(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withStore { store in
                for operation in [
                    { _ = try await store.document("AAAAAAAAAAAAAAAAAAAAAA") },
                    { try await store.delete("AAAAAAAAAAAAAAAAAAAAAA") },
                    { _ = try await store.versions("AAAAAAAAAAAAAAAAAAAAAA") },
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
        }
    }

    /// The latest version is read right after each save, while more readers than the store
    /// reads for in place at once keep reading it: none sees a version go back or one not yet saved.
    @Test(arguments: StoreBackend.available)
    func readsEachSavesVersionAtOnceWhileManyRead(_ backend: StoreBackend) async throws {
        try await backend.withPlace { place in
            try await place.withStore { store in
                let created = try await store.create(try sample("Read"), author: "ada")
                let saved = Protected(1)
                let stop = Protected(false)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            var seen = 0
                            while !stop.withLock({ $0 }) {
                                let atLeast = saved.withLock { $0 }
                                let version = try await store.latestVersion(created.id)
                                #expect(version >= seen && version >= atLeast)
                                seen = version
                                // A read in place never suspends; let the saves have their turn.
                                await Task.yield()
                            }
                        }
                    }
                    for version in 2...60 {
                        _ = try await store.save(
                            created.id,
                            document: try sample("Read"),
                            baseVersion: version - 1,
                            author: "ada"
                        )
                        saved.withLock { $0 = version }
                        #expect(try await store.latestVersion(created.id) == version)
                    }
                    stop.withLock { $0 = true }
                    try await group.waitForAll()
                }
                await #expect(throws: DocumentStoreError.self) {
                    try await store.latestVersion(.named("missing"))
                }
            }
        }
    }

    /// A file that is not a database is refused with a clear error, and left as it was.
    @Test func refusesAFileThatIsNoDatabase() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "lab.sqlite")
        try Data("not a database, just text that is long enough to fill a header page".utf8).write(to: file)
        #expect(throws: DocumentStoreError.self) { try SQLiteDocumentStore(path: file.path) }
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("not a database"))
    }
}
