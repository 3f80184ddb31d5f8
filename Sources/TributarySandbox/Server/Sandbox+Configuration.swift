public import Foundation

extension Sandbox {
    /// How a sandbox behaves: who may call it, how much, and how badly it fails.
    public struct Configuration: Sendable {
        /// The address to listen on.
        public var host: String
        /// The port to listen on; 0 lets the system choose a free one.
        public var port: Int
        /// Where clients reach the sandbox, such as a proxy's URL, for the image and feed URLs
        /// it hands out; nil uses the address it listens on. Never taken from a request's
        /// `Host`, which a client can set to anything.
        public var publicURL: URL?
        /// The keys accepted, in the `X-Api-Key` header, the `apiKey` query item or
        /// `Authorization`.
        public var apiKeys: [String]
        /// Requests one key may make in 24 hours; nil for no limit.
        public var dailyQuota: Int?
        /// TMDb requests one key may make in ten seconds before `429`, with `Retry-After`; nil
        /// for no limit.
        public var tmdbRateLimit: Int?
        /// Whether to act as NewsAPI's developer plan: results past the first 100 are refused
        /// with `maximumResultsReached`, and the quota defaults to 100 requests a day.
        public var developerPlan: Bool
        /// Added to the time of every response.
        public var latency: Duration
        /// The share of requests, from 0 to 1, that fail with `unexpectedError`.
        public var failureRate: Double
        /// Fixes the dataset and which requests fail.
        public var seed: UInt64
        /// The time now: the day the dataset is dated up to, and the quota's 24-hour window.
        public var now: @Sendable () -> Date

        /// Creates a configuration; the defaults make a sandbox on a free loopback port that
        /// accepts ``Sandbox/demoKey``, with no quota, latency or failures.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            publicURL: URL? = nil,
            apiKeys: [String] = [Sandbox.demoKey],
            dailyQuota: Int? = nil,
            tmdbRateLimit: Int? = nil,
            developerPlan: Bool = false,
            latency: Duration = .zero,
            failureRate: Double = 0,
            seed: UInt64 = 1,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.host = host
            self.port = port
            self.publicURL = publicURL
            self.apiKeys = apiKeys
            self.dailyQuota = dailyQuota
            self.tmdbRateLimit = tmdbRateLimit
            self.developerPlan = developerPlan
            self.latency = latency
            self.failureRate = failureRate
            self.seed = seed
            self.now = now
        }

        /// The quota in force: the one given, or 100 a day on the developer plan.
        var effectiveQuota: Int? { dailyQuota ?? (developerPlan ? 100 : nil) }
    }
}
