public import Foundation
public import HTTPTypes

/// An HTTP request that knows the type of its response.
///
/// Requests are plain values, usually made by an endpoint enum:
///
/// ```swift
/// enum Feed {
///     case topHeadlines(country: String)
///
///     var request: Request<ArticlesPage> {
///         switch self {
///         case .topHeadlines(let country):
///             Request("top-headlines", query: [URLQueryItem(name: "country", value: country)])
///         }
///     }
/// }
/// let page = try await client.send(Feed.topHeadlines(country: "us").request)
/// ```
///
/// A `Decodable` response is decoded from JSON, `Data` is returned as it came, and `Void`
/// ignores the body; ``init(_:method:query:headers:body:decode:)`` takes any other decoding.
public struct Request<Response: Sendable>: Sendable {
    /// Where a request goes.
    public enum Target: Sendable, ExpressibleByStringLiteral {
        /// A path resolved against the client's base URL.
        case path(String)
        /// An absolute URL, used as it is.
        case url(URL)

        public init(stringLiteral path: String) {
            self = .path(path)
        }
    }

    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// Where the request goes.
    public var target: Target
    /// Query items appended to the URL, in order.
    public var query: [URLQueryItem]
    /// Header fields sent with the request.
    public var headers: HTTPFields
    /// The body, encoded when the request is sent.
    public var body: RequestBody?
    /// How long the whole exchange may take; nil uses the client's timeout.
    public var timeout: Duration?
    /// The largest response body accepted; nil uses the client's limit.
    public var maximumResponseBodySize: Int?
    /// Whether repeating the request is harmless, which retries require. Defaults to true
    /// for GET, HEAD, OPTIONS, TRACE, PUT and DELETE.
    public var isIdempotent: Bool
    /// The statuses that count as success; any other fails with
    /// ``APIError/Kind/unacceptableStatus(_:body:serverError:)``.
    public var acceptableStatuses: Range<Int> = 200..<300
    /// Called as the response body arrives, with the bytes received so far and the length the
    /// server announced, if it did.
    public var progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)?

    @usableFromInline
    let decode: @Sendable (HTTPResponse, Data, JSONDecoder) throws -> Response

    /// Creates a request whose response is made by `decode`.
    ///
    /// - Parameters:
    ///   - target: A path relative to the client's base URL, or an absolute URL.
    ///   - method: The HTTP method.
    ///   - query: Query items to append.
    ///   - headers: Header fields to send.
    ///   - body: The body to send.
    ///   - decode: Makes the response from an acceptable status, its headers and body; what it
    ///     throws becomes ``APIError/Kind/undecodable(codingPath:reason:snippet:)``.
    public init(
        _ target: Target,
        method: HTTPRequest.Method = .get,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        decode: @escaping @Sendable (HTTPResponse, Data, JSONDecoder) throws -> Response
    ) {
        self.method = method
        self.target = target
        self.query = query
        self.headers = headers
        self.body = body
        self.decode = decode
        isIdempotent = [.get, .head, .options, .trace, .put, .delete].contains(method)
    }
}

extension Request where Response: Decodable {
    /// Creates a request whose response is decoded from JSON with the client's decoder.
    ///
    /// Inlinable so that the decoding is specialised for `Response` where the request is made.
    @inlinable
    public init(
        _ target: Target,
        method: HTTPRequest.Method = .get,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        self.init(target, method: method, query: query, headers: headers, body: body) { _, data, decoder in
            try decoder.decode(Response.self, from: data)
        }
        self.headers[.accept] = self.headers[.accept] ?? "application/json"
    }
}

extension Request where Response == Data {
    /// Creates a request whose response is the body as it came.
    public init(
        _ target: Target,
        method: HTTPRequest.Method = .get,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        self.init(target, method: method, query: query, headers: headers, body: body) { _, data, _ in data }
    }
}

extension Request where Response == Void {
    /// Creates a request whose response body, if any, is ignored.
    public init(
        _ target: Target,
        method: HTTPRequest.Method = .get,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        self.init(target, method: method, query: query, headers: headers, body: body) { _, _, _ in () }
    }
}
