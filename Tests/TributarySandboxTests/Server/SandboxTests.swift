import Foundation
import HTTPTypes
import NewsAPI
import Testing
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributarySandbox
import TributaryTestSupport

/// The sandbox over loopback, through the real client.
@Suite(.timeLimit(.minutes(5)))
struct SandboxTests {
    @Test func servesTopHeadlinesByCountryAndCategory() async throws {
        try await withSandbox { url, transport in
            let news = newsClient(url, transport)
            let page = try await news.articles(.topHeadlines(country: "de", category: .technology))
            let ids = Set(
                sharedDataset.sources.filter { $0.country == "de" && $0.category == .technology }.map(\.id)
            )
            #expect(page.totalResults > 20)
            #expect(page.articles.count + page.removedCount == 20)
            #expect(page.skippedCount == 0)
            #expect(page.articles.allSatisfy { ids.contains($0.source.id ?? "") })
            #expect(page.articles.map(\.publishedAt) == page.articles.map(\.publishedAt).sorted(by: >))
            let image = try #require(page.articles.compactMap(\.urlToImage).first)
            #expect(image.host == url.host && image.port == url.port && image.path.hasPrefix("/images/"))
        }
    }

    @Test func pagesThroughResultsWithoutOverlap() async throws {
        try await withSandbox { url, transport in
            let news = newsClient(url, transport)
            let paging = { (page: Int) in NewsEndpoint.Paging(page: page, pageSize: 7) }
            let first = try await news.articles(.topHeadlines(country: "us", paging: paging(1)))
            let second = try await news.articles(.topHeadlines(country: "us", paging: paging(2)))
            #expect(first.articles.count == 7)
            #expect(Set(first.articles.map(\.url)).isDisjoint(with: second.articles.map(\.url)))
            #expect(first.totalResults == second.totalResults)
            let beyond = try await news.articles(.topHeadlines(country: "us", paging: paging(10_000)))
            #expect(beyond.articles.isEmpty)
        }
    }

    @Test func topHeadlinesFromSources() async throws {
        try await withSandbox { url, transport in
            let wanted = Array(sharedDataset.sources.prefix(3).map(\.id))
            let page = try await newsClient(url, transport).articles(.topHeadlines(sources: wanted))
            #expect(!page.articles.isEmpty)
            #expect(page.articles.allSatisfy { wanted.contains($0.source.id ?? "") })
        }
    }

