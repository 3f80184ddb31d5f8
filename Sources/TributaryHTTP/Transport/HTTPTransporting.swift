public import Foundation
public import HTTPTypes

/// One HTTP exchange, as a transport is asked to carry it out.
public struct TransportRequest: Sendable {
    /// The request line and header fields.
    public var head: HTTPRequest
    /// The request body, if any.
    public var body: Data?
    /// How long the whole exchange may take.
    public var timeout: Duration
    /// The most response body bytes to accept; a longer body fails the exchange.
    public var maximumResponseBodySize: Int
    /// Called as the response body arrives, with the bytes received so far and the length the
    /// server announced, if it did.
    public var progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)?
    /// The header fields and query items that carry credentials, and the origins they may be
    /// sent to: a redirect anywhere else drops them.
    public var credentials: Credentials
    /// Which addresses the exchange may reach, checked before it is sent and before each
    /// redirect is followed.
    public var addressPolicy: AddressPolicy
    /// The origin of the base URL of the client that made the request, which credentials are
    /// scoped to by default.
    public var baseOrigin: HTTPOrigin?

    /// Creates an exchange to carry out.
    public init(
        head: HTTPRequest,
        body: Data? = nil,
        timeout: Duration = .seconds(60),
        maximumResponseBodySize: Int = 10 << 20,
        progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)? = nil,
        credentials: Credentials = Credentials(),
        addressPolicy: AddressPolicy = .unrestricted,
        baseOrigin: HTTPOrigin? = nil
    ) {
        self.head = head
        self.body = body
        self.timeout = timeout
        self.maximumResponseBodySize = maximumResponseBodySize
        self.progress = progress
        self.credentials = credentials
        self.addressPolicy = addressPolicy
        self.baseOrigin = baseOrigin
    }
}

/// Where a request carries credentials, and which origins may receive them.
///
/// ``Authentication`` records what it adds here. A transport that follows a redirect to an
/// origin that is neither the request's own nor trusted drops every field and query item
/// named here, as curl and browsers drop `Authorization`.
public struct Credentials: Sendable {
    /// Header fields that carry credentials; `Authorization`, `Proxy-Authorization` and
    /// `Cookie` always do.
    public var headerFields: Set<HTTPField.Name>
    /// Names of query items that carry credentials.
    public var queryItems: Set<String>
    /// Origins besides the request's own that may receive them; nil trusts every origin.
    public var trustedOrigins: Set<HTTPOrigin>?

    /// Credentials in the standard header fields, for the request's own origin only.
    public init(
        headerFields: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie],
        queryItems: Set<String> = [],
        trustedOrigins: Set<HTTPOrigin>? = []
    ) {
        self.headerFields = headerFields
        self.queryItems = queryItems
        self.trustedOrigins = trustedOrigins
    }

    /// Whether a request first sent to `original` may carry them to `origin`.
    public func mayReach(_ origin: HTTPOrigin?, from original: HTTPOrigin?) -> Bool {
        guard let trustedOrigins else { return true }
        guard let origin else { return false }
        return origin == original || trustedOrigins.contains(origin)
    }
}

/// What came back from one HTTP exchange.
public struct TransportResponse: Sendable {
    /// The status and header fields.
    public var head: HTTPResponse
    /// The whole response body.
    public var body: Data

    /// Creates a response.
    public init(head: HTTPResponse, body: Data = Data()) {
        self.head = head
        self.body = body
    }
}

/// Why an exchange produced no response.
public enum TransportFailure: Error, Sendable, CustomStringConvertible {
    /// The exchange took longer than its timeout.
    case timedOut
    /// The exchange was cancelled before it finished.
    case cancelled
    /// The response body was longer than the limit, in bytes.
    case responseBodyTooLarge(limit: Int)
    /// The server could not be reached or the connection failed: refused, reset, TLS,
    /// a malformed or truncated response. The transports here report a ``ConnectionFailure``.
    case connection(any Error)
    /// The transport cannot express this request.
    case unsupportedRequest(String)
    /// The request's ``AddressPolicy`` does not allow the host, or an address it resolves to.
    case addressNotAllowed(host: String, reason: String)
    /// The server redirected more times than allowed, or in a circle.
    case tooManyRedirects(Int)

    public var description: String {
        switch self {
        case .timedOut: "the exchange timed out"
        case .cancelled: "the exchange was cancelled"
        case .responseBodyTooLarge(let limit): "the response body is larger than \(limit) bytes"
        case .connection(let error): "\(error)"
        case .unsupportedRequest(let reason): reason
        case .addressNotAllowed(let host, let reason): "\(host) is not allowed: \(reason)"
        case .tooManyRedirects(let count): "the server redirected \(count) times without an answer"
        }
    }
}

/// The ability to carry out HTTP exchanges: the seam between ``APIClient`` and the network.
///
/// ``URLSessionTransport`` uses Foundation; `AsyncHTTPClientTransport`, in the
/// `TributaryAsyncHTTPClient` module, uses AsyncHTTPClient; `MockTransport`, in
/// `TributaryHTTPTesting`, answers from the test. A transport follows redirects as
/// `TransportRequest.followingRedirects(_:)` does (dropping credentials that a redirect would
/// carry to another origin, and checking each hop's address), enforces
/// ``TransportRequest/timeout`` and ``TransportRequest/maximumResponseBodySize`` over the whole
/// exchange, and stops promptly when its task is cancelled.
public protocol HTTPTransporting: Sendable {
    /// Carries out one exchange.
    ///
    /// - Parameter request: What to send, with its limits.
    /// - Returns: The response head and its whole body, whatever the status.
    /// - Throws: ``TransportFailure`` when no complete response arrived.
    func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse
}
