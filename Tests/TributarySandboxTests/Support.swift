import Foundation
import NewsAPI
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributarySandbox

/// One dataset for the suites: generating it is the slow part of starting a sandbox.
let sharedDataset = Dataset(seed: 1)

/// Runs a sandbox with `configuration` and gives `body` its base URL and an AsyncHTTPClient
/// transport.
func withSandbox<Result: Sendable>(
    _ configuration: Sandbox.Configuration = .init(),
    _ body: (URL, AsyncHTTPClientTransport) async throws -> Result
) async throws -> Result {
    let sandbox = Sandbox(
        configuration: configuration,
        dataset: configuration.seed == 1 ? sharedDataset : nil
    )
    return try await sandbox.withRunning { url in
        try await AsyncHTTPClientTransport.withTransport { transport in
            try await body(url, transport)
        }
    }
}

/// A client of the sandbox that does not retry, so that each request is one exchange.
func newsClient(
    _ url: URL,
    _ transport: AsyncHTTPClientTransport,
    key: String? = Sandbox.demoKey
)
    -> NewsClient
{
    NewsClient(apiKey: key, baseURL: url, transport: transport, retryPolicy: .never)
}

/// The error `body` throws, or nil.
func newsError(_ body: () async throws -> some Any) async -> NewsError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? NewsError
    }
}