    @Test func searchesEverythingWithOperatorsFieldsDatesAndSorting() async throws {
        try await withSandbox { url, transport in
            let news = newsClient(url, transport)
            let phrase = try await news.articles(.everything(query: "\"faster compiler\" -berlin"))
            #expect(phrase.totalResults > 0)
            for article in phrase.articles {
                let text = [article.title, article.description ?? "", article.content ?? ""].joined(
                    separator: " "
                )
                .lowercased()
                #expect(text.contains("faster compiler"))
                #expect(!text.contains("berlin"))
            }
            let inTitle = try await news.articles(
                .everything(query: "compiler", searchIn: [.title], paging: .init(pageSize: 100))
            )
            #expect(inTitle.articles.allSatisfy { $0.title.lowercased().contains("compiler") })

            let from = sharedDataset.referenceDate.addingTimeInterval(-2 * 86_400)
            var ranged = NewsEndpoint.Everything(query: "swift OR chip", from: from, language: "en")
            ranged.paging.pageSize = 100
            let recent = try await news.articles(.everything(ranged))
            #expect(recent.totalResults > 0)
            #expect(recent.articles.allSatisfy { $0.publishedAt >= from })
            let unranged = try await news.articles(.everything(query: "swift OR chip"))
            #expect(recent.totalResults < unranged.totalResults)

            let popular = try await news.articles(.everything(query: "swift", sortBy: .popularity))
            #expect(popular.articles.count > 1)
            let relevant = try await news.articles(.everything(query: "swift", sortBy: .relevancy))
            #expect(
                Set(relevant.articles.map(\.url)) != Set(popular.articles.map(\.url))
                    || relevant.totalResults <= 100
            )
        }
    }

    @Test func filtersEverythingByDomain() async throws {
        try await withSandbox { url, transport in
            let source = sharedDataset.sources[0]
            var query = NewsEndpoint.Everything(domains: [source.domain])
            query.paging.pageSize = 50
            let page = try await newsClient(url, transport).articles(.everything(query))
            #expect(!page.articles.isEmpty)
            #expect(page.articles.allSatisfy { $0.url.host == source.domain })
            query.excludeDomains = [source.domain]
            let none = try await newsClient(url, transport).articles(.everything(query))
            #expect(none.totalResults == 0)
        }
    }

    @Test func listsSourcesByCountryAndCategory() async throws {
        try await withSandbox { url, transport in
            let news = newsClient(url, transport)
            let all = try await news.sources()
            #expect(all.count == 70)
            let french = try await news.sources(.init(country: "fr"))
            #expect(!french.isEmpty && french.allSatisfy { $0.country == "fr" && $0.language == "fr" })
            let sports = try await news.sources(.init(category: .sports, language: "en"))
            #expect(
                !sports.isEmpty && sports.allSatisfy { $0.newsCategory == .sports && $0.language == "en" }
            )
        }
    }

    @Test func acceptsTheKeyInEachPlaceTheProtocolAllows() async throws {
        try await withSandbox { url, transport in
            let key = Sandbox.demoKey
            let credentials: [Authentication.Credential] = [
                .apiKey(key, header: HTTPField.Name("X-Api-Key")!),
                .apiKeyInQuery(key, name: "apiKey"),
                .apiKey(key, header: .authorization),
                .bearer(key),
            ]
            for credential in credentials {
                let api = APIClient(
                    baseURL: url,
                    transport: transport,
                    middleware: [Authentication(credential)],
                    retryPolicy: .never,
                    serverErrors: .newsAPI
                )
                let page = try await NewsClient(api: api).articles(.topHeadlines(country: "us"))
                #expect(page.totalResults > 0)
            }
        }
    }

    @Test(arguments: [
        (nil, NewsError.Code.apiKeyMissing),
        ("wrong-key", NewsError.Code.apiKeyInvalid),
    ])
    func refusesAMissingOrWrongKey(key: String?, code: NewsError.Code) async throws {
        try await withSandbox { url, transport in
            let error = await newsError {
                try await newsClient(url, transport, key: key).articles(.topHeadlines(country: "us"))
            }
            #expect(error?.code == code)
            if case .server(_, let message) = error?.kind { #expect(message.contains("API key")) }
        }
    }

    @Test func acceptsOnlyTheConfiguredKeys() async throws {
        try await withSandbox(.init(apiKeys: ["alpha", "beta"])) { url, transport in
            let sources = try await newsClient(url, transport, key: "beta").sources()
            #expect(sources.count == 70)
            let error = await newsError { try await newsClient(url, transport).sources() }
            #expect(error?.code == .apiKeyInvalid)
        }
    }

    /// Parameter errors the client would catch itself, sent raw to see the server's answer.
    @Test(arguments: [
        ("top-headlines", "", 400, "parametersMissing"),
        ("top-headlines", "country=us&sources=\(sharedDataset.sources[0].id)", 400, "parametersIncompatible"),
        ("top-headlines", "country=us&sources=x", 400, "parametersIncompatible"),
        ("top-headlines", "category=sports&sources=x", 400, "parametersIncompatible"),
        ("top-headlines", "country=usa", 400, "parameterInvalid"),
        ("top-headlines", "category=weather", 400, "parameterInvalid"),
        ("top-headlines", "country=us&pageSize=101", 400, "parameterInvalid"),
        ("top-headlines", "country=us&page=0", 400, "parameterInvalid"),
        ("top-headlines", "sources=no-such-source", 400, "sourceDoesNotExist"),
        ("everything", "", 400, "parametersMissing"),
        ("everything", "q=(swift", 400, "parameterInvalid"),
        ("everything", "q=swift&searchIn=body", 400, "parameterInvalid"),
        ("everything", "q=swift&from=yesterday", 400, "parameterInvalid"),
        ("everything", "q=swift&language=xx", 400, "parameterInvalid"),
        ("everything", "q=swift&sortBy=newest", 400, "parameterInvalid"),
        ("everything", "sources=" + (1...21).map { "s\($0)" }.joined(separator: ","), 400, "sourcesTooMany"),
        ("top-headlines/sources", "category=weather", 400, "parameterInvalid"),
        ("nowhere", "", 404, "routeNotFound"),
    ])
    func answersBadParametersAsTheProtocolDoes(
        path: String,
        query: String,
        status: Int,
        code: String
    ) async throws {
        try await withSandbox { url, transport in
            let api = APIClient(
                baseURL: url,
                transport: transport,
                retryPolicy: .never,
                serverErrors: .newsAPI
            )
            var target = url.appendingPathComponent(path)
            if !query.isEmpty { target = URL(string: target.absoluteString + "?" + query)! }
            var request = Request<Data>(.url(target))
            request.headers[HTTPField.Name("X-Api-Key")!] = Sandbox.demoKey
            do throws(APIError) {
                _ = try await api.send(request)
                Issue.record("\(path)?\(query) succeeded")
            } catch {
                #expect(error.status?.code == status)
                #expect(error.serverError?.code == code)
                #expect(error.serverError?.message.isEmpty == false)
            }
        }
    }

    @Test func limitsTheDeveloperPlanToTheFirstHundredResults() async throws {
        try await withSandbox(.init(developerPlan: true)) { url, transport in
            let news = newsClient(url, transport)
            _ = try await news.articles(.everything(query: "the", paging: .init(page: 1, pageSize: 100)))
            let error = await newsError {
                try await news.articles(.everything(query: "the", paging: .init(page: 2, pageSize: 100)))
            }
            #expect(error?.code == .maximumResultsReached)
            #expect(error?.alertMessage == "The developer plan shows only the first 100 results.")
        }
    }

    @Test func rateLimitsOnceTheQuotaIsSpentAndSaysWhenToComeBack() async throws {
        let clock = TestClock(sharedDataset.referenceDate)
        try await withSandbox(.init(dailyQuota: 3, now: clock.now)) { url, transport in
            let news = newsClient(url, transport)
            for _ in 0..<3 { _ = try await news.sources() }
            clock.advance(by: 12 * 3_600)
            let error = await newsError { try await news.sources() }
            #expect(error?.code == .rateLimited)
            #expect(error?.retryAfter == .seconds(12 * 3_600))
            #expect(
                error?.alertMessage
                    == "Rate limited — try again in 12 hours. You have made too many requests recently. This key is limited to 3 requests over a 24 hour period."
            )
            clock.advance(by: 12 * 3_600)
            let sources = try await news.sources()
            #expect(sources.count == 70)
        }
    }

    @Test func failsAtTheConfiguredRateAndDelaysByTheConfiguredLatency() async throws {
        let configuration = Sandbox.Configuration(latency: .milliseconds(50), failureRate: 0.5, seed: 1)
        try await withSandbox(configuration) { url, transport in
            let news = newsClient(url, transport)
            var failures = 0
            let start = ContinuousClock.now
            for _ in 0..<40 {
                if let error = await newsError({ try await news.sources() }) {
                    #expect(error.code == .unexpectedError)
                    failures += 1
                }
            }
            #expect(ContinuousClock.now - start >= .milliseconds(40 * 50))
            #expect((8...32).contains(failures))
        }
    }
}

