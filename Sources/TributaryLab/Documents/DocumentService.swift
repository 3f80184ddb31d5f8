import Foundation
import NIOCore
import Tributary
import TributaryStreams

/// The one way a document is created, saved or deleted, for the REST API and the live
/// connections alike: validated before it reaches the store, stored as a new version in one
/// transaction, then published to every viewer.
struct DocumentService: Sendable {
    let store: any DocumentStore
    let hub: LiveHub
    let bodies: DocumentBodies

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
    ) async throws(DocumentStoreError) -> StoredDocument {
        try await store.create(document, author: Self.author(author))
    }

    /// Saves `document` as the version after `baseVersion` and sends it to every viewer; a
    /// stale base throws ``DocumentStoreError/conflict(current:)`` with the document as it is.
    func save(
        _ id: String,
        document: StreamDocument,
        baseVersion: Int,
        author: String?
    ) async throws(DocumentStoreError) -> StoredDocument {
        let saved = try await store.save(
            id,
            document: document,
            baseVersion: baseVersion,
            author: Self.author(author)
        )
        hub.publish(saved)
        return saved
    }

    func delete(_ id: String) async throws(DocumentStoreError) {
        try await store.delete(id)
        bodies.forget(id)
        hub.publishDeletion(of: id)
    }

    /// The encoded answer of `GET /api/streams/{id}` for `version`, encoded once per version.
    func body(of id: String, version: Int) async throws(DocumentStoreError) -> ByteBuffer {
        if let cached = bodies.body(of: id, version: version) { return cached }
        let stored = try await store.version(id, number: version)
        let body = ByteBuffer(bytes: (try? LabJSON.encoder.encode(DocumentBody(stored))) ?? Data("{}".utf8))
        bodies.keep(body, of: id, version: version)
        return body
    }
}

/// What the API answers with for a document: its id, version, time, author and the document.
struct DocumentBody: Encodable {
    var id: String
    var version: Int
    var updatedAt: Date
    var author: String
    var document: StreamDocument

    init(_ stored: StoredDocument) {
        id = stored.id
        version = stored.version
        updatedAt = stored.updatedAt
        author = stored.author
        document = stored.document
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
    private let entries = Protected(LRUList<String, Entry>())

    init(capacity: Int) { self.capacity = capacity }

    func body(of id: String, version: Int) -> ByteBuffer? {
        entries.withLock { entries in
            entries.value(for: id).flatMap { $0.version == version ? $0.body : nil }
        }
    }

    func keep(_ body: ByteBuffer, of id: String, version: Int) {
        guard body.readableBytes <= capacity else { return }
        entries.withLock { entries in
            if let kept = entries.peek(id), kept.version > version { return }
            entries.set(Entry(version: version, body: body), for: id, cost: body.readableBytes)
            while entries.totalCost > capacity, entries.removeOldest() != nil {}
        }
    }

    func forget(_ id: String) {
        entries.withLock { _ = $0.remove(id) }
    }

    /// The bytes held.
    var bytes: Int { entries.withLock { $0.totalCost } }
}
