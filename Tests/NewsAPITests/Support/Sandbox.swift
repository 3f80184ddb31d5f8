import Foundation
import NewsAPI
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributarySandbox

/// One dataset for every suite here: generating it is the slow part of starting a sandbox.
let dataset = Dataset(seed: 1)

/// Runs a sandbox on loopback and gives `body` a client of it that does not retry.
func withNewsClient<Result: Sendable>(
    _ configuration: Sandbox.Configuration = .init(),
    key: String? = Sandbox.demoKey,
    middleware: [any APIMiddleware] = [],
    _ body: (NewsClient) async throws -> Result
) async throws -> Result {
    try await Sandbox(configuration: configuration, dataset: dataset).withRunning { url in
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

/// A sandbox and a client of it that stay up until shut down, for tests whose work must stay
/// on the main actor.
final class RunningSandbox: Sendable {
    let client: NewsClient
    private let transport: AsyncHTTPClientTransport
    private let stop: AsyncStream<Void>.Continuation
    private let server: Task<Void, any Error>

    private init(
        client: NewsClient,
        transport: AsyncHTTPClientTransport,
        stop: AsyncStream<Void>.Continuation,
        server: Task<Void, any Error>
    ) {
        self.client = client
        self.transport = transport
        self.stop = stop
        self.server = server
    }

    static func start(
        _ configuration: Sandbox.Configuration = .init(),
        key: String = Sandbox.demoKey
    )
        async throws -> RunningSandbox
    {
        let (urls, ready) = AsyncStream<URL>.makeStream()
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let server = Task {
            try await Sandbox(configuration: configuration, dataset: dataset).withRunning { url in
                ready.yield(url)
                for await _ in stopped {}
            }
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else { throw CancellationError() }
        let transport = AsyncHTTPClientTransport()
        let client = NewsClient(apiKey: key, baseURL: url, transport: transport, retryPolicy: .never)
        return RunningSandbox(client: client, transport: transport, stop: stop, server: server)
    }

    func shutdown() async throws {
        try await transport.shutdown()
        stop.finish()
        try await server.value
    }
}

/// Runs `body` on the main actor with a client of a sandbox on loopback.
@MainActor
func onSandbox(
    _ configuration: Sandbox.Configuration = .init(),
    key: String = Sandbox.demoKey,
    _ body: @MainActor (NewsClient) async throws -> Void
) async throws {
    let sandbox = try await RunningSandbox.start(configuration, key: key)
    do {
        try await body(sandbox.client)
    } catch {
        try? await sandbox.shutdown()
        throw error
    }
    try await sandbox.shutdown()
}
