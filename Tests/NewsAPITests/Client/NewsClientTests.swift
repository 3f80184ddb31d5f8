import Foundation
import HTTPTypes
import Hummingbird
import InMemoryLogging
import Logging
import NewsAPI
import Testing
import Tributary
import TributaryAsyncHTTPClient
import TributaryFeeds
import TributaryHTTP
import TributaryHTTPTesting
import TributarySandbox
import TributaryTestSupport

@Suite(.timeLimit(.minutes(5)))
struct NewsClientTests {
    @Test func sendsTheKeyInTheHeaderAndNeverShowsIt() async throws {
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "news") { _ in handler }
        let key = "secret-key-4711"
        try await withNewsClient(
            .init(apiKeys: [key]),
            key: key,
            middleware: [RequestLogging(logger: logger)]
        ) { news in
            let page = try await news.articles(.topHeadlines(country: "us"))
            #expect(page.totalResults > 0)
            let error = try #require(
                await caught { try await news.articles(.topHeadlines(sources: ["nope"])) }
            )
            #expect(error.code == .sourceDoesNotExist)
            for text in [error.description, error.alertMessage] + handler.entries.map({ "\($0.message)" }) {
                #expect(!text.contains(key), "\(text)")
            }
            #expect(handler.entries.count == 2)
        }
    }

    /// A feed lives on another server, which must not learn NewsAPI's key, whichever way the
    /// client was made.
    @Test func keepsTheKeyFromFeedServers() async throws {
        let key = "secret-key-4711"
        let seen = Locked<[String?]>([])
        let router = Router()
        router.get("feed.xml") { request, _ in
            seen.withLock { $0.append(request.headers[HTTPField.Name("X-Api-Key")!]) }
            return Response(
                status: .ok,
                headers: [.contentType: "application/rss+xml"],
                body: .init(
                    byteBuffer: ByteBuffer(bytes: Sandbox.feedQuirk("control-character.rss").body)
                )
            )
        }
        try await withLoopbackServer(router) { feedServer in
            try await withNewsClient(.init(apiKeys: [key]), key: key) { news in
                let feed = feedServer.appendingPathComponent("feed.xml")
                let direct = try await news.feedEntries(feed)
                let overAPI = try await NewsClient(api: news.api).feedEntries(feed)
                #expect(direct.count == 3)
                #expect(overAPI.count == 3)
                // The key still reaches NewsAPI itself.
                let page = try await NewsClient(api: news.api).articles(.topHeadlines(country: "us"))
                #expect(page.totalResults > 0)
            }
        }
        #expect(seen.withLock { $0 } == [nil, nil])
    }

    @Test func validatesBeforeSending() async throws {
        let transport = MockTransport(responses: [])
        let news = NewsClient(apiKey: "k", transport: transport)
        let error = await caught {
            try await news.articles(.topHeadlines(.init(country: "us", sources: ["bbc-news"])))
        }
        #expect(
            error?.alertMessage
                == "This search cannot be made: sources cannot be mixed with a country or a category."
        )
        let notArticles = await caught { try await news.articles(.sources(.init())) }
        guard case .invalidRequest = notArticles?.kind else {
            Issue.record("expected an invalid request, got \(String(describing: notArticles))")
            return
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func turnsEveryServerCodeIntoATypedCode() async throws {
        let codes = [
            "apiKeyMissing", "apiKeyInvalid", "apiKeyDisabled", "apiKeyExhausted", "rateLimited",
            "parametersMissing", "parameterInvalid", "parametersIncompatible", "sourcesTooMany",
            "sourceDoesNotExist", "maximumResultsReached", "corsNotAllowed", "unexpectedError",
            "somethingNew",
        ]
        for code in codes {
            let transport = MockTransport(responses: [
                .json(#"{"status":"error","code":"\#(code)","message":"Message for \#(code)."}"#, status: 400)
            ])
            let news = NewsClient(apiKey: "k", transport: transport, retryPolicy: .never)
            let error = try #require(await caught { try await news.sources() })
            guard case .server(let typed, let message) = error.kind else {
                Issue.record("\(code): \(error)")
                continue
            }
            #expect(typed.rawValue == code)
            #expect(message == "Message for \(code).")
            if code == "somethingNew" {
                #expect(typed == .unknown("somethingNew"))
                #expect(error.alertMessage == "Message for somethingNew.")
            } else {
                #expect(NewsError.Code(rawValue: code) == typed)
            }
        }
    }

    @Test func saysWhatHappenedWhenTheServerCannotBeReached() async throws {
        try await AsyncHTTPClientTransport.withTransport { transport in
            let news = NewsClient(
                apiKey: "k",
                baseURL: URL(string: "http://127.0.0.1:1/v2")!,
                transport: transport,
                retryPolicy: .never
            )
            let error = try #require(await caught { try await news.sources() })
            #expect(error.alertMessage == "The news service cannot be reached. Check your connection.")
            #expect(error.code == nil)
        }
    }

    @Test func publishesAPageWhenSubscribedTo() async throws {
        try await withNewsClient { news in
            let publisher = news.articlesPublisher(.everything(query: "swift", paging: .init(pageSize: 5)))
            let events = Locked<[String]>([])
            let cancellable = publisher.sink(
                receiveCompletion: { completion in events.withLock { $0.append("\(completion)") } },
                receiveValue: { page in events.withLock { $0.append("page \(page.articles.count)") } }
            )
            while events.withLock({ $0.count < 2 }) { try await Task.sleep(for: .milliseconds(5)) }
            #expect(events.withLock { $0 } == ["page 5", "finished"])
            cancellable.cancel()
        }
    }

    /// NewsAPI's 429 carries no Retry-After: the client asks once, not three times in a
    /// moment, and shows the server's own words about when requests come back.
    @Test func asksOnceWhenRateLimitedAndShowsTheServersWords() async throws {
        let hits = Locked(0)
        let router = Router()
        router.get("v2/top-headlines") { _, _ in
            hits.withLock { $0 += 1 }
            return Response(
                status: .tooManyRequests,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string:
                            #"{"status":"error","code":"rateLimited","message":"You have made too many requests recently. Developer accounts are limited to 100 requests over a 24 hour period (50 requests available every 12 hours). Please upgrade to a paid plan if you need more requests."}"#
                    )
                )
            )
        }
        try await withLoopbackServer(router) { url in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let news = NewsClient(apiKey: "k", baseURL: url.appending(path: "v2"), transport: transport)
                let error = try #require(
                    await caught { try await news.articles(.topHeadlines(country: "us")) }
                )
                #expect(error.code == .rateLimited && error.retryAfter == nil)
                #expect(
                    error.alertMessage
                        == "Rate limited — try again later. You have made too many requests recently. Developer accounts are limited to 100 requests over a 24 hour period (50 requests available every 12 hours). Please upgrade to a paid plan if you need more requests."
                )
            }
        }
        #expect(hits.withLock { $0 } == 1)
    }

    @Test(arguments: [
        (Duration.seconds(12 * 3_600), "Rate limited — try again in 12 hours. Too many."),
        (.seconds(90), "Rate limited — try again in 2 minutes. Too many."),
        (.seconds(1), "Rate limited — try again in 1 second. Too many."),
    ])
    func saysWhenToTryAgain(wait: Duration, message: String) {
        let error = NewsError(.server(.rateLimited, message: "Too many."), retryAfter: wait)
        #expect(error.alertMessage == message)
    }

    /// A feed whose host has no address says so, rather than call it private.
    @Test func saysAFeedsHostCannotBeFound() throws {
        let url = try #require(URL(string: "https://no-such-host.invalid/feed.xml"))
        var unresolved = NewsError(
            APIError(
                .addressNotAllowed(
                    host: "no-such-host.invalid",
                    reason: "its name does not resolve to an address"
                ),
                method: .get,
                url: url.absoluteString
            )
        )
        unresolved.feedURL = url
        #expect(
            unresolved.alertMessage
                == "no-such-host.invalid cannot be found: no server has that name. Check the feed's address."
        )
        var loopback = NewsError(
            APIError(
                .addressNotAllowed(
                    host: "127.0.0.1",
                    reason: "it resolves to 127.0.0.1, which is not a public address"
                ),
                method: .get,
                url: "http://127.0.0.1/feed.xml"
            )
        )
        loopback.feedURL = URL(string: "http://127.0.0.1/feed.xml")
        #expect(loopback.alertMessage == "127.0.0.1 is not on the public internet, so it is not fetched.")
    }
}
