import Foundation
public import ServiceLifecycle
public import TributaryLabWire
public import TributaryStreams

/// A page of the document list, newest first, and where the next page starts.
public struct DocumentPage: Sendable, Hashable {
    /// The page's documents, most recently saved first.
    public var documents: [DocumentSummary]
    /// Pass to ``DocumentStore/list(limit:after:)`` for the next page; nil on the last.
    public var nextCursor: String?
}

extension DocumentPage {
    /// The page of at most `limit` documents out of `fetched`, which holds one more when another
    /// page follows.
    init(fetched: [DocumentSummary], limit: Int) {
        let shown = Array(fetched.prefix(limit))
        self.init(
            documents: shown,
            nextCursor: fetched.count > limit
                ? shown.last.map { DocumentCursor.encode($0.updatedAt, $0.id) } : nil
        )
    }
}

/// Why the store could not do what it was asked.
public enum DocumentStoreError: Error, Sendable, CustomStringConvertible {
    /// There is no document with the id, or no such version of it.
    case notFound(id: DocumentID)
    /// The save was based on a version that is no longer the latest.
    case conflict(current: SharedDocument)
    /// The cursor did not come from this store.
    case invalidCursor
    /// The database failed.
    case storage(String)

    public var description: String {
        switch self {
        case .notFound(let id): "There is no document \(id)."
        case .conflict(let current):
            "The document was saved by someone else meanwhile; its latest version is \(current.version)."
        case .invalidCursor: "The cursor is not one this lab handed out."
        case .storage(let reason): "The lab's database failed: \(reason)."
        }
    }
}

/// Where the lab keeps stream documents and every version of them.
///
/// Every save is a new version, written in one transaction with the document's new state; a
/// save based on an older version than the latest fails with
/// ``DocumentStoreError/conflict(current:)`` instead of overwriting it. Only valid documents
/// reach a store: the server validates them first.
public protocol DocumentStore: Sendable {
    /// Stores a new document as version 1.
    func create(_ document: StreamDocument, author: String) async throws(DocumentStoreError) -> SharedDocument
    /// The latest version of a document.
    func document(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument
    /// Saves `document` as the next version, if `baseVersion` is the latest.
    func save(
        _ id: DocumentID,
        document: StreamDocument,
        baseVersion: Int,
        author: String
    ) async throws(DocumentStoreError) -> SharedDocument
    /// Deletes a document and its history.
    func delete(_ id: DocumentID) async throws(DocumentStoreError)
    /// A page of documents, most recently saved first.
    func list(limit: Int, after cursor: String?) async throws(DocumentStoreError) -> DocumentPage
    /// Every version of a document, oldest first.
    func versions(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion]
    /// One version of a document.
    func version(_ id: DocumentID, number: Int) async throws(DocumentStoreError) -> SharedDocument
    /// The number of a document's latest version, without reading the document.
    func latestVersion(_ id: DocumentID) async throws(DocumentStoreError) -> Int
    /// The title, number and time of version `number` of a document (the latest when nil),
    /// without reading the document.
    func summary(_ id: DocumentID, version number: Int?) async throws(DocumentStoreError) -> DocumentSummary
    /// The recordings kept in the same database, in tables of their own; nil for a store that
    /// keeps none.
    var recordings: (any RecordingStore)? { get }
    /// What the store runs while the lab does, such as its connections to a server; nil when
    /// it runs nothing. The lab starts it before its server and stops it after.
    var lifecycle: (any Service)? { get }
    /// What any of the lab instances sharing the store saves or deletes, for a store several
    /// share (``SharedDocumentStore``); nil for a store one instance has to itself.
    var sharedChanges: (@Sendable () -> AsyncStream<StoreChange>)? { get }
}

extension DocumentStore {
    public func latestVersion(_ id: DocumentID) async throws(DocumentStoreError) -> Int {
        try await document(id).version
    }

