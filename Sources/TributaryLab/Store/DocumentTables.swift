import Foundation
import TributaryLabWire
import TributaryStreams

/// What a backend of the ``DocumentStore`` provides: a handful of statements, each its own
/// transaction. What a save, a version, a page and a missing document mean is written once, in
/// this protocol's extension, so both backends keep documents the same way.
protocol DocumentTables: DocumentStore {
    /// Writes the first version of a new document and its row.
    func insert(_ stored: SharedDocument, body: Data) async throws(DocumentStoreError)
    /// The latest version of a document, or nil when there is none.
    func head(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument?
    /// One version of a document, or nil when there is none.
    func stored(_ id: DocumentID, number: Int) async throws(DocumentStoreError) -> SharedDocument?
    /// A document's versions, oldest first; empty when there is no such document.
    func history(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion]
    /// The summary of version `number` of a document (the latest when nil), read without its
    /// body; nil when there is none.
    func summarize(_ id: DocumentID, number: Int?) async throws(DocumentStoreError) -> DocumentSummary?
    /// The number of a document's latest version, or nil when there is none.
    func headNumber(_ id: DocumentID) async throws(DocumentStoreError) -> Int?
    /// Deletes a document and its versions; false when there was none.
    func remove(_ id: DocumentID) async throws(DocumentStoreError) -> Bool
    /// Up to `count` documents, most recently saved first, saved before `cursor` (or at its time,
    /// with a smaller id).
    func page(
        after cursor: (time: Date, id: DocumentID)?,
        count: Int
    ) async throws(DocumentStoreError) -> [DocumentSummary]
    /// In one transaction: reads the number of the document's latest version, and when it is
    /// `next.version - 1`, makes `next` the latest. Answers the number read, nil when there is
    /// no such document.
    func advance(to next: SharedDocument, body: Data) async throws(DocumentStoreError) -> Int?
}

extension DocumentTables {
    public func create(
        _ document: StreamDocument,
        author: String
    ) async throws(DocumentStoreError) -> SharedDocument {
        let body = try SharedDocument.body(of: document)
        let stored = SharedDocument.first(document, author: author)
        try await insert(stored, body: body)
        return stored
    }

    public func document(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument {
        try Self.existing(try await head(id), id)
    }

    /// A stale save fails with the version it was not based on. That version is read after the
    /// save's transaction: versions never change once written, so it is the one the save met
    /// unless the document was deleted meanwhile, which answers not found.
    public func save(
        _ id: DocumentID,
        document: StreamDocument,
        baseVersion: Int,
        author: String
    ) async throws(DocumentStoreError) -> SharedDocument {
        // No document reaches the largest version: a save based on it is stale, whatever the
        // latest is, and the version after it does not exist.
        guard baseVersion < Int.max else {
            let latest = try await latestVersion(id)
            guard let current = try await stored(id, number: latest) else { throw .notFound(id: id) }
            throw .conflict(current: current)
        }
        let body = try SharedDocument.body(of: document)
        let next = SharedDocument.next(id, after: baseVersion, document, author: author)
        guard let latest = try await advance(to: next, body: body) else { throw .notFound(id: id) }
        guard latest == baseVersion else {
            guard let current = try await stored(id, number: latest) else { throw .notFound(id: id) }
            throw .conflict(current: current)
        }
        return next
    }

    public func delete(_ id: DocumentID) async throws(DocumentStoreError) {
        guard try await remove(id) else { throw .notFound(id: id) }
    }

    public func list(limit: Int, after cursor: String?) async throws(DocumentStoreError) -> DocumentPage {
        let limit = max(1, min(limit, 100))
        var after: (time: Date, id: DocumentID)?
        if let cursor {
            guard let decoded = DocumentCursor.decode(cursor) else { throw .invalidCursor }
            after = decoded
        }
        return DocumentPage(fetched: try await page(after: after, count: limit + 1), limit: limit)
    }

    public func versions(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion] {
        let versions = try await history(id)
        guard !versions.isEmpty else { throw .notFound(id: id) }
        return versions
    }

    public func version(_ id: DocumentID, number: Int) async throws(DocumentStoreError) -> SharedDocument {
        try Self.existing(try await stored(id, number: number), id)
    }

    public func latestVersion(_ id: DocumentID) async throws(DocumentStoreError) -> Int {
        try Self.existing(try await headNumber(id), id)
    }

    public func summary(
        _ id: DocumentID,
        version number: Int?
    ) async throws(DocumentStoreError) -> DocumentSummary {
        try Self.existing(try await summarize(id, number: number), id)
    }

    /// `value`, which a read of the document `id` found, or not found.
    private static func existing<Value>(_ value: Value?, _ id: DocumentID) throws(DocumentStoreError) -> Value
    {
        guard let value else { throw .notFound(id: id) }
        return value
    }
}
