public import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
import Tributary
public import TributaryHTTP

/// Carries exchanges over AsyncHTTPClient: the server-side and Linux default.
///
/// The transport either owns its `HTTPClient` or borrows one, and says which: an owned client
/// is shut down by ``shutdown()`` (or by ``withTransport(configuration:_:)`` when its body
/// returns), and at the latest when the transport is released; a borrowed client is left to
/// its owner.
///
/// ```swift
/// try await AsyncHTTPClientTransport.withTransport { transport in
///     let client = APIClient(baseURL: url, transport: transport)
///     return try await client.send(request)
/// }
/// ```
public final class AsyncHTTPClientTransport: HTTPTransporting {
    /// The client that carries the exchanges.
    public let client: HTTPClient
    /// Whether this transport shuts the client down.
    public let ownsClient: Bool

    /// A client configuration that leaves redirects to the transport and reports a failed
    /// connection at once: `APIClient`'s retry policy decides whether to try again, with its
    /// own backoff and budget, instead of the pool retrying until its connect timeout. Each
    /// exchange is bounded by its request's timeout, however slowly the server answers.
    ///
    /// The transport follows redirects itself, as `TransportRequest.followingRedirects(_:)`
    /// describes, so that credentials stay on their origin and every hop's address is checked:
    /// a configuration of your own should keep AsyncHTTPClient's redirects off too.
    ///
    /// An idle connection is let go after 10 seconds rather than AsyncHTTPClient's 60: a server
    /// that closes idle connections sooner than its client does makes a request sent on one as
    /// it closes fail with "the server closed the connection" — a POST, which is not retried,
    /// included. Servers commonly keep idle connections 15 seconds or more.
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.idleTimeout = .seconds(10)
        return configuration
    }

    /// Creates a transport with a client of its own, on the shared event loop group.
    public init(configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration) {
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        ownsClient = true
    }

    /// Creates a transport that borrows `client`; its owner shuts it down.
    public init(borrowing client: HTTPClient) {
        self.client = client
        ownsClient = false
    }

    deinit {
        // A client must be shut down before it is released; an owned one that was not shut
        // down explicitly is shut down here, without blocking.
        if ownsClient {
            client.shutdown { _ in }
        }
    }

    /// Shuts down the client if this transport owns it, and waits until it is done. Calling it
    /// again does nothing.
    public func shutdown() async throws {
        guard ownsClient else { return }
        do {
            try await client.shutdown()
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            return
        }
    }

    /// Runs `body` with a transport that owns its client, and shuts the client down when
    /// `body` returns or throws.
    public static func withTransport<Result>(
        configuration: HTTPClient.Configuration = defaultConfiguration,
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let result: Result
        do {
            result = try await body(transport)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        return result
    }

    public func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
        try await request.followingRedirects { hop, addresses, deadline throws(TransportFailure) in
            try await send(hop, addresses: addresses, deadline: deadline)
        }
    }

    /// Sends one hop. For plain `http` to a host whose addresses the request's policy checked,
    /// the connection goes to the first of those addresses, with the name in `Host`, so that a
    /// second lookup cannot answer differently; `https` keeps the name, which its certificate
    /// must match.
    private func send(
        _ request: TransportRequest,
        addresses: [IPAddress],
        deadline: ContinuousClock.Instant
    ) async throws(TransportFailure) -> TransportResponse {
        guard let scheme = request.head.scheme, let authority = request.head.authority else {
            throw .unsupportedRequest("the request has no scheme and authority")
        }
        var connectTo = authority
        if scheme == "http", let address = addresses.first, let origin = HTTPOrigin(request.head) {
            connectTo = "\(address.urlHost):\(origin.port)"
        }
        // Built as text: AsyncHTTPClient parses it once, and nothing else needs to.
        let url = "\(scheme)://\(connectTo)\(request.head.path ?? "/")"
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.head.method.rawValue)
        if connectTo != authority {
            outgoing.headers.add(name: "Host", value: authority)
        }
        for field in request.head.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let limit = request.maximumResponseBodySize
        let remaining = deadline - .now
        guard remaining > .zero else { throw .timedOut }
        let deadline = NIODeadline.now() + Self.timeAmount(remaining)
        do {
            // The deadline bounds the whole exchange: the client holds the wait for the response
            // head to it, and a timer the reading of the body, however slowly it arrives.
            let response = try await execute(outgoing, method: request.head.method, deadline: deadline)
            let announced = response.headers.first(name: "content-length").flatMap(Int.init)
            if let announced, announced > limit {
                throw TransportFailure.responseBodyTooLarge(limit: limit)
            }
            let body = try await Self.collect(
                response.body,
                limit: limit,
                announced: announced,
                progress: request.progress,
                deadline: deadline,
                timerLoop: client.eventLoopGroup.any()
            )
            return TransportResponse(head: Self.head(of: response), body: body)
        } catch let failure as TransportFailure {
            throw failure
        } catch {
            throw Self.failure(for: error)
        }
    }

    /// Reads a response body up to `limit` bytes, or fails with `timedOut` at `deadline`,
    /// cancelling the read (and with it the request).
    ///
    /// The caller is answered at the deadline even when the client is slow to notice the
    /// cancellation: the read runs in a task of its own, and whichever of it and the timer
    /// finishes first resumes the caller. The timer is a task scheduled on `timerLoop`, which
    /// costs far less than a sleeping task.
    private static func collect(
        _ parts: HTTPClientResponse.Body,
        limit: Int,
        announced: Int?,
        progress: (@Sendable (Int, Int?) -> Void)?,
        deadline: NIODeadline,
        timerLoop: any EventLoop
    ) async throws -> Data {
        let outcome = Outcome()
        let finish: @Sendable (Result<Data, any Error>) -> Void = { outcome.finish($0) }
        let reader = Task {
            do {
                var body = ByteBuffer()
                for try await var part in parts {
                    guard body.readableBytes + part.readableBytes <= limit else {
                        throw TransportFailure.responseBodyTooLarge(limit: limit)
                    }
                    body.writeBuffer(&part)
                    progress?(body.readableBytes, announced)
                }
                finish(.success(Data(body.readableBytesView)))
            } catch {
                finish(.failure(error))
            }
        }
        let timer = timerLoop.scheduleTask(deadline: deadline) {
            finish(.failure(TransportFailure.timedOut))
            reader.cancel()
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { outcome.wait($0) }
        } onCancel: {
            finish(.failure(CancellationError()))
            reader.cancel()
        }
    }

    /// Executes `outgoing`, sending it again when the connection it went out on is closed
    /// or reset before any answer and `method` is idempotent: a kept-alive connection the server closed,
    /// idle, as the request went out. RFC 9112 (section 9.3.1) lets a client send such a request
    /// again, which AsyncHTTPClient does not; browsers do. The pool may not have seen the close
    /// yet and hand the same connection back, so the request is sent at most three times.
    private func execute(
        _ outgoing: HTTPClientRequest,
        method: HTTPRequest.Method,
        deadline: NIODeadline
    ) async throws -> HTTPClientResponse {
        var attempts = 1
        while true {
            do {
                return try await client.execute(outgoing, deadline: deadline)
            } catch  where attempts < 3 && Self.isIdempotent(method) && Self.closedConnection(error) {
                attempts += 1
            }
        }
    }

    /// Whether `error` says the connection closed under the request: closed in order or reset.
    private static func closedConnection(_ error: any Error) -> Bool {
        guard case .connection(let failure) = Self.failure(for: error) else { return false }
        return (failure as? ConnectionFailure)?.reason == .closed
    }

    /// Whether sending `method` twice does what sending it once does (RFC 9110, section 9.2.2).
    static func isIdempotent(_ method: HTTPRequest.Method) -> Bool {
        [.get, .head, .options, .trace, .put, .delete].contains(method)
    }

    private static func head(of response: HTTPClientResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let name = HTTPField.Name(name) {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        let status = HTTPResponse.Status(
            code: Int(response.status.code),
            reasonPhrase: response.status.reasonPhrase
        )
        return HTTPResponse(status: status, headerFields: fields)
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    private static func failure(for error: any Error) -> TransportFailure {
        if error is CancellationError {
            return .cancelled
        }
        if let error = error as? HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error) {
                return .timedOut
            }
            if error == .cancelled {
                return .cancelled
            }
            if [.remoteConnectionClosed, .readTimeout].contains(error) {
                return .connection(ConnectionFailure(.closed, underlying: error))
            }
        }
        return .connection(ConnectionFailure(reason(for: error), underlying: error))
    }

    /// What NIO's errors mean for a person: the system's error number says most.
    private static func reason(for error: any Error) -> ConnectionFailure.Reason {
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.isEmpty { return .hostNotFound }
            return error.connectionErrors.lazy.map { reason(for: $0.error) }.first { $0 != .other } ?? .other
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return .refused
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN: return .unreachable
            case ECONNRESET, EPIPE, ECONNABORTED: return .closed
            default: return .other
            }
        }
        if error is SocketAddressError.UnknownHost { return .hostNotFound }
        let name = String(reflecting: type(of: error))
        if name.contains("NIOSSL") || name.contains("BoringSSL") { return .secureConnectionFailed }
        return .other
    }
}

/// The first result of a race, handed to whoever waits for it, whether the result or the waiter
/// comes first.
private final class Outcome: Sendable {
    private enum State {
        case open
        case waiting(CheckedContinuation<Data, any Error>)
        case decided(Result<Data, any Error>)
        case delivered
    }

    private let state = Protected(State.open)

    func finish(_ result: Result<Data, any Error>) {
        let waiter: CheckedContinuation<Data, any Error>? = state.withLock { state in
            switch state {
            case .open:
                state = .decided(result)
                return nil
            case .waiting(let continuation):
                state = .delivered
                return continuation
            case .decided, .delivered:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    func wait(_ continuation: CheckedContinuation<Data, any Error>) {
        let decided: Result<Data, any Error>? = state.withLock { state in
            guard case .decided(let result) = state else {
                state = .waiting(continuation)
                return nil
            }
            state = .delivered
            return result
        }
        if let decided { continuation.resume(with: decided) }
    }
}
