import Foundation
import NewsAPI
import NewsSandbox
import Testing

@Suite struct DatasetTests {
    let dataset = sharedDataset

    @Test func isTheSameForTheSameSeedAndDiffersForAnother() {
        let again = Dataset(seed: 1)
        #expect(again.articles.map(\.title) == dataset.articles.map(\.title))
        #expect(again.articles.map(\.publishedAtText) == dataset.articles.map(\.publishedAtText))
        #expect(again.sources.map(\.id) == dataset.sources.map(\.id))
        let other = Dataset(seed: 2)
        #expect(other.articles.map(\.title) != dataset.articles.map(\.title))
    }

    @Test func hasTheSizeAndSpreadThatWasAskedFor() {
        #expect(dataset.articles.count == 5_000)
        #expect(dataset.sources.count == 60)
        #expect(Set(dataset.sources.map(\.id)).count == 60)
        #expect(Set(dataset.sources.map(\.category)) == Set(NewsCategory.allCases))
        #expect(Set(dataset.sources.map(\.country)).count == 10)
        #expect(Set(dataset.sources.map(\.language)).count == 6)
        let dated = dataset.articles.filter { !$0.isRemoved }.map(\.publishedAt)
        #expect(dated.max()! <= Dataset.referenceDate)
        #expect(dated.min()! >= Dataset.referenceDate.addingTimeInterval(-30 * 86_400))
        #expect(dated.max()!.timeIntervalSince(dated.min()!) > 29 * 86_400)
        #expect(dataset.articles.map(\.publishedAt) == dataset.articles.map(\.publishedAt).sorted(by: >))
    }

    @Test func isAsUntidyAsRealResponses() {
        let articles = dataset.articles
        #expect(articles.contains { $0.author == nil })
        #expect(articles.contains { $0.description == nil })
        #expect(articles.contains { $0.content == nil })
        #expect(articles.contains { $0.imagePath == nil })
        #expect(articles.contains { $0.sourceIndex == nil })
        #expect(articles.contains { $0.publishedAtText.hasSuffix("+00:00") })
        #expect(articles.contains { $0.publishedAtText.contains(".") })
        let removed = articles.filter(\.isRemoved)
        #expect((3...50).contains(removed.count))
        #expect(removed.allSatisfy { $0.title == "[Removed]" && $0.url == "https://removed.com" })
        #expect(
            articles.filter { $0.content != nil && !$0.isRemoved }.allSatisfy {
                $0.content!.hasSuffix("chars]")
            }
        )
    }
}
