public import Foundation
public import HTTPTypes

/// The error a server explains in its response body, as a person can read it.
public struct ServerError: Sendable, Hashable, CustomStringConvertible {
    /// The server's machine-readable code, if it sends one (`apiKeyInvalid`, `7`).
    public var code: String?
    /// The server's human-readable message.
    public var message: String

    /// Creates a server error.
    public init(code: String? = nil, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String {
        code.map { "\(message) [\($0)]" } ?? message
    }
}

/// Reads the server's own error from the body of a response with an unacceptable status.
///
/// ```swift
/// let client = APIClient(baseURL: url, transport: transport, serverErrors: .newsAPI)
/// ```
public struct ServerErrorDecoder: Sendable {
    private let decode: @Sendable (HTTPResponse, Data) -> ServerError?

    /// Creates a decoder from a closure that returns nil when the body holds no error it knows.
    public init(_ decode: @escaping @Sendable (HTTPResponse, Data) -> ServerError?) {
        self.decode = decode
    }

    /// The server's error in `body`, if there is one.
    public func serverError(in response: HTTPResponse, body: Data) -> ServerError? {
        decode(response, body)
    }

    /// NewsAPI's `{"status": "error", "code": "...", "message": "..."}`.
    public static let newsAPI = ServerErrorDecoder { _, body in
        struct Body: Decodable {
            var code: String?
            var message: String
        }
        return (try? JSONDecoder().decode(Body.self, from: body)).map {
            ServerError(code: $0.code, message: $0.message)
        }
    }

    /// TMDb's `{"success": false, "status_code": 7, "status_message": "..."}`.
    public static let tmdb = ServerErrorDecoder { _, body in
        struct Body: Decodable {
            var status_code: Int?
            var status_message: String
        }
        return (try? JSONDecoder().decode(Body.self, from: body)).map {
            ServerError(code: $0.status_code.map(String.init), message: $0.status_message)
        }
    }

    /// The common shapes of JSON error bodies: NewsAPI's and TMDb's, `{"error": "..."}`,
    /// `{"error": {"code": ..., "message": "..."}}`, `{"message": "..."}` and RFC 9457's
    /// `{"title": ..., "detail": ...}`.
    public static let standard = ServerErrorDecoder { response, body in
        if let error = newsAPI.serverError(in: response, body: body)
            ?? tmdb.serverError(in: response, body: body)
        {
            return error
        }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            return nil
        }
        func text(_ value: Any?) -> String? {
            switch value {
            case let string as String: string
            case let number as NSNumber: number.stringValue
            default: nil
            }
        }
        if let nested = object["error"] as? [String: Any], let message = text(nested["message"]) {
            return ServerError(code: text(nested["code"]) ?? text(nested["type"]), message: message)
        }
        if let message = text(object["error_description"]) ?? text(object["error"])
            ?? text(object["detail"]) ?? text(object["title"])
        {
            return ServerError(code: text(object["code"]) ?? text(object["type"]), message: message)
        }
        return nil
    }

    /// Reads nothing: errors carry only their status and body.
    public static let none = ServerErrorDecoder { _, _ in nil }
}
