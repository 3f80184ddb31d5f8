import ArgumentParser
import Foundation
import TributaryHTTP
import TributarySandbox
import UnixSignals

/// `tributary sandbox`: a local server that speaks the NewsAPI protocol.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Serve generated news on this machine: NewsAPI, Hacker News, TMDb, feeds and pictures.",
        discussion: """
            The sandbox answers /v2/top-headlines, /v2/everything and /v2/top-headlines/sources \
            as NewsAPI.org does, errors included, from a dataset generated from --seed, and \
            speaks the Hacker News API under /hn/v0 and TMDb's under /tmdb/3. Point a client at \
            the printed URL with the printed key. Ctrl-C stops it.
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

    @Option(
        help: ArgumentHelp(
            "The time the sandbox starts its clock at, such as 2026-01-15T12:00:00Z (default: now).",
            discussion: "The news is dated over the 30 days before the start of that day."
        ),
        transform: { text in
            guard let date = ISO8601Date.parse(text) else {
                throw ValidationError("--now must be a date and time such as 2026-01-15T12:00:00Z.")
            }
            return date
        }
    )
    var now: Date?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard (0...1).contains(failureRate) else {
            throw ValidationError("--failure-rate must be from 0 to 1.")
        }
        guard latency >= 0 else { throw ValidationError("--latency cannot be negative.") }
        if let dailyQuota, dailyQuota < 1 { throw ValidationError("--daily-quota must be at least 1.") }
    }

    var sandboxConfiguration: Sandbox.Configuration {
        Sandbox.Configuration(
            host: host,
            port: port,
            apiKeys: apiKeys.isEmpty ? [Sandbox.demoKey] : apiKeys,
            dailyQuota: dailyQuota,
            developerPlan: developerPlan,
            latency: .milliseconds(latency),
            failureRate: failureRate,
            seed: seed,
            now: clock
        )
    }

    /// The sandbox's clock: the wall clock, or one that reads `--now` at start and runs on
    /// from there.
    private var clock: @Sendable () -> Date {
        guard let start = now else { return { Date() } }
        let launched = Date()
        return { start.addingTimeInterval(Date().timeIntervalSince(launched)) }
    }

    func run() async throws {
        do {
            try await serve(console: .standard)
        } catch let error as Sandbox.ListenError {
            Console.standard.note("error: \(error)")
            throw ExitCode.failure
        }
    }

    private func serve(console: Console) async throws {
        let configuration = sandboxConfiguration
        let sandbox = Sandbox(configuration: configuration)
        try await sandbox.run(shutdownSignals: [.sigint, .sigterm]) { url in
            let keys = configuration.apiKeys.joined(separator: ", ")
            console.print(
                """
                The sandbox is serving \(counted(sandbox.dataset.articles.count, "article")) from \
                \(counted(sandbox.dataset.sources.count, "source")) at \(url)
                API key: \(keys)
                Try: NEWSAPI_BASE_URL=\(url) NEWSAPI_KEY=\(configuration.apiKeys[0]) tributary news headlines
                Hacker News at \(url.deletingLastPathComponent().appending(path: "hn/v0")), \
                TMDb at \(url.deletingLastPathComponent().appending(path: "tmdb/3")) (same keys)
                Feeds at \(url.deletingLastPathComponent().appending(path: "feeds/technology.rss")) (and .atom), \
                no key needed
                """
            )
        }
    }
}
