import ArgumentParser
import Foundation
import NewsSandbox
import UnixSignals

/// `tributary sandbox`: a local server that speaks the NewsAPI protocol.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Serve generated news over the NewsAPI protocol on this machine.",
        discussion: """
            The sandbox answers /v2/top-headlines, /v2/everything and /v2/top-headlines/sources \
            as NewsAPI.org does, errors included, from a dataset generated from --seed. Point a \
            client at the printed URL with the printed key. Ctrl-C stops it.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(
        name: .customLong("api-key"),
        help: "A key to accept; repeat for several (default: the demo key)."
    )
    var apiKeys: [String] = []

    @Option(help: "Requests each key may make in 24 hours.")
    var dailyQuota: Int?

    @Flag(help: "Act as the developer plan: 100 requests a day, only the first 100 results.")
    var developerPlan = false

    @Option(help: "Milliseconds added to every response.")
    var latency = 0

    @Option(help: "The share of requests, 0 to 1, that fail with unexpectedError.")
    var failureRate = 0.0

    @Option(help: "Fixes the dataset and which requests fail.")
    var seed: UInt64 = 1

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard (0...1).contains(failureRate) else {
            throw ValidationError("--failure-rate must be from 0 to 1.")
        }
        guard latency >= 0 else { throw ValidationError("--latency cannot be negative.") }
        if let dailyQuota, dailyQuota < 1 { throw ValidationError("--daily-quota must be at least 1.") }
    }

    var sandboxConfiguration: NewsSandbox.Configuration {
        NewsSandbox.Configuration(
            host: host,
            port: port,
            apiKeys: apiKeys.isEmpty ? [NewsSandbox.demoKey] : apiKeys,
            dailyQuota: dailyQuota,
            developerPlan: developerPlan,
            latency: .milliseconds(latency),
            failureRate: failureRate,
            seed: seed
        )
    }

    func run() async throws {
        do {
            try await serve(console: .standard)
        } catch let error as NewsSandbox.ListenError {
            Console.standard.note("error: \(error)")
            throw ExitCode.failure
        }
    }

    private func serve(console: Console) async throws {
        let configuration = sandboxConfiguration
        let sandbox = NewsSandbox(configuration: configuration)
        try await sandbox.run(shutdownSignals: [.sigint, .sigterm]) { url in
            let keys = configuration.apiKeys.joined(separator: ", ")
            console.print(
                """
                NewsSandbox serving \(sandbox.dataset.articles.count) articles from \
                \(sandbox.dataset.sources.count) sources at \(url)
                API key: \(keys)
                Try: NEWSAPI_BASE_URL=\(url) NEWSAPI_KEY=\(configuration.apiKeys[0]) tributary news headlines
                """
            )
        }
    }
}
