public import Foundation
public import HTTPTypes
public import Tributary

/// Sends ``Request`` values and returns their typed responses, as async calls or publishers.
///
/// ```swift
/// let client = APIClient(
///     baseURL: URL(string: "https://newsapi.org/v2")!,
///     transport: URLSessionTransport(),
///     middleware: [Authentication(.apiKey(key, header: "X-Api-Key"))],
///     serverErrors: .newsAPI
/// )
/// let page = try await client.send(Request<ArticlesPage>("top-headlines", query: query))
/// ```
///
/// Every failure is an ``APIError`` that names the request (secrets redacted) and keeps what
/// a person needs: the status with the server's own message, the coding path of a body that
/// did not decode, the underlying transport error. Failures worth retrying are retried
/// according to ``retryPolicy``.
public struct APIClient: Sendable {
    /// The URL that request paths are resolved against.
    public var baseURL: URL {
        didSet {
            base = BaseURL(baseURL)
            baseOrigin = HTTPOrigin(baseURL)
        }
    }
    /// `baseURL` taken apart once, so that requests are built without parsing URLs.
    private var base: BaseURL?
    /// The origin of `baseURL`, which credentials are scoped to.
    private var baseOrigin: HTTPOrigin?
    /// What carries the exchanges.
    public var transport: any HTTPTransporting
    /// The steps every exchange passes through, outermost first.
    public var middleware: [any APIMiddleware]
    /// When to try failed requests again.
    public var retryPolicy: RetryPolicy
    /// Reads the server's own error from unacceptable responses.
    public var serverErrors: ServerErrorDecoder
    /// What errors never show.
    public var redaction: Redaction
    /// How long one exchange may take, unless the request says otherwise.
    public var timeout: Duration
    /// The largest response body accepted, unless the request says otherwise.
    public var maximumResponseBodySize: Int
    /// Decodes `Decodable` responses; by default `Foundation.JSONDecoder.lenient()`.
    public var decoder: JSONDecoder
    /// Encodes JSON bodies; by default `Foundation.JSONEncoder.iso8601()`.
    public var encoder: JSONEncoder
    /// Measures the retry budget and waits between attempts; tests inject one that does not
    /// sleep.
    public var clock: RetryClock
    /// The wall-clock time, for `Retry-After` dates.
    public var now: @Sendable () -> Date
    /// Which addresses requests and their redirects may reach: every address by default; a
    /// server that fetches URLs its users typed sets ``AddressPolicy/publicOnly(allowing:)``.
    public var addressPolicy: AddressPolicy
    /// The lane each exchange is recorded in — one subscription a request, its outcome a value
    /// (method, URL without secrets, status, bytes, time, retries) or its failure — into
    /// ``laneRecorder``, or `Lanes.recorder` when that is nil, so a recording shows the
    /// request a search box caused beside the search box's lane. Nil records nothing; with
    /// nobody recording, an exchange costs one check.
    public var lane: String? = "http"
    /// Where exchanges are recorded; nil for `Lanes.recorder`.
    public var laneRecorder: (any LaneRecording)?

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The URL request paths are resolved against.
    ///   - transport: What carries the exchanges.
    ///   - middleware: Steps each exchange passes through, outermost first.
    ///   - retryPolicy: When to try failed requests again.
    ///   - serverErrors: Reads the server's own error from unacceptable responses.
    ///   - redaction: The secrets left out of errors and logs: query items and headers.
    ///   - timeout: How long one exchange may take.
    ///   - maximumResponseBodySize: The largest response body accepted, in bytes (10 MiB).
    ///   - decoder: Decodes response bodies.
    ///   - encoder: Encodes request bodies.
    ///   - clock: What retries wait on.
    ///   - now: The wall-clock time, for `Retry-After` dates.
    ///   - addressPolicy: Which addresses requests and their redirects may reach.
    public init(
        baseURL: URL,
        transport: any HTTPTransporting,
        middleware: [any APIMiddleware] = [],
        retryPolicy: RetryPolicy = .standard,
        serverErrors: ServerErrorDecoder = .standard,
        redaction: Redaction = .standard,
        timeout: Duration = .seconds(60),
        maximumResponseBodySize: Int = 10 << 20,
        decoder: JSONDecoder = .lenient(),
        encoder: JSONEncoder = .iso8601(),
        clock: RetryClock = .continuous,
        now: @escaping @Sendable () -> Date = { Date() },
        addressPolicy: AddressPolicy = .unrestricted
    ) {
        self.baseURL = baseURL
        base = BaseURL(baseURL)
        baseOrigin = HTTPOrigin(baseURL)
        self.addressPolicy = addressPolicy
        self.transport = transport
        self.middleware = middleware
        self.retryPolicy = retryPolicy
        self.serverErrors = serverErrors
        self.redaction = redaction
        self.timeout = timeout
        self.maximumResponseBodySize = maximumResponseBodySize
        self.decoder = decoder
        self.encoder = encoder
        self.clock = clock
        self.now = now
    }

