public import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
public import Tributary
public import TributaryHTTP
public import TributaryLabWire
public import TributaryStreams

/// Why a live document ended.
public enum LiveDocumentError: Error, Sendable, CustomStringConvertible {
    /// The document was deleted.
    case deleted(id: DocumentID)
    /// The lab has no such document.
    case notFound(id: DocumentID)

    public var description: String {
        switch self {
        case .deleted(let id): "The document \(id) was deleted."
        case .notFound(let id): "There is no document \(id)."
        }
    }
}

/// A Swift app's side of the lab: its documents over the JSON API, and any of them as a live
/// publisher that follows every edit.
///
/// ```swift
/// let lab = LabClient(baseURL: labURL, token: token, transport: URLSessionTransport())
/// let shared = try await lab.create(document)
/// // The pipeline someone else edits, run here, picking up each new version:
/// lab.live(shared.id)
///     .map { try! $0.document.publisher(for: "total", scheduler: DispatchQueue.main) }
///     .switchToLatest()
/// ```
public struct LabClient: Sendable {
    /// The largest message the lab sends on a live connection: a document of 1 MiB and its
    /// envelope.
    static let maximumMessageSize = (1 << 20) + (64 << 10)

    /// The lab's base URL.
    public var baseURL: URL
    /// The token writes need; reads need only a document's id.
    public var token: String?
    /// What carries the requests.
    public var transport: any HTTPTransporting
    /// When a failed request is tried again.
    public var retryPolicy: RetryPolicy
    /// Whom the versions this client saves are credited to, as the lab's version list shows
    /// them (`X-Author`); nil for `anonymous`.
    public var author: String?

    /// Makes a client of the lab at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: The lab's base URL.
    ///   - token: The token writes need, or nil to only read.
    ///   - transport: What carries the requests.
    ///   - retryPolicy: When a failed request is tried again.
    ///   - author: Whom the versions it saves are credited to; nil for `anonymous`.
    public init(
        baseURL: URL,
        token: String?,
        transport: any HTTPTransporting,
        retryPolicy: RetryPolicy = .standard,
        author: String? = nil
    ) {
        self.baseURL = baseURL
        self.token = token
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.author = author
    }

    /// The client of the JSON API, made from ``baseURL``, ``token``, ``transport`` and
    /// ``retryPolicy`` as they are when it is asked for, so that a change to any of them
    /// reaches every call, REST and live alike.
    public var api: APIClient {
        APIClient(
            baseURL: baseURL,
            transport: transport,
            middleware: token.map { [Authentication(.bearer($0))] } ?? [],
            retryPolicy: retryPolicy,
            decoder: LabJSON.decoder
        )
    }

    /// Stores `document` as a new shared document.
    public func create(_ document: StreamDocument) async throws(APIError) -> SharedDocument {
        var request = Request<SharedDocument>("api/streams", method: .post, body: .json(document))
        request.headers[Self.authorField] = author
        return try await api.send(request)
    }

    /// The field that names whom a save is credited to.
    static let authorField = HTTPField.Name("X-Author")!

    /// The latest version of a document.
    public func document(_ id: DocumentID) async throws(APIError) -> SharedDocument {
        try await api.send(Request<SharedDocument>(.path("api/streams/\(id)")))
    }

    /// One version of a document, as it was saved.
    public func document(_ id: DocumentID, version: Int) async throws(APIError) -> SharedDocument {
        try await api.send(Request<SharedDocument>(.path("api/streams/\(id)/versions/\(version)")))
    }

    /// Every version of a document, oldest first, without the documents.
    public func versions(of id: DocumentID) async throws(APIError) -> [DocumentVersion] {
        try await api.send(Request<DocumentVersions>(.path("api/streams/\(id)/versions"))).versions
    }

    /// A page of the documents, most recently saved first; pass the page's `nextCursor` as
    /// `cursor` for the next.
    public func documents(limit: Int = 20, cursor: String? = nil) async throws(APIError) -> DocumentList {
        var query = [URLQueryItem(name: "limit", value: String(limit))]
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        return try await api.send(Request<DocumentList>("api/streams", query: query))
    }

