public import Foundation

/// The body of a ``Request``: encoded when the request is sent.
public struct RequestBody: Sendable {
    /// The value of the `Content-Type` header sent with the body.
    public let contentType: String
    let encode: @Sendable (JSONEncoder) throws -> Data

    /// A body of raw bytes.
    ///
    /// - Parameters:
    ///   - data: The bytes to send.
    ///   - contentType: Their media type.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(contentType: contentType) { _ in data }
    }

    /// A body that is `value` encoded as JSON with the client's encoder.
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody(contentType: "application/json") { encoder in try encoder.encode(value) }
    }

    /// A body of URL-encoded form fields.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        var components = URLComponents()
        components.queryItems = fields
        // A literal "+" reads as a space in forms, so it travels encoded.
        let encoded = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return .data(Data(encoded.utf8), contentType: "application/x-www-form-urlencoded")
    }
}