    /// Sends `request` and returns its response.
    ///
    /// Cancelling the calling task cancels the exchange and ends with
    /// ``APIError/Kind/cancelled``.
    public func send<Response>(_ request: Request<Response>) async throws(APIError) -> Response {
        try await exchange(request).value
    }

    /// Sends `request` and returns its response with the HTTP response it came in.
    public func exchange<Response>(
        _ request: Request<Response>
    ) async throws(APIError) -> (value: Response, response: HTTPResponse) {
        let prepared = try prepare(request)
        guard let lane,
            let span = LaneSpan.begin(lane, recorder: laneRecorder, source: "TributaryHTTP/APIClient")
        else {
            return try await retrying(prepared) { () async throws(APIError) in
                try await attempt(request, prepared).exchange
            }
        }
        let started = ContinuousClock.now
        var attempts = 0
        var bytes = 0
        let described = prepared.redaction.describe(prepared.exchange.head)
        func took() -> String {
            let retries = attempts > 1 ? ", \(attempts - 1) \(attempts == 2 ? "retry" : "retries")" : ""
            return "\(Int((ContinuousClock.now - started) / .milliseconds(1))) ms\(retries)"
        }
        span.record(.requested(.max(1)))
        do {
            let exchanged = try await retrying(prepared) { () async throws(APIError) in
                attempts += 1
                let outcome = try await attempt(request, prepared)
                bytes = outcome.bytes
                return outcome.exchange
            }
            span.record(
                .value("\(described) → \(exchanged.response.status.code), \(bytes) bytes in \(took())")
            )
            span.record(.finished)
            return exchanged
        } catch {
            if case .cancelled = error.kind {
                span.record(.cancelled)
            } else {
                span.record(.failed("\(error) (\(took()))"))
            }
            throw error
        }
    }

    /// A publisher that sends `request` when subscribed to and publishes its response.
    ///
    /// Nothing is sent before a subscriber asks for a value; each subscription sends the
    /// request once; cancelling the subscription cancels the exchange.
    public func publisher<Response>(for request: Request<Response>) -> AnyPublisher<Response, APIError> {
        AsyncOperationPublisher { () async throws(APIError) -> Response in
            try await send(request)
        }
        .eraseToAnyPublisher()
    }
}

// MARK: - Sending

extension APIClient {
    /// The parts of a base URL that request paths are joined to.
    struct BaseURL: Sendable {
        var scheme: String
        var authority: String
        /// The percent-encoded path, without a trailing slash.
        var path: String

        init?(_ url: URL) {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
            self.init(components)
        }

        init?(_ components: URLComponents) {
            guard let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
                let host = components.percentEncodedHost, !host.isEmpty
            else { return nil }
            self.scheme = scheme
            authority = components.port.map { "\(host):\($0)" } ?? host
            path = components.percentEncodedPath
            while path.hasSuffix("/") {
                path.removeLast()
            }
        }
    }

