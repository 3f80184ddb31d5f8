public import Foundation
import HTTPTypes
public import TributaryHTTP

/// The ability to fetch an image's original data.
public protocol DataLoading: Sendable {
    /// Fetches the data for `request`, reporting progress as it arrives; stops promptly when
    /// the calling task is cancelled.
    func loadData(
        for request: ImageRequest,
        progress: @escaping @Sendable (_ received: Int, _ expected: Int?) -> Void
    ) async throws -> Data
}

/// Fetches image data through TributaryHTTP's `APIClient`, so its transport, middleware
/// (authentication, logging), retries, timeouts and typed errors apply to images too.
public struct DataLoader: DataLoading {
    /// The client requests go through; the request's absolute URL is used as it is.
    public var client: APIClient
    /// The largest image accepted, in bytes: 50 MiB by default.
    public var maximumDataSize: Int

    /// A loader whose requests go through `client`.
    ///
    /// - Parameters:
    ///   - client: The client requests go through; the request's absolute URL is used as it is.
    ///   - maximumDataSize: The largest image accepted, in bytes.
    public init(client: APIClient, maximumDataSize: Int = 50 << 20) {
        self.client = client
        self.maximumDataSize = maximumDataSize
    }

    /// A loader over URLSession.
    public init(transport: any HTTPTransporting = URLSessionTransport(), maximumDataSize: Int = 50 << 20) {
        self.init(
            client: APIClient(baseURL: URL(string: "http://localhost")!, transport: transport),
            maximumDataSize: maximumDataSize
        )
    }

    public func loadData(
        for request: ImageRequest,
        progress: @escaping @Sendable (_ received: Int, _ expected: Int?) -> Void
    ) async throws -> Data {
        var http = Request<Data>(.url(request.url), headers: [.accept: "image/*"])
        http.maximumResponseBodySize = maximumDataSize
        http.progress = progress
        return try await client.send(http)
    }
}
