import Foundation
import Hummingbird
import NIOCore

/// An error the lab's API answers with: `{"error": {"code", "message", "path"}}` and a status.
struct LabError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// Where in the document the problem is, as a JSON path, when there is a place.
    var path: String?

    static func unauthorized() -> LabError {
        LabError(
            status: .unauthorized,
            code: "unauthorized",
            message: "This needs the lab's token, as Authorization: Bearer TOKEN."
        )
    }

    static func notFound(_ what: String) -> LabError {
        LabError(status: .notFound, code: "notFound", message: "There is no \(what).")
    }

    var response: Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                var code: String
                var message: String
                var path: String?
            }
            var error: Detail
        }
        return LabJSON.response(Body(error: .init(code: code, message: message, path: path)), status: status)
    }
}

/// The lab's JSON: sorted keys, ISO 8601 dates with milliseconds.
enum LabJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(
                date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
            )
        }
        return encoder
    }()

    static func response(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
