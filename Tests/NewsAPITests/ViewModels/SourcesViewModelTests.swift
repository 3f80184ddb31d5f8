import CombineSchedulers
import Foundation
import NewsAPI
import Testing
import Tributary
import TributaryTestSupport

@MainActor
@Suite(.timeLimit(.minutes(5)))
struct SourcesViewModelTests {
    let scheduler = DispatchQueue.test

    @Test func fetchesByCountryAndCategoryAndFiltersLocally() async throws {
        try await onSandbox { news in
            let model = SourcesViewModel(client: news, scheduler: scheduler.eraseToAnyScheduler())
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.sources.count == 70)

            model.country = "fr"
            scheduler.runDue()
            #expect(model.state.isLoading)
            try await settle(scheduler) { model.state.value != nil }
            let french = model.sources
            #expect(!french.isEmpty && french.allSatisfy { $0.country == "fr" })

            let wanted = french[0].name.split(separator: " ").last!.uppercased()
            model.searchText = String(wanted)
            await scheduler.advance(by: .milliseconds(299))
            #expect(model.sources == french)
            await scheduler.advance(by: .milliseconds(1))
            #expect(!model.sources.isEmpty)
            #expect(
                model.sources.count < french.count
                    || french.allSatisfy { $0.name.uppercased().contains(wanted) }
            )
            #expect(
                model.sources.allSatisfy {
                    "\($0.name) \($0.id) \($0.description ?? "")".uppercased().contains(wanted)
                }
            )
            #expect(model.state.value == french)

            model.category = .business
            scheduler.runDue()
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.state.value!.allSatisfy { $0.country == "fr" && $0.newsCategory == .business })
        }
    }

    @Test func aNewCountryShowsNoneOfThePreviousSourcesAndARefreshAsksAgain() async throws {
        try await onSandbox { news in
            let model = SourcesViewModel(
                country: "us",
                client: news,
                scheduler: scheduler.eraseToAnyScheduler()
            )
            try await settle(scheduler) { model.state.value != nil }
            #expect(!model.sources.isEmpty)

            model.country = "de"
            scheduler.runDue()
            #expect(model.state.isLoading)
            #expect(model.sources.isEmpty)
            try await settle(scheduler) { model.state.value != nil }
            let german = model.sources
            #expect(!german.isEmpty && german.allSatisfy { $0.country == "de" })

            model.refresh()
            #expect(model.state.request == .init(country: "de"))
            try await settle(scheduler) { model.state.value != nil }
            #expect(model.sources == german)
        }
    }

    @Test func opensTheArticlesOfASource() async throws {
        try await onSandbox { news in
            let model = SourcesViewModel(
                country: "nl",
                client: news,
                scheduler: scheduler.eraseToAnyScheduler()
            )
            try await settle(scheduler) { model.state.value != nil }
            let source = try #require(model.sources.first)
            let articles = model.articles(for: source)
            #expect(articles.feed == .source(id: source.id))
            try await settle(scheduler) { articles.state.value != nil }
            #expect(!articles.articles.isEmpty)
            #expect(articles.articles.allSatisfy { $0.source.id == source.id })
        }
    }
}
