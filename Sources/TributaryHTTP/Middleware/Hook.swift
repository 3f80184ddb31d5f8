/// Runs code before each request is sent and after each response arrives.
///
/// ```swift
/// let hook = Hook(
///     beforeSend: { request in request.head.headerFields[.init("X-Request-ID")!] = UUID().uuidString },
///     afterReceive: { request, response in metrics.record(response.head.status) }
/// )
/// ```
public struct Hook: APIMiddleware {
    /// Runs before sending; may change the request, or throw to stop it.
    public var beforeSend: @Sendable (inout TransportRequest) async throws -> Void
    /// Runs after a response arrives, whatever its status; may throw to fail the request.
    public var afterReceive: @Sendable (TransportRequest, TransportResponse) async throws -> Void

    /// Creates the middleware.
    public init(
        beforeSend: @escaping @Sendable (inout TransportRequest) async throws -> Void = { _ in },
        afterReceive: @escaping @Sendable (TransportRequest, TransportResponse) async throws -> Void = {
            _,
            _ in
        }
    ) {
        self.beforeSend = beforeSend
        self.afterReceive = afterReceive
    }

    public func intercept(
        _ request: TransportRequest,
        next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        var request = request
        try await beforeSend(&request)
        let response = try await next(request)
        try await afterReceive(request, response)
        return response
    }
}
