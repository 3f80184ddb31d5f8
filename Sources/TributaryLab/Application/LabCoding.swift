import Foundation
import HTTPTypes
public import Hummingbird
import NIOCore
import NIOHTTP1
import Tributary
public import TributaryLabWire
import TributaryStreams

/// How the lab's routes read bodies and write answers, as Hummingbird intends: a route reads
/// with `request.decode(as:context:)` and returns a `ResponseEncodable` value (in an
/// `EditedResponse` for its status and headers), and the context's ``LabRequestDecoder`` and
/// ``LabResponseEncoder`` do the rest.

/// Reads a JSON body within the lab's limits before anything parses it — the media type, the
/// route's byte limit (the context's `maxUploadSize`), the time it may take to arrive, no NUL
/// bytes and a bounded nesting depth — and then decodes it, a problem with the values answered
/// `422` with its JSON path.
struct LabRequestDecoder: RequestDecoder {
    func decode<T: Decodable>(
        _ type: T.Type,
        from request: Request,
        context: some RequestContext
    ) async throws -> T {
        let nesting = (context as? LabRequestContext)?.maxBodyNesting ?? StreamDocument.maximumNesting
        let data = try await LabBody.json(of: request, limit: context.maxUploadSize, nesting: nesting)
        return try StreamDocument.decode(type, from: data)
    }
}

extension Request {
    /// The body as a `T`, read within the context's limits; `refusal` when it is JSON but not
    /// a `T`.
    func decode<T: Decodable>(
        as type: T.Type,
        context: LabRequestContext,
        else refusal: LabError
    ) async throws -> T {
        do {
            return try await decode(as: type, context: context)
        } catch is StreamError {
            throw refusal
        }
    }
}

/// Writes an answer in the lab's JSON (``LabJSON``), as `application/json; charset=utf-8`.
struct LabResponseEncoder: ResponseEncoder {
    func encode(
        _ value: some Encodable,
        from request: Request,
        context: some RequestContext
    ) throws -> Response {
        LabJSON.response(value)
    }
}

/// A route's answer, in the lab's JSON.
extension SharedDocument: ResponseGenerator, ResponseEncodable {}
/// A route's answer, in the lab's JSON.
extension DocumentList: ResponseGenerator, ResponseEncodable {}
/// A route's answer, in the lab's JSON.
extension DocumentVersions: ResponseGenerator, ResponseEncodable {}
/// A route's answer, in the lab's JSON.
extension RecordingPage: ResponseGenerator, ResponseEncodable {}
/// A route's answer, in the lab's JSON.
extension RecordingSummary: ResponseGenerator, ResponseEncodable {}

/// The bounded reading of a request's body, before it is decoded.
enum LabBody {
    /// The request's body as JSON: `415` unless it says `application/json`, which a page
    /// elsewhere cannot send without the browser asking first; `413` past `limit`; `400` for a
    /// body whose chunks cannot be read, or that is not JSON.
    static func json(
        of request: Request,
        limit: Int,
        nesting: Int = StreamDocument.maximumNesting
    ) async throws -> Data {
        guard request.mediaType == "application/json" else {
            throw LabError(
                status: .unsupportedMediaType,
                code: "notJSON",
                message: "The body must be JSON, sent as Content-Type: application/json."
            )
        }
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw tooLarge(limit)
        }
        let bytes: ByteBuffer
        do {
            // A body that stops arriving holds its connection no longer than this.
            bytes = try await withTimeLimit(
                bodyTimeout,
                else: LabError(
                    status: .requestTimeout,
                    code: "bodyTimeout",
                    message: "The body did not arrive within \(bodyTimeout)."
                )
            ) { try await request.body.collect(upTo: limit) }
        } catch let error as LabError {
            throw error
        } catch is NIOTooManyBytesError {
            throw tooLarge(limit)
        } catch is HTTPParserError {
            throw LabError.badRequest(
                "malformedBody",
                "The body cannot be read: its chunked encoding is malformed."
            )
        }
        let data = Data(bytes.readableBytesView)
        guard !data.contains(0) else {
            throw LabError.badRequest(
                "notUTF8",
                "The body is read as UTF-8 JSON; this one holds NUL bytes, as UTF-16 and UTF-32 text does."
            )
        }
        // Bounded before anything parses it: no document nests deeper.
        guard !JSONNesting.exceeds(data, limit: nesting) else {
            throw LabError.badRequest(
                "tooDeep",
                "The body nests arrays and objects more than \(nesting) levels deep."
            )
        }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw LabError.badRequest("malformedJSON", "The body is not JSON: \(error.localizedDescription)")
        }
        return data
    }

    /// How long a body may take to arrive.
    static let bodyTimeout = Duration.seconds(30)

    static func tooLarge(_ limit: Int) -> LabError {
        LabError(
            status: .contentTooLarge,
            code: "tooLarge",
            message: "The body is larger than the \(limit.formatted(.byteCount(style: .binary))) limit."
        )
    }

}
