/// A step every exchange of an ``APIClient`` passes through, on its way out and back.
///
/// Middleware runs in the order the client lists it: the first sees the request first and
/// the response last. It may change the request, answer without sending, or inspect the
/// response; an error it throws fails the request as ``APIError/Kind/rejected(_:)``, unless
/// it is an ``APIError`` already.
///
/// ```swift
/// struct UserAgent: APIMiddleware {
///     func intercept(
///         _ request: TransportRequest,
///         next: (TransportRequest) async throws -> TransportResponse
///     ) async throws -> TransportResponse {
///         var request = request
///         request.head.headerFields[.userAgent] = "Reader/1.0"
///         return try await next(request)
///     }
/// }
/// ```
public protocol APIMiddleware: Sendable {
    /// Handles one exchange; `next` passes it on to the rest of the chain and the transport.
    func intercept(
        _ request: TransportRequest,
        next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse
}
