import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Tributary
import TributaryLabWire
import TributaryStreams

/// `/api/streams`: documents stored, versioned and read.
///
/// A document is read with its id, which is its share link; listing and every write need the
/// token or the session. Every save names the version it was based on (`If-Match`), and a stale
/// one is answered with the current document instead of overwriting it.
struct DocumentsController {
    let service: DocumentService
    let authenticator: LabAuthenticator
    let maximumBodySize: Int

    var routes: RouteCollection<LabRequestContext> {
        let routes = RouteCollection(context: LabRequestContext.self)
        routes.get(":id", use: read)
        routes.get(":id/versions", use: versions)
        routes.get(":id/versions/:number", use: version)
        routes.add(middleware: authenticator)
        routes.get(use: list)
        routes.post(use: create)
        routes.put(":id", use: save)
        routes.delete(":id", use: delete)
        return routes
    }

    @Sendable func list(_ request: Request, context: LabRequestContext) async throws -> DocumentList {
        let limit = request.uri.queryParameters["limit"].map { Int($0) ?? -1 } ?? 20
        guard (1...100).contains(limit) else {
            throw LabError.badRequest("badLimit", "limit must be from 1 to 100.")
        }
        let cursor = request.uri.queryParameters["cursor"].map(String.init)
        return try await service.list(limit: limit, after: cursor)
    }

    @Sendable func create(
        _ request: Request,
        context: LabRequestContext
    ) async throws -> EditedResponse<SharedDocument> {
        let document = try await request.decode(as: StreamDocument.self, context: bodies(context))
        let created = try await service.create(document, author: request.headers[.author])
        return EditedResponse(
            status: .created,
            headers: [.location: "/api/streams/\(created.id)", .eTag: "\"1\""],
            response: created
        )
    }

    @Sendable func read(_ request: Request, context: LabRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let version = try await service.latestVersion(id)
        let eTag = "\"\(version)\""
        // `*` matches a document that exists; a value that is no list of entity tags is
        // ignored, as if not sent.
        if let condition = request.headers[.ifNoneMatch],
            Self.isAny(condition) || Self.versions(in: condition)?.contains(version) == true
        {
            return Response(status: .notModified, headers: [.eTag: eTag])
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .eTag: eTag],
            body: .init(byteBuffer: try await service.body(of: id, version: version))
        )
    }

    @Sendable func save(
        _ request: Request,
        context: LabRequestContext
    ) async throws -> EditedResponse<SharedDocument> {
        let id = try Self.id(context)
        guard let match = request.headers[.ifMatch] else {
            throw LabError(
                status: .preconditionRequired,
                code: "versionRequired",
                message: "A save names the version it is based on, as If-Match: \"N\"."
            )
        }
        // `*` is whatever version is current; a list matches if any of its strong tags names
        // the latest version (RFC 9110, section 13.1.1), and otherwise the save is stale and
        // answered with the document as it is. A value that is no list of entity tags is
        // refused rather than read in part.
        let isAny = Self.isAny(match)
        guard let named = isAny ? [] : Self.versions(in: match, weak: false) else {
            throw LabError.badRequest("badVersion", "If-Match names no version, as \"N\" or a list of them.")
        }
        let latest = try await service.latestVersion(id)
        let base = isAny || named.contains(latest) ? latest : named.max() ?? 0
        let document = try await request.decode(as: StreamDocument.self, context: bodies(context))
        do throws(DocumentStoreError) {
            let saved = try await service.save(
                id,
                document: document,
                baseVersion: base,
                author: request.headers[.author]
            )
            return EditedResponse(headers: [.eTag: "\"\(saved.version)\""], response: saved)
        } catch {
            guard case .conflict(let current) = error else { throw error }
            return EditedResponse(
                status: .preconditionFailed,
                headers: [.eTag: "\"\(current.version)\""],
                response: current
            )
        }
    }

    @Sendable func delete(_ request: Request, context: LabRequestContext) async throws -> HTTPResponse.Status
    {
        try await service.delete(try Self.id(context))
        return .noContent
    }

    @Sendable func versions(_ request: Request, context: LabRequestContext) async throws -> DocumentVersions {
        DocumentVersions(versions: try await service.versions(try Self.id(context)))
    }

    @Sendable func version(_ request: Request, context: LabRequestContext) async throws -> Response {
        let number = try Self.versionNumber(context)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .eTag: "\"\(number)\""],
            body: .init(byteBuffer: try await service.versionBody(number, of: try Self.id(context)))
        )
    }

    // MARK: Pieces of the routes

    /// The context in which this controller's bodies are read: documents of up to the lab's
    /// body size.
    func bodies(_ context: LabRequestContext) -> LabRequestContext {
        context.limitingBodies(to: maximumBodySize)
    }

    /// The route's `:number`, a version from 1.
    static func versionNumber(_ context: LabRequestContext) throws(LabError) -> Int {
        guard let number = context.parameters.get("number").flatMap(Self.versionNumber(_:)) else {
            throw .notFound("such version")
        }
        return number
    }

    static func id(_ context: LabRequestContext) throws(LabError) -> DocumentID {
        try context.requireDocumentID(naming: "such document")
    }

    /// A version number as the lab writes one: digits from 1, without a sign or leading zeros;
    /// nil for anything else (`+2`, `01`, `0`).
    static func versionNumber(_ text: some StringProtocol) -> Int? {
        guard let first = text.first, first != "0", text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return Int(text)
    }

    /// The version numbers an `If-Match` or `If-None-Match` value names (`"3"`, `W/"3"` when
    /// `weak`, lists of them, empty elements allowed); tags that name no version of the lab's are
    /// passed over. Nil when the value is not a list of entity tags (RFC 9110, section 8.8.3).
    static func versions(in header: String, weak: Bool = true) -> [Int]? {
        var versions: [Int] = []
        for element in header.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            var tag = element.drop { $0 == 0x20 || $0 == 0x09 }
            while let last = tag.last, last == 0x20 || last == 0x09 { tag = tag.dropLast() }
            if tag.isEmpty { continue }
            let isWeak = tag.starts(with: "W/".utf8)
            if isWeak { tag = tag.dropFirst(2) }
            // An opaque tag: quoted, of visible characters other than the quote.
            guard tag.count >= 2, tag.first == 0x22, tag.last == 0x22 else { return nil }
            let opaque = tag.dropFirst().dropLast()
            guard opaque.allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }) else {
                return nil
            }
            if weak || !isWeak, let version = versionNumber(String(decoding: opaque, as: UTF8.self)) {
                versions.append(version)
            }
        }
        return versions
    }

    /// Whether an `If-Match` or `If-None-Match` value is `*`, any version.
    static func isAny(_ header: String) -> Bool {
        header.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) == "*"
    }
}

extension HTTPField.Name {
    /// Who a save is credited to.
    static let author = Self("X-Author")!
}

/// What `body` returns, unless `limit` passes first: then `body` is cancelled and `failure`
/// thrown.
func withTimeLimit<Value: Sendable>(
    _ limit: Duration,
    else failure: LabError,
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw failure }
        return value
    }
}