    /// Saves `document` as the version after `baseVersion`.
    ///
    /// When someone saved a newer version meanwhile, nothing is saved and the error is
    /// ``LabSaveError/conflict(current:)`` with the document as it is now, to merge with.
    public func save(
        _ id: DocumentID,
        document: StreamDocument,
        baseVersion: Int
    ) async throws(LabSaveError) -> SharedDocument {
        var request = Request<SharedDocument>(.path("api/streams/\(id)"), method: .put, body: .json(document))
        request.headers[.ifMatch] = "\"\(baseVersion)\""
        request.headers[Self.authorField] = author
        let refusal: APIError
        do {
            return try await api.send(request)
        } catch {
            refusal = error
        }
        guard case .unacceptableStatus(let response, let body, _) = refusal.kind, response.status.code == 412
        else {
            throw .failed(refusal)
        }
        // The answer carries the document as it is; one larger than the client keeps of an
        // error's body is read again.
        if let current = try? LabJSON.decoder.decode(SharedDocument.self, from: body) {
            throw .conflict(current: current)
        }
        let current: SharedDocument
        do throws(APIError) {
            current = try await self.document(id)
        } catch {
            throw .failed(error)
        }
        throw .conflict(current: current)
    }

    /// Deletes a document.
    public func delete(_ id: DocumentID) async throws(APIError) {
        try await api.send(Request<Void>(.path("api/streams/\(id)"), method: .delete))
    }

    /// The document with `id` as it is now, then every version saved after it, by anyone.
    ///
    /// The connection is made when subscribed to and closed when the subscription is cancelled.
    /// When it drops — the network, a restart of the lab — it is made again after a pause that
    /// grows from 0.2 s to 5 s, and resumes from the version last published, so no version is
    /// published twice. It fails when the document is deleted or does not exist.
    public func live(_ id: DocumentID) -> AnyPublisher<SharedDocument, LiveDocumentError> {
        let url = liveURL(id)
        return AsyncEventsPublisher { send throws(LiveDocumentError) in
            try await LiveConnection.follow(id: id, url: url, send: send)
        }
        .eraseToAnyPublisher()
    }

    /// The live connection's address. Following a document only reads it, so the connection
    /// carries no credential: the token never travels where it is not needed, nor in a URL.
    func liveURL(_ id: DocumentID) -> String {
        var components = URLComponents(
            url: baseURL.appending(path: "api/streams/\(id)/live"),
            resolvingAgainstBaseURL: true
        )
        components?.scheme = baseURL.scheme == "https" ? "wss" : "ws"
        return components?.string ?? ""
    }
}

/// Why a save failed.
public enum LabSaveError: Error, Sendable, CustomStringConvertible {
    /// Someone saved a newer version than the save's base; `current` is the document now.
    case conflict(current: SharedDocument)
    /// The request failed: the network, the token, an invalid document.
    case failed(APIError)

    public var description: String {
        switch self {
        case .conflict(let current):
            "Someone saved version \(current.version) meanwhile; nothing was saved."
        case .failed(let error): error.description
        }
    }
}

/// The connection to a live document, remade when it drops.
enum LiveConnection {
    /// Sends the document's versions to `send` until the task is cancelled; throws when the
    /// document is deleted.
    static func follow(
        id: DocumentID,
        url: String,
        send: @escaping @Sendable (SharedDocument) -> Void
    ) async throws(LiveDocumentError) {
        var logger = Logger(label: "LabClient")
        logger.logLevel = .critical
        let latest = Protected(0)
        var pause = Duration.milliseconds(200)
        while !Task.isCancelled {
            let ending = Protected<LiveDocumentError?>(nil)
            let heard = Protected(false)
            // Frames as large as the lab sends: a document of up to 1 MiB and its envelope.
            _ = try? await WebSocketClient.connect(
                url: url,
                configuration: .init(maxFrameSize: LabClient.maximumMessageSize),
                logger: logger
            ) { inbound, outbound, _ in
                let version = latest.withLock { $0 }
                if version > 0 {
                    let resume = try JSONEncoder().encode(LiveClientMessage.resume(version: version))
                    try await outbound.write(.text(String(decoding: resume, as: UTF8.self)))
                }
                // A version is sent once, in order, however often a reconnection shows it again.
                func publish(_ shared: SharedDocument) {
                    let isNew = latest.withLock { latest in
                        guard shared.version > latest else { return false }
                        latest = shared.version
                        return true
                    }
                    if isNew { send(shared) }
                }
                for try await message in inbound.messages(maxSize: 4 << 20) {
                    guard case .text(let text) = message else { continue }
                    heard.withLock { $0 = true }
                    switch try? LabJSON.decoder.decode(LiveServerMessage.self, from: Data(text.utf8)) {
                    case .snapshot(let shared, _)?, .saved(let shared)?:
                        publish(shared)
                    case .deleted?:
                        ending.withLock { $0 = .deleted(id: id) }
                        return
                    case .notFound?:
                        ending.withLock { $0 = .notFound(id: id) }
                        return
                    default:
                        continue
                    }
                }
            }
            if let ending = ending.withLock({ $0 }) { throw ending }
            if heard.withLock({ $0 }) { pause = .milliseconds(200) }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }
}
