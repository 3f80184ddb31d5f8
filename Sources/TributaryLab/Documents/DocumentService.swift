import Foundation
import NIOCore
import Tributary
import TributaryLabWire
import TributaryStreams

/// The one way a document is created, saved or deleted, for the REST API and the live
/// connections alike: validated before it reaches the store, stored as a new version in one
/// transaction, then published to every viewer.
struct DocumentService: Sendable {
    let store: any DocumentStore
    let hub: LiveHub
    let bodies: DocumentBodies
    /// Where a version read for the first time is encoded, as anything else a reader can make
    /// expensive is done: a crowd walking through the versions of a large document waits there,
    /// or is told the lab is busy, while everyone else is answered.
    let pool: RunPool
    /// The encoded answers of versions before the latest, which anyone with a link may read.
    var pastBodies = PastVersionBodies(capacity: 16 << 20)
    /// Reads of one version by many at once, made once.
    private let reads = Coalesced<VersionKey, SharedDocument, DocumentStoreError>()
    /// Encodings of one version's answer for many at once, made once.
    private let encodings = Coalesced<VersionKey, ByteBuffer, any Error>()

    /// Who a save is credited to: plain text of at most 64 characters, or "anonymous".
    static func author(_ given: String?) -> String {
        // Bounded in bytes as well as characters: one character may be a base and any number
        // of combining marks, so 64 characters alone could be megabytes.
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in (given ?? "").unicodeScalars
        where !scalar.properties.isDefaultIgnorableCodePoint && scalar.value >= 0x20 {
            bytes += scalar.utf8.count
            guard bytes <= maximumAuthorBytes else { break }
            scalars.append(scalar)
        }
        let name = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? "anonymous" : String(name.prefix(64))
    }

    /// The most UTF-8 bytes of a name kept.
    static let maximumAuthorBytes = 256

    func create(
        _ document: StreamDocument,
        author: String?
    ) async throws(DocumentStoreError) -> SharedDocument {
        try await store.create(document, author: Self.author(author))
    }

    /// Saves `document` as the version after `baseVersion` and sends it to every viewer; a
    /// stale base throws ``DocumentStoreError/conflict(current:)`` with the document as it is.
    func save(
        _ id: DocumentID,
        document: StreamDocument,
        baseVersion: Int,
        author: String?
    ) async throws(DocumentStoreError) -> SharedDocument {
        let saved = try await store.save(
            id,
            document: document,
            baseVersion: baseVersion,
            author: Self.author(author)
        )
        hub.publish(saved)
        return saved
    }

    func delete(_ id: DocumentID) async throws(DocumentStoreError) {
        try await store.delete(id)
        bodies.forget(id)
        hub.publishDeletion(of: id)
    }

    /// Brings this instance's viewers a change made through another instance that shares the
    /// store.
    func follow(_ change: StoreChange) async {
        switch change {
        case .changed(let id, let version):
            // A save through this instance has reached its viewers already.
            guard hub.awaits(id, version: version) else { return }
            do throws(DocumentStoreError) {
                hub.publish(try await store.version(id, number: version))
            } catch {
                if case .notFound = error { hub.publishDeletion(of: id) }
            }
        case .deleted(let id):
            bodies.forget(id)
            hub.publishDeletion(of: id)
        case .missed:
            for id in hub.viewedDocuments() {
                do throws(DocumentStoreError) {
                    hub.publish(try await store.document(id))
                } catch {
                    if case .notFound = error { hub.publishDeletion(of: id) }
                }
            }
        }
    }

    // MARK: Reads

