public import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
public import Tributary
public import TributaryHTTP
import TributaryLabWire
public import TributaryStreams

/// A version of a shared document, as the lab holds it.
public struct SharedDocument: Sendable, Hashable {
    /// The document's id, which is its share link.
    public var id: String
    /// The version, counting saves from 1.
    public var version: Int
    /// Who saved this version, when the lab said.
    public var author: String?
    /// The document.
    public var document: StreamDocument

    public init(id: String, version: Int, author: String?, document: StreamDocument) {
        self.id = id
        self.version = version
        self.author = author
        self.document = document
    }
}

/// Why a live document ended.
public enum LiveDocumentError: Error, Sendable, CustomStringConvertible {
    /// The document was deleted.
    case deleted(id: String)
    /// The lab has no such document.
    case notFound(id: String)

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

    /// The client of the JSON API.
    public var api: APIClient
    /// The lab's base URL.
    public var baseURL: URL
    /// The token writes need; reads need only a document's id.
    public var token: String?

    public init(
        baseURL: URL,
        token: String?,
        transport: any HTTPTransporting,
        retryPolicy: RetryPolicy = .standard
    ) {
        self.baseURL = baseURL
        self.token = token
        api = APIClient(
            baseURL: baseURL,
            transport: transport,
            middleware: token.map { [Authentication(.bearer($0))] } ?? [],
            retryPolicy: retryPolicy
        )
    }

    /// Stores `document` as a new shared document.
    public func create(_ document: StreamDocument) async throws(APIError) -> SharedDocument {
        try await api.send(Request<Body>("api/streams", method: .post, body: .json(document))).shared
    }

    /// The latest version of a document.
    public func document(_ id: String) async throws(APIError) -> SharedDocument {
        try await api.send(Request<Body>(.path("api/streams/\(id)"))).shared
    }

    /// Saves `document` as the version after `baseVersion`; a stale base fails with status 412.
    public func save(
        _ id: String,
        document: StreamDocument,
        baseVersion: Int
    ) async throws(APIError) -> SharedDocument {
        var request = Request<Body>(.path("api/streams/\(id)"), method: .put, body: .json(document))
        request.headers[.ifMatch] = "\"\(baseVersion)\""
        return try await api.send(request).shared
    }

    /// Deletes a document.
    public func delete(_ id: String) async throws(APIError) {
        try await api.send(Request<Void>(.path("api/streams/\(id)"), method: .delete))
    }

    /// The document with `id` as it is now, then every version saved after it, by anyone.
    ///
    /// The connection is made when subscribed to and closed when the subscription is cancelled.
    /// When it drops — the network, a restart of the lab — it is made again after a pause that
    /// grows from 0.2 s to 5 s, and resumes from the version last published, so no version is
    /// published twice. It fails when the document is deleted or does not exist.
    public func live(_ id: String) -> AnyPublisher<SharedDocument, LiveDocumentError> {
        // No id of another form could ever be found.
        guard DocumentID.isWellFormed(id) else {
            return Fail(error: .notFound(id: id)).eraseToAnyPublisher()
        }
        let url = liveURL(id)
        return AsyncEventsPublisher { send throws(LiveDocumentError) in
            try await LiveConnection.follow(id: id, url: url, send: send)
        }
        .eraseToAnyPublisher()
    }

    /// The live connection's address. Following a document only reads it, so the connection
    /// carries no credential: the token never travels where it is not needed, nor in a URL.
    func liveURL(_ id: String) -> String {
        var components = URLComponents(
            url: baseURL.appending(path: "api/streams/\(id)/live"),
            resolvingAgainstBaseURL: true
        )
        components?.scheme = baseURL.scheme == "https" ? "wss" : "ws"
        return components?.string ?? ""
    }

    /// What the API answers for a document.
    struct Body: Decodable, Sendable {
        var id: String
        var version: Int
        var author: String?
        var document: StreamDocument

        var shared: SharedDocument {
            SharedDocument(id: id, version: version, author: author, document: document)
        }
    }
}

/// The connection to a live document, remade when it drops.
enum LiveConnection {
    /// Sends the document's versions to `send` until the task is cancelled; throws when the
    /// document is deleted.
    static func follow(
        id: String,
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
                    switch try? JSONDecoder().decode(LiveServerMessage.self, from: Data(text.utf8)) {
                    case .snapshot(let version, let document, _)?:
                        publish(SharedDocument(id: id, version: version, author: nil, document: document))
                    case .saved(let version, let document, let author)?:
                        publish(SharedDocument(id: id, version: version, author: author, document: document))
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