    /// A request made ready to send: its exchange and how errors name it.
    struct Prepared: Sendable {
        var exchange: TransportRequest
        var redaction: Redaction
        var isIdempotent: Bool

        /// An error naming this request; the URL is redacted only now, off the success path.
        func error(_ kind: APIError.Kind) -> APIError {
            APIError(kind, method: exchange.head.method, url: redaction.redactedURL(of: exchange.head))
        }
    }

    /// Builds the exchange for `request` from strings: URLs are parsed only for absolute
    /// targets, never on the way of a path request.
    func prepare<Response>(_ request: Request<Response>) throws(APIError) -> Prepared {
        func invalid(_ reason: String, url: String) -> APIError {
            APIError(.invalidRequest(reason: reason), method: request.method, url: url)
        }
        let scheme: String
        let authority: String
        var path: String
        var query: String?
        switch request.target {
        case .path(let relative):
            guard !relative.contains("?"), !relative.contains("#") else {
                throw invalid(
                    "its path \"\(relative)\" holds a query or fragment; pass query items instead",
                    url: relative
                )
            }
            guard let base else {
                throw invalid("the client's base URL is not an http or https URL with a host", url: relative)
            }
            let encoded = relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative
            (scheme, authority) = (base.scheme, base.authority)
            path = base.path + (encoded.hasPrefix("/") || encoded.isEmpty ? encoded : "/" + encoded)
        case .url(let url):
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
                let target = BaseURL(components)
            else {
                throw invalid("its URL is not an http or https URL with a host", url: redaction.redact(url))
            }
            (scheme, authority) = (target.scheme, target.authority)
            path = components.percentEncodedPath
            query = components.percentEncodedQuery
        }
        if path.isEmpty {
            path = "/"
        }
        if !request.query.isEmpty {
            let items = request.query.map { item in
                Self.encodeQuery(item.name) + (item.value.map { "=" + Self.encodeQuery($0) } ?? "")
            }
            query = ([query].compactMap { $0 } + items).joined(separator: "&")
        }
        var head = HTTPRequest(
            method: request.method,
            scheme: scheme,
            authority: authority,
            path: query.map { "\(path)?\($0)" } ?? path
        )
        head.headerFields.append(contentsOf: request.headers)
        var body: Data?
        if let requestBody = request.body {
            do {
                body = try requestBody.encode(encoder)
            } catch {
                throw invalid("its body could not be encoded: \(error)", url: redaction.redactedURL(of: head))
            }
            if head.headerFields[.contentType] == nil {
                head.headerFields[.contentType] = requestBody.contentType
            }
        }
        return Prepared(
            exchange: TransportRequest(
                head: head,
                body: body,
                timeout: request.timeout ?? timeout,
                maximumResponseBodySize: request.maximumResponseBodySize ?? maximumResponseBodySize,
                progress: request.progress,
                addressPolicy: addressPolicy,
                baseOrigin: baseOrigin
            ),
            redaction: redaction,
            isIdempotent: request.isIdempotent
        )
    }

    /// Percent-encodes a query name or value, `+` and `&` included, so that servers read it
    /// back exactly.
    static func encodeQuery(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }

    private static let queryAllowed = CharacterSet.urlQueryAllowed.subtracting(
        CharacterSet(charactersIn: "&=+;#")
    )

