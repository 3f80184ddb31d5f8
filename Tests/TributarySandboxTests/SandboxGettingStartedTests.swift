import Foundation
import NewsAPI
import Testing
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributarySandbox
import TributaryTestSupport

/// The Swift code of `TributarySandbox`'s Getting Started article, as it is written there, and
/// what the article says of it: the same seed fails the same requests, on every run.
@Suite(.timeLimit(.minutes(2)))
struct SandboxGettingStartedTests {
    /// What the article's code printed, line by line.
    private let printed = Locked<[String]>([])

    private func print(_ items: Any...) {
        let line = items.map { "\($0)" }.joined(separator: " ")
        printed.withLock { $0.append(line) }
    }

    @Test func theArticlesCodeRuns() async throws {
        try await AsyncHTTPClientTransport.withTransport { transport in
            for _ in 1...2 {
                // In a test
                try await Sandbox.withRunning(.init(failureRate: 0.2, seed: 7)) { baseURL in
                    let news = NewsClient(apiKey: Sandbox.demoKey, baseURL: baseURL, transport: transport)
                    do {
                        _ = try await news.articles(.topHeadlines(country: "de"))
                    } catch {
                        print(error)  // seed 7 fails this first request, on every run
                    }
                }
            }
            #expect(printed.current.count == 2)
            #expect(printed.current.first?.contains("unexpectedError") == true)
            #expect(printed.current.first == printed.current.last)

            // Without failures, the same request is answered.
            try await Sandbox.withRunning(.init(seed: 7)) { baseURL in
                let news = NewsClient(apiKey: Sandbox.demoKey, baseURL: baseURL, transport: transport)
                let page = try await news.articles(.topHeadlines(country: "de"))
                #expect(!page.articles.isEmpty)
            }
        }
    }
}
