public import Foundation
public import HTTPTypes
import Tributary
public import TributaryHTTP

/// A transport that answers from the test and records every request it is sent.
///
/// ```swift
/// let transport = MockTransport(responses: [
///     .status(503),
///     .json(#"{"status":"ok","articles":[]}"#),
/// ])
/// let client = APIClient(baseURL: url, transport: transport, clock: RetryClock(ImmediateClock()))
/// _ = try await client.send(request)
/// #expect(transport.requests.count == 2)
/// ```
public final class MockTransport: HTTPTransporting {
    /// Answers one request.
    public typealias Responder =
        @Sendable (TransportRequest) async throws(TransportFailure) -> TransportResponse

    private struct State {
        var requests: [TransportRequest] = []
        var queued: [Result<TransportResponse, TransportFailure>]
    }

    private let state: Protected<State>
    private let responder: Responder?

    /// Answers every request with `responder`.
    public init(_ responder: @escaping Responder) {
        state = Protected(State(queued: []))
        self.responder = responder
    }

    /// Answers requests with `responses`, in order, one each; a request beyond the last fails
    /// with a connection error.
    public init(responses: [Result<TransportResponse, TransportFailure>]) {
        state = Protected(State(queued: responses))
        responder = nil
    }

    /// Every request sent so far, in order, as the transport received it (after middleware).
    public var requests: [TransportRequest] {
        state.withLock { $0.requests }
    }

    public func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
        let next: Result<TransportResponse, TransportFailure>? = state.withLock { state in
            state.requests.append(request)
            return state.queued.isEmpty ? nil : state.queued.removeFirst()
        }
        if let responder {
            return try await responder(request)
        }
        guard let next else {
            throw .connection(MockTransportError.noResponseLeft(request.head.path ?? ""))
        }
        return try next.get()
    }

    enum MockTransportError: Error, CustomStringConvertible {
        case noResponseLeft(String)
        var description: String {
            switch self {
            case .noResponseLeft(let path): "MockTransport has no response left for \(path)"
            }
        }
    }
}

/// Answers for a ``MockTransport`` to give, written short.
extension Result where Success == TransportResponse, Failure == TransportFailure {
    /// A response with `status`, `headers` and `body`.
    public static func status(
        _ status: Int,
        headers: HTTPFields = [:],
        body: Data = Data()
    ) -> Self {
        .success(
            TransportResponse(
                head: HTTPResponse(status: .init(code: status), headerFields: headers),
                body: body
            )
        )
    }

    /// A JSON response with `status`.
    public static func json(_ text: String, status: Int = 200, headers: HTTPFields = [:]) -> Self {
        var headers = headers
        headers[.contentType] = "application/json"
        return .status(status, headers: headers, body: Data(text.utf8))
    }
}
