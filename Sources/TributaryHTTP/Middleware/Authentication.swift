import Foundation
public import HTTPTypes

/// Adds credentials to every request: an API key in a header or the query, or a bearer token.
///
/// ```swift
/// let client = APIClient(
///     baseURL: URL(string: "https://newsapi.org/v2")!,
///     transport: URLSessionTransport(),
///     middleware: [Authentication(.apiKey(key, header: "X-Api-Key"))]
/// )
/// ```
///
/// Credentials are never shown: ``Redaction/standard`` hides the usual header and query names,
/// and errors describe the request as it was before middleware added them.
public struct Authentication: APIMiddleware {
    /// A kind of credential and where it goes.
    public enum Credential: Sendable {
        /// A key sent in the named header field.
        case apiKey(String, header: HTTPField.Name)
        /// A key sent as the named query item.
        case apiKeyInQuery(String, name: String)
        /// A token sent as `Authorization: Bearer <token>`.
        case bearer(String)
    }

    /// The credential added to each request.
    public var credential: Credential

    /// Creates the middleware.
    public init(_ credential: Credential) {
        self.credential = credential
    }

    public func intercept(
        _ request: TransportRequest,
        next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        var request = request
        switch credential {
        case .apiKey(let key, let header):
            request.head.headerFields[header] = key
        case .bearer(let token):
            request.head.headerFields[.authorization] = "Bearer \(token)"
        case .apiKeyInQuery(let key, let name):
            guard let url = request.head.url,
                var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            else {
                throw AuthenticationError.unsupportedURL
            }
            components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: key)]
            request.head.path =
                components.percentEncodedPath
                + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
        }
        return try await next(request)
    }

    enum AuthenticationError: Error, CustomStringConvertible {
        case unsupportedURL
        var description: String { "the request's URL cannot carry a query item" }
    }
}
