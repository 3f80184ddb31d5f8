import Foundation
import NewsAPI
import Tributary

/// A local server that speaks the NewsAPI.org v2 protocol over a generated ``Dataset``, so that
/// news readers, tests and benchmarks run with no network and no key.
///
/// ```swift
/// try await Sandbox.withRunning { baseURL in
///     let news = NewsClient(apiKey: Sandbox.demoKey, baseURL: baseURL, transport: transport)
///     let page = try await news.articles(.topHeadlines(country: "us"))
/// }
/// ```
///
/// It answers `/v2/top-headlines`, `/v2/everything` and `/v2/top-headlines/sources` (and the
/// older `/v2/sources`) with every parameter NEWSAPI.md lists, and fails exactly as NewsAPI
/// does: missing or invalid keys, bad parameters, too many sources, unknown sources, results
/// past the developer plan's first 100, and a spent quota. Latency and random failures can be
/// added for tests and benchmarks. Under `/hn/v0/` it speaks the Hacker News API over an
/// ``HNDataset``, and under `/tmdb/3/` TMDb's v3 API over a ``TMDbDataset``, both from the same
/// seed.
public final class Sandbox: Sendable {
    /// The key a sandbox accepts unless told otherwise.
    public static let demoKey = "tributary-sandbox-demo"

    /// How the sandbox behaves.
    public let configuration: Configuration
    /// The news it serves.
    public let dataset: Dataset

    private struct State {
        var random: SeededGenerator
        /// For each key, when its 24-hour window began and how many requests it has made in it.
        var usage: [String: (start: Date, count: Int)] = [:]
    }

    private let state: Protected<State>
    /// Images generated so far.
    let imageFiles = SandboxImageFiles()
    private let hackerNewsData = Protected<HNDataset?>(nil)
    private let moviesData = Protected<TMDbDataset?>(nil)
    /// Each key's TMDb requests in the current ten-second window.
    let tmdbUsage = Protected<[String: (start: Date, count: Int)]>([:])

    /// The movies served at `/tmdb/3/`, generated from the same seed the first time they are
    /// asked for.
    public var movies: TMDbDataset {
        Self.made(moviesData) { TMDbDataset(seed: configuration.seed, day: configuration.now()) }
    }

    /// The Hacker News served at `/hn/v0/`, generated from the same seed the first time it is
    /// asked for.
    public var hackerNews: HNDataset {
        Self.made(hackerNewsData) { HNDataset(seed: configuration.seed, day: configuration.now()) }
    }

    /// What `box` holds, made by `make` the first time it is asked for.
    private static func made<Value>(_ box: Protected<Value?>, by make: () -> Value) -> Value {
        box.withLock { value in
            if let value { return value }
            let made = make()
            value = made
            return made
        }
    }

    /// Creates a sandbox; ``run(shutdownSignals:logger:onReady:)`` or ``withRunning(_:_:)`` serves it.
    public init(configuration: Configuration = Configuration(), dataset: Dataset? = nil) {
        self.configuration = configuration
        self.dataset = dataset ?? Dataset(seed: configuration.seed, day: configuration.now())
        state = Protected(State(random: SeededGenerator(seed: configuration.seed ^ 0x5EED)))
    }

    // MARK: Admission

    /// A request the sandbox refuses, with NewsAPI's status, code and message.
    struct Refusal: Error {
        var status: Int
        var code: String
        var message: String
        var retryAfter: Int?

        var response: SandboxResponse {
            var response = SandboxResponse.error(status, code, message)
            if let retryAfter { response.headers.append(("Retry-After", String(retryAfter))) }
            return response
        }
    }

    /// The key a request carries, from any of the three places NewsAPI reads it.
    static func key(of request: SandboxRequest) -> String? {
        if let key = request.headers["x-api-key"], !key.isEmpty { return key }
        if let key = request.query["apiKey"], !key.isEmpty { return key }
        if var key = request.headers["authorization"] {
            if key.lowercased().hasPrefix("bearer ") { key.removeFirst(7) }
            key = key.trimmingCharacters(in: .whitespaces)
            return key.isEmpty ? nil : key
        }
        return nil
    }

    /// Refuses a request without a key, or with one the sandbox does not accept.
    func authenticate(_ request: SandboxRequest) throws(Refusal) {
        guard let key = Self.key(of: request) else {
            throw Refusal(
                status: 401,
                code: "apiKeyMissing",
                message:
                    "Your API key is missing. Append this to the URL with the apiKey param, or use the x-api-key HTTP header."
            )
        }
        guard configuration.apiKeys.contains(key) else {
            throw Refusal(
                status: 401,
                code: "apiKeyInvalid",
                message:
                    "Your API key is invalid or incorrect. Check your key, or start the sandbox with --api-key."
            )
        }
    }

    /// Counts a request against its key's quota, refusing it when the quota is spent, and
    /// fails it when the configured failure rate says so.
    func charge(_ request: SandboxRequest) throws(Refusal) {
        guard let key = Self.key(of: request) else { return }
        let quota = configuration.effectiveQuota
        let now = configuration.now()
        let outcome: Refusal? = state.withLock { state in
            if let quota {
                var usage = state.usage[key] ?? (now, 0)
                if now.timeIntervalSince(usage.start) >= 86_400 { usage = (now, 0) }
                guard usage.count < quota else {
                    let wait = Int(
                        (usage.start.addingTimeInterval(86_400).timeIntervalSince(now)).rounded(.up)
                    )
                    return Refusal(
                        status: 429,
                        code: "rateLimited",
                        message:
                            "You have made too many requests recently. This key is limited to \(quota) requests over a 24 hour period.",
                        retryAfter: max(wait, 1)
                    )
                }
                usage.count += 1
                state.usage[key] = usage
            }
            if configuration.failureRate > 0, state.random.chance(configuration.failureRate) {
                return Refusal(
                    status: 500,
                    code: "unexpectedError",
                    message:
                        "This shouldn't happen, and if it does then it's our fault, not yours. Try the request again shortly."
                )
            }
            return nil
        }
        if let outcome { throw outcome }
    }
}
