import Foundation
import NewsAPI
import Testing

@Suite struct NewsEndpointTests {
    @Test func buildsQueryItemsInAStableOrderWithoutEmptyParameters() {
        let headlines = NewsEndpoint.topHeadlines(
            country: "us",
            category: .science,
            query: " ",
            paging: .init(page: 2, pageSize: 30)
        )
        #expect(headlines.path == "top-headlines")
        #expect(
            headlines.queryItems.map { "\($0.name)=\($0.value!)" } == [
                "country=us", "category=science", "pageSize=30", "page=2",
            ]
        )
        let everything = NewsEndpoint.everything(
            .init(
                query: "swift",
                searchIn: [.title, .content],
                sources: ["a", "b"],
                domains: ["example.com"],
                excludeDomains: ["spam.example"],
                from: Date(timeIntervalSince1970: 1_706_277_600),
                language: "en",
                sortBy: .relevancy
            )
        )
        #expect(
            everything.queryItems.map { "\($0.name)=\($0.value!)" } == [
                "q=swift", "searchIn=title,content", "sources=a,b", "domains=example.com",
                "excludeDomains=spam.example", "from=2024-01-26T14:00:00Z", "language=en", "sortBy=relevancy",
            ]
        )
        #expect(NewsEndpoint.sources(.init(category: .sports)).path == "top-headlines/sources")
        #expect(everything.page(3).paging?.page == 3)
        #expect(NewsEndpoint.sources(.init()).page(3).paging == nil)
    }

    @Test(arguments: [
        (NewsEndpoint.topHeadlines(.init(country: "us", sources: ["bbc-news"])), "sources cannot be mixed"),
        (.topHeadlines(.init(category: .health, sources: ["bbc-news"])), "sources cannot be mixed"),
        (.topHeadlines(.init()), "top headlines need"),
        (.topHeadlines(country: "us", paging: .init(pageSize: 0)), "page size must be from 1 to 100"),
        (.topHeadlines(country: "us", paging: .init(pageSize: 101)), "page size must be from 1 to 100"),
        (.topHeadlines(country: "us", paging: .init(page: 0)), "pages are numbered from 1"),
        (.everything(query: String(repeating: "a", count: 501)), "501 characters long and the limit is 500"),
        (.everything(.init(sources: (1...21).map { "s\($0)" })), "21 sources were given and the limit is 20"),
        (.everything(.init(language: "en")), "needs a query, sources or domains"),
        (
            .everything(
                .init(query: "a", from: Date(timeIntervalSince1970: 10), to: Date(timeIntervalSince1970: 0))
            ),
            "starts after it ends"
        ),
    ])
    func refusesWhatNewsAPIWouldRefuse(endpoint: NewsEndpoint, reason: String) {
        do {
            try endpoint.validate()
            Issue.record("\(endpoint) passed validation")
        } catch {
            guard case .invalidRequest(let text) = error.kind else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(text.contains(reason), "\(text)")
        }
    }

    @Test(arguments: [
        NewsEndpoint.topHeadlines(country: "us"),
        .topHeadlines(category: .business),
        .topHeadlines(sources: ["bbc-news"]),
        .topHeadlines(query: "swift"),
        .everything(query: String(repeating: "a", count: 500)),
        .everything(.init(sources: (1...20).map { "s\($0)" })),
        .everything(.init(domains: ["example.com"])),
        .sources(.init()),
    ])
    func acceptsWhatNewsAPIAccepts(endpoint: NewsEndpoint) throws {
        try endpoint.validate()
    }
}
