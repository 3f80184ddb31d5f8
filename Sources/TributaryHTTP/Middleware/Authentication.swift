import Foundation
public import HTTPTypes

/// Adds credentials to the requests bound for the client's own origin: an API key in a header
/// or the query, or a bearer token.
///
/// ```swift
/// let client = APIClient(
///     baseURL: URL(string: "https://newsapi.org/v2")!,
///     transport: URLSessionTransport(),
///     middleware: [Authentication(.apiKey(key, header: "X-Api-Key"))]
/// )
/// ```
///
/// A credential is for one server. By default it goes only to the origin (scheme, host and
/// port) of the client's base URL: a request with an absolute URL elsewhere (a feed, an image
/// on a CDN) is sent without it, and a redirect to another origin drops it, as curl and
/// browsers drop `Authorization`. ``Scope/origins(_:)`` and ``Scope/anyOrigin`` widen that
/// explicitly.
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

    /// The origins a credential is sent to.
    public enum Scope: Sendable, Equatable {
        /// The origin of the client's base URL.
        case baseURL
        /// The origin of the client's base URL and these.
        case origins(Set<HTTPOrigin>)
        /// Every origin, including those that redirects lead to.
        case anyOrigin
    }

    /// The credential added to each request.
    public var credential: Credential
    /// The origins that receive it.
    public var scope: Scope

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - credential: What to send.
    ///   - scope: Where to send it; by default only to the client's base URL origin.
    public init(_ credential: Credential, scope: Scope = .baseURL) {
        self.credential = credential
        self.scope = scope
    }

    public func intercept(
        _ request: TransportRequest,
        next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let trusted: Set<HTTPOrigin>?
        switch scope {
        case .baseURL: trusted = Set([request.baseOrigin].compactMap { $0 })
        case .origins(let origins): trusted = origins.union([request.baseOrigin].compactMap { $0 })
        case .anyOrigin: trusted = nil
        }
        if let trusted, !trusted.contains(where: { $0 == HTTPOrigin(request.head) }) {
            return try await next(request)
        }
        var request = request
        if let trusted, let already = request.credentials.trustedOrigins {
            request.credentials.trustedOrigins = already.union(trusted)
        } else {
            request.credentials.trustedOrigins = nil
        }
        switch credential {
        case .apiKey(let key, let header):
            request.head.headerFields[header] = key
            request.credentials.headerFields.insert(header)
        case .bearer(let token):
            request.head.headerFields[.authorization] = "Bearer \(token)"
            request.credentials.headerFields.insert(.authorization)
        case .apiKeyInQuery(let key, let name):
            guard let path = request.head.path else { throw AuthenticationError.unsupportedURL }
            // Appended to the query as it was encoded, which stays exactly as it is: decoding
            // and re-encoding it would turn an encoded `+` into a space.
            let item = APIClient.encodeQuery(name) + "=" + APIClient.encodeQuery(key)
            request.head.path = path + (path.contains("?") ? "&" : "?") + item
            request.credentials.queryItems.insert(name)
        }
        return try await next(request)
    }

    enum AuthenticationError: Error, CustomStringConvertible {
        case unsupportedURL
        var description: String { "the request has no path to carry a query item" }
    }
}
