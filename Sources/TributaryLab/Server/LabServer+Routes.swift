import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TributaryStreams

extension LabServer {
    /// What the API answers with for a document: its id, version, time and the document.
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

    struct Summary: Encodable {
        var id: String
        var title: String
        var version: Int
        var updatedAt: Date
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("api/health") { _, _ in LabJSON.response(["status": "ok"]) }
        // The printed link: with the token, it becomes the browser's session cookie.
        router.get("/") { request, _ in
            if let given = request.uri.queryParameters["token"] {
                guard matchesToken(String(given)) else { return LabError.unauthorized().response }
                return Response(
                    status: .seeOther,
                    headers: [
                        .location: "/",
                        .setCookie: "\(Self.sessionCookie)=\(token); Path=/; HttpOnly; SameSite=Strict",
                        .cacheControl: "no-store",
                    ]
                )
            }
            return WebAssets.bundled.response("index.html", to: request) ?? Response(status: .notFound)
        }
        router.get("api/streams") { request, _ in
            try await answer {
                try authorize(request)
                let limit = request.uri.queryParameters["limit"].map { Int($0) ?? -1 } ?? 20
                guard (1...100).contains(limit) else {
                    throw LabError(
                        status: .badRequest,
                        code: "badLimit",
                        message: "limit must be from 1 to 100."
                    )
                }
                let cursor = request.uri.queryParameters["cursor"].map(String.init)
                let page = try await stored { try await store.list(limit: limit, after: cursor) }
                struct Body: Encodable {
                    var documents: [Summary]
                    var nextCursor: String?
                }
                let summaries = page.documents.map {
                    Summary(id: $0.id, title: $0.title, version: $0.version, updatedAt: $0.updatedAt)
                }
                return LabJSON.response(Body(documents: summaries, nextCursor: page.nextCursor))
            }
        }
        router.post("api/streams") { request, _ in
            try await answer {
                try authorize(request)
                let document = try await validDocument(request)
                let author = author(of: request)
                let created = try await stored { try await store.create(document, author: author) }
                return LabJSON.response(
                    DocumentBody(created),
                    status: .created,
                    headers: [.location: "/api/streams/\(created.id)", .eTag: "\"1\""]
                )
            }
        }
        router.get("api/streams/:id") { request, context in
            try await answer {
                let id = try id(context)
                let version = try await stored { try await store.latestVersion(id) }
                let eTag = "\"\(version)\""
                if request.headers[.ifNoneMatch].map({ Self.versions(in: $0).contains(version) }) == true {
                    return Response(status: .notModified, headers: [.eTag: eTag])
                }
                // A version never changes, so its encoded answer is kept and sent again as it is.
                let body: ByteBuffer
                if let cached = bodies.body(of: id, version: version) {
                    body = cached
                } else {
                    let current = try await stored { try await store.version(id, number: version) }
                    body = ByteBuffer(
                        bytes: (try? LabJSON.encoder.encode(DocumentBody(current))) ?? Data("{}".utf8)
                    )
                    bodies.keep(body, of: id, version: version)
                }
                return Response(
                    status: .ok,
                    headers: [.contentType: "application/json; charset=utf-8", .eTag: eTag],
                    body: .init(byteBuffer: body)
                )
            }
        }
        router.put("api/streams/:id") { request, context in
            try await answer {
                try authorize(request)
                let id = try id(context)
                guard let match = request.headers[.ifMatch] else {
                    throw LabError(
                        status: .preconditionRequired,
                        code: "versionRequired",
                        message: "A save names the version it is based on, as If-Match: \"N\"."
                    )
                }
                guard let base = Self.versions(in: match).first else {
                    throw LabError(
                        status: .badRequest,
                        code: "badVersion",
                        message: "If-Match names no version."
                    )
                }
                let document = try await validDocument(request)
                let author = author(of: request)
                do throws(DocumentStoreError) {
                    let saved = try await store.save(
                        id,
                        document: document,
                        baseVersion: base,
                        author: author
                    )
                    hub.publish(saved)
                    return LabJSON.response(DocumentBody(saved), headers: [.eTag: "\"\(saved.version)\""])
                } catch {
                    guard case .conflict(let current) = error else { throw Self.labError(error) }
                    return LabJSON.response(
                        DocumentBody(current),
                        status: .preconditionFailed,
                        headers: [.eTag: "\"\(current.version)\""]
                    )
                }
            }
        }
        router.delete("api/streams/:id") { request, context in
            try await answer {
                try authorize(request)
                let id = try id(context)
                try await stored { try await store.delete(id) }
                hub.publishDeletion(of: id)
                return Response(status: .noContent)
            }
        }
        router.get("api/streams/:id/versions") { _, context in
            try await answer {
                let id = try id(context)
                let versions = try await stored { try await store.versions(id) }
                return LabJSON.response(["versions": versions])
            }
        }
        router.get("api/streams/:id/versions/:number") { _, context in
            try await answer {
                guard let number = context.parameters.get("number").flatMap(Int.init), number > 0 else {
                    throw LabError.notFound("such version")
                }
                let id = try id(context)
                let version = try await stored { try await store.version(id, number: number) }
                return LabJSON.response(DocumentBody(version), headers: [.eTag: "\"\(version.version)\""])
            }
        }
        router.post("api/run") { request, _ in
            try await answer {
                let document = try await validDocument(request)
                let timeline = try run(document)
                struct Body: Encodable {
                    var marbles: String
                    var timeline: [Timeline.Event]
                }
                let marbles = try streamsOperation { () throws(StreamError) in
                    try TextLanes.render(timeline, document: document)
                }
                return LabJSON.response(Body(marbles: marbles, timeline: timeline.events))
            }
        }
        router.post("api/diagram.svg") { request, _ in
            try await answer {
                let document = try await validDocument(request)
                return try svg(document)
            }
        }
        router.get("api/streams/:id/diagram.svg") { _, context in
            try await answer {
                let id = try id(context)
                let current = try await stored { try await store.document(id) }
                return try svg(current.document, title: current.title)
            }
        }
    }

