public import Foundation
public import HTTPTypes

/// Why an ``APIClient`` request failed, with what a person needs to act on it.
///
/// It keeps the request's method and URL, with secrets redacted, and one ``Kind``:
///
/// ```swift
/// do {
///     let page = try await client.send(feed.request)
/// } catch {
///     if case .unacceptableStatus(let response, _, let serverError?) = error.kind {
///         show("\(response.status.code): \(serverError.message)")
///     }
/// }
/// ```
public struct APIError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The request was built wrong and was not sent.
        case invalidRequest(reason: String)
        /// The server could not be reached or the connection failed.
        case transport(any Error)
        /// The exchange took longer than its timeout.
        case timedOut(after: Duration)
        /// The request was cancelled.
        case cancelled
        /// The server answered with a status the request does not accept. `body` is capped;
        /// `serverError` is the server's own explanation, when the client's
        /// ``ServerErrorDecoder`` could read one.
        case unacceptableStatus(HTTPResponse, body: Data, serverError: ServerError?)
        /// The body could not be turned into the response type.
        case undecodable(codingPath: String, reason: String, snippet: String)
        /// The response body was longer than the limit, in bytes.
        case bodyTooLarge(limit: Int)
        /// A middleware refused the exchange.
        case rejected(any Error)
        /// The client's ``AddressPolicy`` does not allow the host, or an address it resolves
        /// to; nothing was sent there.
        case addressNotAllowed(host: String, reason: String)
    }

    /// What went wrong.
    public let kind: Kind
    /// The request's method.
    public let method: HTTPRequest.Method
    /// The request's URL, with secret query items redacted.
    public let url: String

    /// Creates an error for the request described by `method` and `url` (already redacted).
    public init(_ kind: Kind, method: HTTPRequest.Method, url: String) {
        self.kind = kind
        self.method = method
        self.url = url
    }

    /// The HTTP status, when the server answered with an unacceptable one.
    public var status: HTTPResponse.Status? {
        guard case .unacceptableStatus(let response, _, _) = kind else { return nil }
        return response.status
    }

    /// The HTTP status code, when the server answered with an unacceptable status.
    public var statusCode: Int? { status?.code }

    /// The server's own explanation, when it sent one.
    public var serverError: ServerError? {
        guard case .unacceptableStatus(_, _, let serverError) = kind else { return nil }
        return serverError
    }

    /// Whether trying again may succeed: transport failures, timeouts, and the statuses 408,
    /// 429, 500, 502, 503 and 504.
    public var isRetryable: Bool {
        switch kind {
        case .transport, .timedOut:
            true
        case .unacceptableStatus(let response, _, _):
            [408, 429, 500, 502, 503, 504].contains(response.status.code)
        case .invalidRequest, .cancelled, .undecodable, .bodyTooLarge, .rejected, .addressNotAllowed:
            false
        }
    }

    /// How long the server asked the client to wait (`Retry-After`, in seconds or as an HTTP
    /// date), measured from `now`.
    public func retryAfter(now: Date = Date()) -> Duration? {
        guard case .unacceptableStatus(let response, _, _) = kind,
            let value = response.headerFields[.retryAfter]
        else { return nil }
        return RetryAfter.delay(value, now: now)
    }

    public var description: String {
        let request = "\(method) \(url)"
        switch kind {
        case .invalidRequest(let reason):
            return "\(request) was not sent because \(reason)."
        case .transport(let error):
            return "\(request) could not reach the server: \(Self.describe(error))."
        case .timedOut(let timeout):
            return "\(request) timed out after \(Self.describe(timeout))."
        case .cancelled:
            return "\(request) was cancelled."
        case .unacceptableStatus(let response, let body, let serverError):
            // The standard phrase: transports differ in what they pass on.
            let phrase = StatusPhrase.standard(for: response.status.code)
            let status = "HTTP \(response.status.code) \(phrase)".trimmingCharacters(in: .whitespaces)
            if let serverError {
                return "\(request) failed with \(status): \(serverError)."
            }
            let snippet = Self.snippet(of: body)
            return "\(request) failed with \(status)"
                + (snippet.isEmpty ? "." : "; the body begins: \(snippet)")
        case .undecodable(let codingPath, let reason, let snippet):
            let place = codingPath.isEmpty ? "" : " at \(codingPath)"
            return
                "The response to \(request) could not be decoded\(place): \(reason) The body begins: \(snippet)"
        case .bodyTooLarge(let limit):
            return "The response to \(request) is larger than the \(Self.describe(bytes: limit)) limit."
        case .rejected(let error):
            return "\(request) was stopped by a middleware: \(Self.describe(error))."
        case .addressNotAllowed(let host, let reason):
            let target = host.isEmpty ? "" : " to \(host)"
            return "\(request) was not sent\(target) because \(reason)."
        }
    }

    /// The first bytes of `body` as text, for error messages.
    static func snippet(of body: Data, limit: Int = 200) -> String {
        let text = String(decoding: body.prefix(limit), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
            .trimmingCharacters(in: .whitespaces)
        return body.count > limit ? text + "…" : text
    }

    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    private static func describe(_ duration: Duration) -> String {
        let seconds =
            Double(duration.components.seconds)
            + Double(duration.components.attoseconds) / 1e18
        return seconds == 1
            ? "1 second" : "\(seconds.formatted(.number.precision(.fractionLength(0...3)))) seconds"
    }

    private static func describe(bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes)-byte"
    }
}