/// A sandbox that cannot listen says where and why, in the system's words.
@Suite(.timeLimit(.minutes(5)))
struct SandboxListenTests {
    @Test func saysWhyItCannotListen() async throws {
        try await Sandbox.withRunning { url in
            let port = try #require(url.port)
            let taken = Sandbox(configuration: .init(port: port))
            let error = await #expect(throws: Sandbox.ListenError.self) { try await taken.run() }
            #expect(error?.host == "127.0.0.1" && error?.port == port)
            #expect(error?.reason == "Address already in use")
            #expect(
                error?.description
                    == "The sandbox cannot listen on 127.0.0.1:\(port): Address already in use."
            )
            let again = await #expect(throws: Sandbox.ListenError.self) {
                try await taken.withRunning { _ in }
            }
            #expect(again?.reason == "Address already in use")
        }
        // An address of the documentation range, which no machine of this test's has.
        let elsewhere = Sandbox(configuration: .init(host: "192.0.2.1"))
        let error = await #expect(throws: Sandbox.ListenError.self) { try await elsewhere.run() }
        #expect(error?.reason == "Cannot assign requested address")
    }
}

/// Where the sandbox says it is: the address it listens on or the URL it was given, never
/// what a request's `Host` claims.
@Suite(.timeLimit(.minutes(5)))
struct SandboxOriginTests {
    @Test func listensOnAnIPv6Address() async throws {
        try await withSandbox(.init(host: "::1")) { url, transport in
            #expect(url.absoluteString.hasPrefix("http://[::1]:"))
            #expect(url.path == "/v2")
            let page = try await newsClient(url, transport).articles(.topHeadlines(country: "us"))
            let image = try #require(page.articles.compactMap(\.urlToImage).first)
            #expect(image.absoluteString.hasPrefix("http://[::1]:\(url.port ?? 0)/images/"))
        }
    }

    @Test func refusesAHostThatIsNoAddress() async throws {
        let sandbox = Sandbox(configuration: .init(host: "not a host"))
        let error = await #expect(throws: Sandbox.ListenError.self) { try await sandbox.run() }
        #expect(error?.reason == "it is not a host name or address")
    }

    @Test func handsOutItsOwnOriginWhateverTheHostHeaderSays() async throws {
        try await withSandbox { url, transport in
            let client = APIClient(
                baseURL: url,
                transport: transport,
                middleware: [
                    Authentication(.apiKey(Sandbox.demoKey, header: HTTPField.Name("X-Api-Key")!))
                ],
                retryPolicy: .never
            )
            let forged = Request<ArticlesPage>(
                "top-headlines",
                query: [URLQueryItem(name: "country", value: "us")],
                headers: [HTTPField.Name("Host")!: "attacker.example"]
            )
            let page = try await client.send(forged)
            let images = page.articles.compactMap(\.urlToImage)
            #expect(!images.isEmpty)
            #expect(images.allSatisfy { $0.host == "127.0.0.1" && $0.port == url.port })
        }
    }

    @Test func handsOutTheURLItWasGiven() async throws {
        let publicURL = URL(string: "https://news.example/sandbox")!
        try await withSandbox(.init(publicURL: publicURL)) { url, transport in
            #expect(url.host == "127.0.0.1")
            let page = try await newsClient(url, transport).articles(.topHeadlines(country: "us"))
            let images = page.articles.compactMap(\.urlToImage).map(\.absoluteString)
            #expect(!images.isEmpty)
            #expect(images.allSatisfy { $0.hasPrefix("https://news.example/sandbox/images/") })
        }
    }
}

/// A wall clock the test moves.
final class TestClock: Sendable {
    private let time: Locked<Date>

    init(_ start: Date) { time = Locked(start) }

    var now: @Sendable () -> Date { { self.time.withLock { $0 } } }

    func advance(by seconds: TimeInterval) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
