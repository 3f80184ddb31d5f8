import HTTPTypes
public import Logging

/// Logs each exchange through swift-log: method, URL without secrets, status and duration.
///
/// ```
/// GET https://newsapi.org/v2/top-headlines?country=us&apiKey=<redacted> → 200 in 84 ms
/// ```
///
/// Header values that ``Redaction`` names and secret query items never reach the log. List it
/// before ``Authentication`` so that it sees requests before credentials are added.
public struct RequestLogging: APIMiddleware {
    /// Where the lines go.
    public var logger: Logger
    /// The level of lines for exchanges that got a response.
    public var level: Logger.Level
    /// The level of lines for exchanges that failed without a response.
    public var failureLevel: Logger.Level
    /// What is hidden.
    public var redaction: Redaction

    /// Creates the middleware.
    public init(
        logger: Logger,
        level: Logger.Level = .info,
        failureLevel: Logger.Level = .warning,
        redaction: Redaction = .standard
    ) {
        self.logger = logger
        self.level = level
        self.failureLevel = failureLevel
        self.redaction = redaction
    }

    public func intercept(
        _ request: TransportRequest,
        next: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let exchange = redaction.describe(request.head)
        do {
            let response = try await next(request)
            let elapsed = Self.milliseconds(start.duration(to: clock.now))
            logger.log(
                level: level,
                "\(exchange) → \(response.head.status.code) in \(elapsed) ms",
                metadata: ["http.response.body.size": "\(response.body.count)"]
            )
            return response
        } catch {
            let elapsed = Self.milliseconds(start.duration(to: clock.now))
            logger.log(level: failureLevel, "\(exchange) → failed after \(elapsed) ms: \(error)")
            throw error
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration / .milliseconds(1))
    }
}