    // MARK: Pieces of the routes

    /// Runs `body`, answering a ``LabError`` it throws with its JSON.
    func answer(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as LabError {
            return error.response
        }
    }

    /// The name of the session cookie that visiting the printed `/?token=` link sets.
    static let sessionCookie = "tributary_lab"

    /// Lets through a request with the token, as `Authorization: Bearer` or as the session
    /// cookie; a write by cookie must come from a page of the lab's own origin, which browsers
    /// name in `Origin`, so that a page elsewhere cannot write for a visitor.
    private func authorize(_ request: Request) throws(LabError) {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            guard matchesToken(header.dropFirst(7).trimmingCharacters(in: .whitespaces)) else {
                throw .unauthorized()
            }
            return
        }
        guard let session = Self.cookie(Self.sessionCookie, in: request), matchesToken(session) else {
            throw .unauthorized()
        }
        guard
            request.method == .get || request.method == .head
                || (request.headers[.origin] != nil && Self.isSameOrigin(request))
        else {
            throw LabError(
                status: .forbidden,
                code: "foreignOrigin",
                message: "A write with the session cookie must come from the lab's own pages."
            )
        }
    }

    /// The value of the cookie `name`, if the request sends it.
    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if parts.count == 2, parts[0] == name { return parts[1] }
            }
        }
        return nil
    }

    /// Whether `request` carries the token: in `Authorization: Bearer`, or, for a WebSocket,
    /// which a browser opens without header fields of its own, in the `token` query item.
    func isAuthorized(_ request: Request) -> Bool {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            return matchesToken(header.dropFirst(7).trimmingCharacters(in: .whitespaces))
        }
        return request.uri.queryParameters["token"].map { matchesToken(String($0)) } ?? false
    }

    /// Compares `given` with the token in time that does not depend on where they differ.
    func matchesToken(_ given: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(token.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for (index, byte) in expected.enumerated() {
            difference |= byte ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    private func id(_ context: BasicRequestContext) throws(LabError) -> String {
        guard let id = context.parameters.get("id"), DocumentID.isWellFormed(id) else {
            throw .notFound("such document")
        }
        return id
    }

    /// Who a save is credited to: the `X-Author` header, shortened, or "anonymous".
    private func author(of request: Request) -> String {
        let name = (request.headers[HTTPField.Name("X-Author")!] ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines
        )
        return name.isEmpty ? "anonymous" : String(name.prefix(64))
    }

    /// The request's body as a valid stream document: 413 past the size limit, 400 for what is
    /// not JSON, 422 with the path for a document that breaks a rule.
    private func validDocument(_ request: Request) async throws -> StreamDocument {
        let body = request.body
        let bytes: ByteBuffer
        do {
            bytes = try await body.collect(upTo: maximumBodySize)
        } catch {
            throw LabError(
                status: .contentTooLarge,
                code: "tooLarge",
                message: "The body is larger than the \(maximumBodySize >> 20) MiB limit."
            )
        }
        let data = Data(bytes.readableBytesView)
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw LabError(
                status: .badRequest,
                code: "malformedJSON",
                message: "The body is not JSON: \(error.localizedDescription)"
            )
        }
        return try streamsOperation { () throws(StreamError) in try StreamDocument.decode(data) }
    }

    private func run(_ document: StreamDocument) throws -> Timeline {
        try streamsOperation { () throws(StreamError) in try StreamRunner().run(document) }
    }

    private func svg(_ document: StreamDocument, title: String? = nil) throws -> Response {
        let timeline = try run(document)
        let drawing = SVGRenderer.render(timeline, document: document, title: title)
        return Response(
            status: .ok,
            headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: drawing))
        )
    }

    func streamsOperation<Value>(_ body: () throws(StreamError) -> Value) throws(LabError) -> Value {
        do throws(StreamError) {
            return try body()
        } catch {
            throw LabError(
                status: .unprocessableContent,
                code: "invalidDocument",
                message: "\(error)",
                path: error.path
            )
        }
    }

    /// Runs a store operation, answering its failure as the API's error.
    private func stored<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as DocumentStoreError {
            throw Self.labError(error)
        }
    }

    private static func labError(_ error: DocumentStoreError) -> LabError {
        switch error {
        case .notFound: LabError.notFound("such document")
        case .conflict: LabError(status: .preconditionFailed, code: "conflict", message: error.description)
        case .invalidCursor: LabError(status: .badRequest, code: "badCursor", message: error.description)
        case .storage: LabError(status: .internalServerError, code: "storage", message: error.description)
        }
    }

    /// The version numbers an `If-Match` or `If-None-Match` value names: `"3"`, `W/"3"`, lists.
    static func versions(in header: String) -> [Int] {
        header.split(separator: ",").compactMap { tag in
            var text = tag.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("W/") { text.removeFirst(2) }
            guard text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 else { return nil }
            return Int(text.dropFirst().dropLast())
        }
    }
}
