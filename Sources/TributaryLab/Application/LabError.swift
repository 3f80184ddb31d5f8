import Foundation
import Hummingbird
import Logging
import NIOCore
import TributaryLabWire
import TributaryStreams

/// An error the lab's API answers with: `{"error": {"code", "message", "path"}}` and a status.
struct LabError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// Where in the document the problem is, as a JSON path, when there is a place.
    var path: String?
    /// Header fields the answer carries, such as `Retry-After`.
    var headers: HTTPFields = [:]

    static func unauthorized() -> LabError {
        LabError(
            status: .unauthorized,
            code: "unauthorized",
            message:
                "This needs the lab's token, as Authorization: Bearer TOKEN, or the session the printed link opens."
        )
    }

    static func notFound(_ what: String) -> LabError {
        LabError(status: .notFound, code: "notFound", message: "There is no \(what).")
    }

    /// An answer that cannot be written as JSON: the lab's failure, never an empty success.
    static let unencodable = LabError(
        status: .internalServerError,
        code: "unencodable",
        message: "The answer cannot be written as JSON."
    )

    static func badRequest(_ code: String, _ message: String) -> LabError {
        LabError(status: .badRequest, code: code, message: message)
    }

    /// A document that breaks a rule: `422` with the JSON path of the problem.
    static func invalidDocument(_ error: StreamError) -> LabError {
        LabError(
            status: .unprocessableContent,
            code: "invalidDocument",
            message: "\(error)",
            path: error.path
        )
    }

    /// The error as the API's body says it.
    var body: LabErrorBody { LabErrorBody(error: LabProblem(code: code, message: message, path: path)) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        LabJSON.response(body, status: status, headers: headers)
    }
}

/// Answers the errors of the layers below the routes — the store, the streams — as the API's
/// errors, so that a route throws what it meets and no route wraps its work.
///
/// A failure of the database is logged with the request's id and answered with that id alone:
/// its text may name tables, files or servers that are nobody else's business.
struct LabErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as DocumentStoreError {
            throw Self.labError(error, context: context)
        } catch let error as HTTPError where error.status == .notFound && !(error.body?.isEmpty == false) {
            // A person who follows a wrong link reads a page, as every other page of the lab is;
            // a program gets the API's error.
            guard request.uri.path.hasPrefix("/api/") else { return PagesController.noSuchPage }
            throw LabError.notFound("such route in the lab's API")
        } catch let error as StreamError {
            throw LabError.invalidDocument(error)
        } catch let error as RecordingStoreError {
            switch error {
            case .notFound: throw LabError.notFound("such recording")
            case .nameTaken: throw LabError(status: .conflict, code: "nameTaken", message: error.description)
            case .storage(let reason): throw Self.labError(.storage(reason), context: context)
            }
        }
    }

    static func labError(_ error: DocumentStoreError, context: Context) -> LabError {
        switch error {
        case .notFound: return .notFound("such document")
        case .conflict:
            return LabError(status: .preconditionFailed, code: "conflict", message: error.description)
        case .invalidCursor: return .badRequest("badCursor", error.description)
        case .storage:
            context.logger.error("The store failed", metadata: ["error": "\(error)"])
            return LabError(
                status: .internalServerError,
                code: "storage",
                message:
                    "The lab's database failed. The lab's log has the details under request \(context.id)."
            )
        }
    }
}

/// Answers and messages in the lab's JSON, written by the encoder its clients' decoder reads.
extension LabJSON {
    static func response(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        guard let body = try? encoder.encode(value) else {
            // Never an empty success: what cannot be written as JSON is the lab's failure.
            let failure =
                #"{"error":{"code":"unencodable","message":"The answer cannot be written as JSON."}}"#
            return Response(
                status: .internalServerError,
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: failure))
            )
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `value` as JSON text, for a WebSocket message.
    static func text(_ value: some Encodable) -> String {
        String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
