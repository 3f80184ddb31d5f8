import Foundation
import HTTPTypes
import Testing
import TributaryHTTP

@Suite struct RetryPolicyTests {
    private func error(status: Int, headers: HTTPFields = [:]) -> APIError {
        APIError(
            .unacceptableStatus(
                HTTPResponse(status: .init(code: status), headerFields: headers),
                body: Data(),
                serverError: nil
            ),
            method: .get,
            url: "https://example.com/x"
        )
    }

    @Test func backsOffExponentiallyUpToTheMaximum() {
        let policy = RetryPolicy(initialDelay: .milliseconds(250), multiplier: 2, maximumDelay: .seconds(1))
        #expect(
            (1...5).map(policy.backoff(forRetry:)) == [
                .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(1), .seconds(1),
            ]
        )
    }

    @Test func fullJitterStaysWithinTheComputedWait() {
        for _ in 0..<1_000 {
            let wait = RetryPolicy.fullJitter(.milliseconds(400))
            #expect(wait >= .zero && wait <= .milliseconds(400))
        }
        #expect(RetryPolicy.fullJitter(.zero) == .zero)
    }

    @Test func decidesFromAttemptsIdempotenceAndRetryability() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(100), jitter: { $0 })
        let now = Date()
        let unavailable = error(status: 503)
        #expect(
            policy.delay(after: unavailable, attempt: 1, elapsed: .zero, isIdempotent: true, now: now)
                == .milliseconds(100)
        )
        #expect(
            policy.delay(after: unavailable, attempt: 2, elapsed: .zero, isIdempotent: true, now: now)
                == .milliseconds(200)
        )
        #expect(
            policy.delay(after: unavailable, attempt: 3, elapsed: .zero, isIdempotent: true, now: now) == nil
        )
        #expect(
            policy.delay(after: unavailable, attempt: 1, elapsed: .zero, isIdempotent: false, now: now) == nil
        )
        #expect(
            policy.delay(after: error(status: 404), attempt: 1, elapsed: .zero, isIdempotent: true, now: now)
                == nil
        )
        #expect(
            RetryPolicy.never.delay(
                after: unavailable,
                attempt: 1,
                elapsed: .zero,
                isIdempotent: true,
                now: now
            ) == nil
        )
    }

    /// A 429 says the client is over its limit; without `Retry-After` it does not say when
    /// asking again will help, so it is not retried, while one with a wait waits that long.
    @Test func retriesA429OnlyWhenTheServerSaysWhen() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(100), jitter: { $0 })
        let now = Date()
        #expect(
            policy.delay(after: error(status: 429), attempt: 1, elapsed: .zero, isIdempotent: true, now: now)
                == nil
        )
        #expect(
            policy.delay(
                after: error(status: 429, headers: [.retryAfter: "2"]),
                attempt: 1,
                elapsed: .zero,
                isIdempotent: true,
                now: now
            ) == .seconds(2)
        )
    }

    @Test(arguments: [
        ("7", Duration.seconds(7)),
        ("0", .zero),
        ("Sun, 06 Nov 1994 08:49:47 GMT", .seconds(10)),
        ("Sunday, 06-Nov-94 08:49:47 GMT", .seconds(10)),
        ("Sun Nov  6 08:49:47 1994", .seconds(10)),
        ("Sun, 06 Nov 1994 08:40:00 GMT", .zero),
    ])
    func readsRetryAfter(value: String, expected: Duration) {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(error(status: 429, headers: [.retryAfter: value]).retryAfter(now: now) == expected)
    }

    @Test(arguments: [
        "-1", "soon", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT", "",
        // Years no calendar arithmetic can hold, from a hostile server.
        "Sun, 06 Nov 9223372036854775807 08:49:37 GMT", "Sunday, 06-Nov-9223372036854775807 08:49:37 GMT",
        "Sun Nov  6 08:49:47 -9223372036854775807", "Sun, 06 Nov 30000000000 08:49:37 GMT",
    ])
    func ignoresAnInvalidRetryAfter(value: String) {
        #expect(error(status: 429, headers: [.retryAfter: value]).retryAfter() == nil)
    }
}

@Suite struct ISO8601DateTests {
    static let base = 1_706_277_600.0  // 2024-01-26T14:00:00Z

    @Test(arguments: [
        ("2024-01-26T14:00:00Z", base),
        ("2024-01-26T14:00:00+00:00", base),
        ("2024-01-26T15:00:00+01:00", base),
        ("2024-01-26T09:30:00-0430", base),
        ("2024-01-26T14:00:00.250Z", base + 0.25),
        ("2024-01-26T14:00:00.123456789+00:00", base + 0.123456789),
        ("2024-01-26 14:00:00Z", base),
        ("2024-01-26T14:00Z", base),
        ("2024-01-26T16:00:00+02", base),
        ("2024-01-26", base - 14 * 3_600),
        ("1970-01-01T00:00:00Z", 0),
        ("1960-03-01T00:00:00Z", -310_435_200),
    ])
    func readsTheShapesRealAPIsSend(text: String, seconds: Double) throws {
        let date = try #require(ISO8601Date.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(arguments: [
        "", "2024", "2024-13-01T00:00:00Z", "2024-01-26T14:00:00", "2024-01-26T14:00:00+", "26/01/2024",
        "2024-01-26T14:00:00Zjunk", "2024-01-26T14:00:00.Z", "yesterday",
    ])
    func refusesWhatIsNotADate(text: String) {
        #expect(ISO8601Date.parse(text) == nil)
    }
}
