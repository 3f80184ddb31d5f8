import Foundation
import HTTPTypes
import Testing
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryHTTPTesting

struct Page: Decodable, Equatable, Sendable {
    struct Article: Decodable, Equatable, Sendable {
        var title: String
        var publishedAt: Date?
    }

    var status: String
    var totalResults: Int
    var articles: [Article]
}

/// The transports every loopback test runs through.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh transport of this kind, shut down afterwards.
    func with<Result: Sendable>(_ body: (any HTTPTransporting) async throws -> Result) async throws -> Result
    {
        switch self {
        case .urlSession:
            return try await body(URLSessionTransport())
        case .asyncHTTPClient:
            return try await AsyncHTTPClientTransport.withTransport { try await body($0) }
        }
    }
}

/// A retry policy whose waits are predictable: 100 ms, doubling, no jitter.
let predictableRetries = RetryPolicy(
    maximumAttempts: 3,
    initialDelay: .milliseconds(100),
    multiplier: 2,
    maximumDelay: .seconds(5),
    budget: .seconds(30),
    jitter: { $0 }
)

/// A client of the test server. Its timeout is generous: under the thread sanitizer, with every
/// suite running on two cores, an exchange can wait seconds for a thread. Tests of timeouts set
/// their own.
func makeClient(
    _ baseURL: URL,
    _ transport: any HTTPTransporting,
    clock: ImmediateClock = ImmediateClock(),
    retryPolicy: RetryPolicy = predictableRetries,
    middleware: [any APIMiddleware] = [],
    timeout: Duration = .seconds(120),
    maximumResponseBodySize: Int = 10 << 20
) -> APIClient {
    APIClient(
        baseURL: baseURL,
        transport: transport,
        middleware: middleware,
        retryPolicy: retryPolicy,
        serverErrors: .newsAPI,
        timeout: timeout,
        maximumResponseBodySize: maximumResponseBodySize,
        clock: RetryClock(clock)
    )
}

/// The error `operation` throws; records an issue when it succeeds.
func apiError<Value>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws -> Value
) async -> APIError? {
    do {
        let value = try await operation()
        Issue.record("expected an error, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as APIError {
        return error
    } catch {
        Issue.record("expected an APIError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A unique query item so that per-test server counters do not mix.
func testID() -> URLQueryItem {
    URLQueryItem(name: "id", value: UUID().uuidString)
}

extension APIError.Kind {
    var name: String {
        switch self {
        case .invalidRequest: "invalidRequest"
        case .transport: "transport"
        case .timedOut: "timedOut"
        case .cancelled: "cancelled"
        case .unacceptableStatus: "unacceptableStatus"
        case .undecodable: "undecodable"
        case .bodyTooLarge: "bodyTooLarge"
        case .rejected: "rejected"
        case .addressNotAllowed: "addressNotAllowed"
        }
    }
}
