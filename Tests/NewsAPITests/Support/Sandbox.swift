import Foundation
import NewsAPI
import NewsSandbox
import TributaryAsyncHTTPClient
import TributaryHTTP

/// One dataset for every suite here: generating it is the slow part of starting a sandbox.
let dataset = Dataset(seed: 1)

/// Runs a sandbox on loopback and gives `body` a client of it that does not retry.
func withNewsClient<Result: Sendable>(
    _ configuration: NewsSandbox.Configuration = .init(),
    key: String? = NewsSandbox.demoKey,
    middleware: [any APIMiddleware] = [],
    _ body: (NewsClient) async throws -> Result
) async throws -> Result {
    try await NewsSandbox(configuration: configuration, dataset: dataset).withRunning { url in
        try await AsyncHTTPClientTransport.withTransport { transport in
            try await body(
                NewsClient(
                    apiKey: key,
                    baseURL: url,
                    transport: transport,
                    middleware: middleware,
                    retryPolicy: .never
                )
            )
        }
    }
}

/// What `body` throws, as a `NewsError`.
func caught(_ body: () async throws -> some Any) async -> NewsError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? NewsError
    }
}
