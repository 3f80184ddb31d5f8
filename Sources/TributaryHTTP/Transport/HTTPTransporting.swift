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

    /// Creates an exchange to carry out.
    public init(
        head: HTTPRequest,
        body: Data? = nil,
        timeout: Duration = .seconds(60),
        maximumResponseBodySize: Int = 10 << 20,
        progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)? = nil
    ) {
        self.head = head
        self.body = body
        self.timeout = timeout
        self.maximumResponseBodySize = maximumResponseBodySize
        self.progress = progress
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
public enum TransportFailure: Error, Sendable {
    /// The exchange took longer than its timeout.
    case timedOut
    /// The exchange was cancelled before it finished.
    case cancelled
    /// The response body was longer than the limit, in bytes.
    case responseBodyTooLarge(limit: Int)
    /// The server could not be reached or the connection failed: refused, reset, TLS,
    /// a malformed or truncated response.
    case connection(any Error)
    /// The transport cannot express this request.
    case unsupportedRequest(String)
}

/// The ability to carry out HTTP exchanges: the seam between ``APIClient`` and the network.
///
/// ``URLSessionTransport`` uses Foundation; `AsyncHTTPClientTransport`, in the
/// `TributaryAsyncHTTPClient` module, uses AsyncHTTPClient; `MockTransport`, in
/// `TributaryHTTPTesting`, answers from the test. A transport follows redirects, enforces
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