    /// Runs `body` until it succeeds or the retry policy gives up.
    private func retrying<Value>(
        _ prepared: Prepared,
        _ body: () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let elapsed = clock.stopwatch()
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch {
                guard
                    let wait = retryPolicy.delay(
                        after: error,
                        attempt: attempt,
                        elapsed: elapsed(),
                        isIdempotent: prepared.isIdempotent,
                        now: now()
                    )
                else { throw error }
                do {
                    try await clock.sleep(for: wait)
                } catch {
                    throw prepared.error(.cancelled)
                }
                attempt += 1
            }
        }
    }

    /// One exchange through the middleware and the transport, then status and decoding.
    private func attempt<Response>(
        _ request: Request<Response>,
        _ prepared: Prepared
    ) async throws(APIError) -> (exchange: (value: Response, response: HTTPResponse), bytes: Int) {
        if Task.isCancelled {
            throw prepared.error(.cancelled)
        }
        let response: TransportResponse
        do {
            response = try await forward(prepared.exchange, through: 0)
        } catch {
            throw prepared.error(kind(of: error, timeout: prepared.exchange.timeout))
        }
        guard request.acceptableStatuses.contains(response.head.status.code) else {
            let serverError = serverErrors.serverError(in: response.head, body: response.body)
            throw prepared.error(
                .unacceptableStatus(
                    response.head,
                    body: response.body.prefix(64 << 10),
                    serverError: serverError
                )
            )
        }
        do {
            return (
                (try request.decode(response.head, response.body, decoder), response.head),
                response.body.count
            )
        } catch {
            throw prepared.error(undecodable(error, response))
        }
    }

    /// Passes `exchange` to middleware `index`, or to the transport after the last.
    private func forward(_ exchange: TransportRequest, through index: Int) async throws -> TransportResponse {
        guard index < middleware.count else {
            return try await transport.send(exchange)
        }
        return try await middleware[index].intercept(exchange) { exchange in
            try await forward(exchange, through: index + 1)
        }
    }

    private func kind(of error: any Error, timeout: Duration) -> APIError.Kind {
        if let error = error as? APIError {
            return error.kind
        }
        if Task.isCancelled || error is CancellationError {
            return .cancelled
        }
        guard let failure = error as? TransportFailure else {
            return .rejected(error)
        }
        switch failure {
        case .timedOut: return .timedOut(after: timeout)
        case .cancelled: return .cancelled
        case .responseBodyTooLarge(let limit): return .bodyTooLarge(limit: limit)
        case .connection(let underlying): return .transport(underlying)
        case .unsupportedRequest(let reason): return .invalidRequest(reason: reason)
        case .addressNotAllowed(let host, let reason): return .addressNotAllowed(host: host, reason: reason)
        case .tooManyRedirects: return .transport(failure)
        }
    }

    private func undecodable(_ error: any Error, _ response: TransportResponse) -> APIError.Kind {
        var snippet = APIError.snippet(of: response.body)
        if snippet.isEmpty {
            snippet = "(empty)"
        }
        if let contentType = response.head.headerFields[.contentType],
            !contentType.lowercased().contains("json")
        {
            snippet = "(\(contentType)) " + snippet
        }
        guard let decodingError = error as? DecodingError else {
            return .undecodable(codingPath: "", reason: "\(error)", snippet: snippet)
        }
        let (path, reason) = Self.explain(decodingError)
        return .undecodable(codingPath: path, reason: reason, snippet: snippet)
    }

    /// The coding path as `articles[3].publishedAt`, and the reason as a sentence.
    static func explain(_ error: DecodingError) -> (path: String, reason: String) {
        let context: DecodingError.Context
        let reason: String
        switch error {
        case .typeMismatch(let type, let errorContext):
            context = errorContext
            reason = "expected \(type). \(errorContext.debugDescription)"
        case .valueNotFound(let type, let errorContext):
            context = errorContext
            reason = "expected \(type) but found null. \(errorContext.debugDescription)"
        case .keyNotFound(let key, let errorContext):
            context = errorContext
            reason = "the key \"\(key.stringValue)\" is missing."
            return (path(context.codingPath + [key]), reason)
        case .dataCorrupted(let errorContext):
            context = errorContext
            let underlying = errorContext.underlyingError.map { " (\($0))" } ?? ""
            reason = errorContext.debugDescription + underlying
        @unknown default:
            return ("", "\(error)")
        }
        return (path(context.codingPath), reason.hasSuffix(".") ? reason : reason + ".")
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