    /// The latest version of a document, read once for all who ask for it at the same time.
    func document(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument {
        try await read(try await store.latestVersion(id), of: id)
    }

    /// The title, number and time of version `number` (the latest when nil), without reading
    /// the document: what a page that names a version needs.
    func summary(of id: DocumentID, version number: Int?) async throws -> DocumentSummary {
        do {
            return try await store.summary(id, version: number)
        } catch .notFound {
            guard let number else { throw DocumentStoreError.notFound(id: id) }
            throw Self.noSuchVersion(number, latest: try await store.latestVersion(id))
        }
    }

    /// The number of a document's latest version.
    func latestVersion(_ id: DocumentID) async throws(DocumentStoreError) -> Int {
        try await store.latestVersion(id)
    }

    /// Version `number` of a document; when the document has no such version, an answer that
    /// says which versions it has rather than that there is no such document.
    func version(_ number: Int, of id: DocumentID) async throws -> SharedDocument {
        do {
            return try await read(number, of: id)
        } catch .notFound {
            throw Self.noSuchVersion(number, latest: try await store.latestVersion(id))
        }
    }

    /// Every version of a document, oldest first.
    func versions(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion] {
        try await store.versions(id)
    }

    /// A page of the list, most recently saved first.
    func list(limit: Int, after cursor: String?) async throws(DocumentStoreError) -> DocumentList {
        let page = try await store.list(limit: limit, after: cursor)
        return DocumentList(documents: page.documents, nextCursor: page.nextCursor)
    }

    /// The encoded answer of `GET /api/streams/{id}/versions/{number}`, encoded once while it
    /// is kept: a version never changes, and one read again and again by anyone with its link
    /// costs a lookup after the number of the latest.
    func versionBody(_ number: Int, of id: DocumentID) async throws -> ByteBuffer {
        let latest = try await store.latestVersion(id)
        guard (1...latest).contains(number) else { throw Self.noSuchVersion(number, latest: latest) }
        if number == latest { return try await body(of: id, version: latest) }
        if let kept = pastBodies.body(of: id, version: number) { return kept }
        // A walk through the versions of a large document, each read once, is limited; the
        // latest versions, which links show, are not held up by it.
        let body = try await encodedVersion(number, of: id, limit: (Self.versionsMadeAtOnce, RunPool.busy))
        pastBodies.keep(body, of: id, version: number)
        return body
    }

    /// The encoded answer of `GET /api/streams/{id}` for `version`, encoded once per version.
    func body(of id: DocumentID, version: Int) async throws -> ByteBuffer {
        if let cached = bodies.body(of: id, version: version) { return cached }
        let body = try await encodedVersion(version, of: id)
        bodies.keep(body, of: id, version: version)
        return body
    }

    /// A version's answer, read from the store and encoded on the run threads, once for all
    /// who ask at once; `503 busy` when those threads have as much as they take, or when
    /// `limit` allows no more versions made at once.
    private func encodedVersion(
        _ number: Int,
        of id: DocumentID,
        limit: (most: Int, refusal: any Error)? = nil
    ) async throws -> ByteBuffer {
        let pool = pool
        return try await encodings.value(for: VersionKey(id: id, version: number), limit: limit) {
            () async throws in
            let stored = try await read(number, of: id)
            return try await pool.execute { () throws(LabError) in
                ByteBuffer(bytes: (try? LabJSON.encoder.encode(stored)) ?? Data("{}".utf8))
            }
        }
    }

    /// Version `number` of a document, read and decoded once for all who ask at once.
    private func read(_ number: Int, of id: DocumentID) async throws(DocumentStoreError) -> SharedDocument {
        let store = store
        return try await reads.value(for: VersionKey(id: id, version: number)) {
            () throws(DocumentStoreError) in
            try await store.version(id, number: number)
        }
    }

    /// How many past versions are read and encoded at once for their first readers.
    static let versionsMadeAtOnce = 4

    /// The answer when a document has no version `number`: which versions it has.
    static func noSuchVersion(_ number: Int, latest: Int) -> LabError {
        .notFound("version \(number) of this document: its versions are 1 to \(latest)")
    }
}

/// One version of one document.
struct VersionKey: Hashable, Sendable {
    var id: DocumentID
    var version: Int
}

/// The encoded answers of versions before the latest, by document and number, the least recently
/// read leaving first once they take more than `capacity` bytes. A deleted document's are never
/// served: a version is looked up only once its document is found.
final class PastVersionBodies: Sendable {
    private let capacity: Int
    private let entries = Protected(LRUList<VersionKey, ByteBuffer>())

    init(capacity: Int) { self.capacity = capacity }

    func body(of id: DocumentID, version: Int) -> ByteBuffer? {
        entries.withLock { $0.value(for: VersionKey(id: id, version: version)) }
    }

    func keep(_ body: ByteBuffer, of id: DocumentID, version: Int) {
        guard body.readableBytes <= capacity else { return }
        entries.withLock { entries in
            entries.set(body, for: VersionKey(id: id, version: version), cost: body.readableBytes)
            while entries.totalCost > capacity, entries.removeOldest() != nil {}
        }
    }
}

/// The encoded answers of recently read versions: a version never changes, so its answer is
/// encoded once. Holds the latest read version of each document, the least recently read
/// leaving first once they take more than `capacity` bytes.
final class DocumentBodies: Sendable {
    private struct Entry {
        var version: Int
        var body: ByteBuffer
    }

    private let capacity: Int
    private let entries = Protected(LRUList<DocumentID, Entry>())

    init(capacity: Int) { self.capacity = capacity }

    func body(of id: DocumentID, version: Int) -> ByteBuffer? {
        entries.withLock { entries in
            entries.value(for: id).flatMap { $0.version == version ? $0.body : nil }
        }
    }

    func keep(_ body: ByteBuffer, of id: DocumentID, version: Int) {
        guard body.readableBytes <= capacity else { return }
        entries.withLock { entries in
            if let kept = entries.peek(id), kept.version > version { return }
            entries.set(Entry(version: version, body: body), for: id, cost: body.readableBytes)
            while entries.totalCost > capacity, entries.removeOldest() != nil {}
        }
    }

    func forget(_ id: DocumentID) {
        entries.withLock { _ = $0.remove(id) }
    }

    /// The bytes held.
    var bytes: Int { entries.withLock { $0.totalCost } }
}