    public func summary(
        _ id: DocumentID,
        version number: Int?
    ) async throws(DocumentStoreError) -> DocumentSummary {
        guard let number else { return DocumentSummary(try await document(id)) }
        return DocumentSummary(try await version(id, number: number))
    }
}

extension SharedDocument {
    /// Version 1 of a new document, under a new id.
    static func first(_ document: StreamDocument, author: String) -> SharedDocument {
        SharedDocument(
            id: DocumentID.random(),
            version: 1,
            updatedAt: DocumentCursor.now(),
            author: author,
            document: document
        )
    }

    /// The version of `id` after `latest`, saved now.
    static func next(
        _ id: DocumentID,
        after latest: Int,
        _ document: StreamDocument,
        author: String
    ) -> SharedDocument {
        SharedDocument(
            id: id,
            version: latest + 1,
            updatedAt: DocumentCursor.now(),
            author: author,
            document: document
        )
    }

    /// A document as a store reads it back: its body is the JSON that ``body(of:)`` made.
    init(
        id text: String,
        version: Int,
        updatedAt: Date,
        author: String,
        body: Data
    ) throws(DocumentStoreError) {
        guard let id = DocumentID(text) else { throw .storage("a stored id is not an id: \(text)") }
        do throws(StreamError) {
            self.init(
                id: id,
                version: version,
                updatedAt: updatedAt,
                author: author,
                document: try StreamDocument.decode(body)
            )
        } catch {
            throw .storage("a stored document no longer reads: \(error)")
        }
    }

    /// What a store keeps of `document`: its JSON.
    static func body(of document: StreamDocument) throws(DocumentStoreError) -> Data {
        do {
            return try document.encoded()
        } catch {
            throw .storage("the document could not be encoded: \(error)")
        }
    }
}

extension DocumentSummary {
    /// A version's summary as a store reads it back: its title is kept beside its body, and a
    /// version saved before titles were kept (`title` nil) is named by decoding its `body`.
    init(
        id text: String,
        version: Int,
        updatedAt: Date,
        title: String?,
        body: Data?
    ) throws(DocumentStoreError) {
        guard let title else {
            self.init(
                try SharedDocument(
                    id: text,
                    version: version,
                    updatedAt: updatedAt,
                    author: "",
                    body: body ?? Data()
                )
            )
            return
        }
        guard let id = DocumentID(text) else { throw .storage("a stored id is not an id: \(text)") }
        self.init(id: id, title: title, version: version, updatedAt: updatedAt)
    }
}

/// A store that several lab instances share, which tells each of them what any of them changed,
/// so that a save through one instance reaches the live viewers of every instance.
public protocol SharedDocumentStore: DocumentStore {
    /// Every save and deletion by any instance, this one's included, in the order they were
    /// committed, until the stream is cancelled or the store stops. A stream begins with
    /// ``StoreChange/missed`` once the store listens, and again after each reconnection.
    func changes() -> AsyncStream<StoreChange>
}

/// The list's cursor: the time and id of the last document of a page, which the next page starts
/// after.
enum DocumentCursor {
    static func encode(_ time: Date, _ id: DocumentID) -> String {
        DocumentID.base64URL(Data("\(time.timeIntervalSince1970)|\(id)".utf8))
    }

    /// The cursor `text` stands for, or nil when it is not one: longer than any cursor, not
    /// Base64URL, or a time that is not a finite number (`nan`, `inf`).
    static func decode(_ text: String) -> (time: Date, id: DocumentID)? {
        guard text.utf8.count <= 96 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: "|", maxSplits: 1).map(String.init)
        guard parts.count == 2, let time = Double(parts[0]), time.isFinite, let id = DocumentID(parts[1])
        else {
            return nil
        }
        return (Date(timeIntervalSince1970: time), id)
    }

    /// The time now, to the millisecond, so that what a store keeps reads back the same.
    static func now() -> Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}

extension DocumentStore {
    public var lifecycle: (any Service)? { nil }
    public var sharedChanges: (@Sendable () -> AsyncStream<StoreChange>)? { nil }
}

extension DocumentStore where Self: Service {
    public var lifecycle: (any Service)? { self }
}

extension SharedDocumentStore {
    public var sharedChanges: (@Sendable () -> AsyncStream<StoreChange>)? { { self.changes() } }
}
