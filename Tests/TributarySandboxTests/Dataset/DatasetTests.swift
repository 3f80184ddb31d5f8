import Foundation
import NewsAPI
import Testing
import TributarySandbox

@Suite struct DatasetTests {
    let dataset = sharedDataset

    @Test func isTheSameForTheSameSeedAndDiffersForAnother() {
        let again = Dataset(seed: 1, day: dataset.referenceDate)
        #expect(again.articles.map(\.title) == dataset.articles.map(\.title))
        #expect(again.articles.map(\.publishedAtText) == dataset.articles.map(\.publishedAtText))
        #expect(again.sources.map(\.id) == dataset.sources.map(\.id))
        let other = Dataset(seed: 2, day: dataset.referenceDate)
        #expect(other.articles.map(\.title) != dataset.articles.map(\.title))
    }

    @Test func hasTheSizeAndSpreadThatWasAskedFor() {
        #expect(dataset.articles.count == 5_000)
        #expect(dataset.sources.count == 70)
        #expect(Set(dataset.sources.map(\.id)).count == 70)
        #expect(Set(dataset.sources.map(\.category)) == Set(NewsCategory.allCases))
        // Every country has a source in every category: no category of any country is empty.
        for country in Set(dataset.sources.map(\.country)) {
            let categories = Set(dataset.sources.filter { $0.country == country }.map(\.category))
            #expect(categories == Set(NewsCategory.allCases), "\(country)")
        }
        #expect(Set(dataset.sources.map(\.country)).count == 10)
        #expect(Set(dataset.sources.map(\.language)).count == 6)
        let dated = dataset.articles.filter { !$0.isRemoved }.map(\.publishedAt)
        #expect(dated.max()! <= dataset.referenceDate)
        #expect(dated.min()! >= dataset.referenceDate.addingTimeInterval(-30 * 86_400))
        #expect(dated.max()!.timeIntervalSince(dated.min()!) > 29 * 86_400)
        #expect(dataset.articles.map(\.publishedAt) == dataset.articles.map(\.publishedAt).sorted(by: >))
    }

    /// The news reads as recent whatever the day: it is dated up to the start of the day the
    /// dataset is made for, and only its dates move from one day to the next.
    @Test func isDatedUpToTheStartOfItsDay() throws {
        let noon = try #require(ISO8601DateFormatter().date(from: "2026-01-15T12:34:56Z"))
        let midnight = try #require(ISO8601DateFormatter().date(from: "2026-01-15T00:00:00Z"))
        let first = Dataset(seed: 1, day: noon, articleCount: 300)
        #expect(first.referenceDate == midnight)
        #expect(Dataset(seed: 1, day: midnight, articleCount: 300).referenceDate == midnight)
        let later = Dataset(seed: 1, day: noon.addingTimeInterval(10 * 86_400), articleCount: 300)
        #expect(later.referenceDate == midnight.addingTimeInterval(10 * 86_400))
        #expect(later.articles.map(\.title) == first.articles.map(\.title))
        #expect(
            zip(later.articles, first.articles).allSatisfy {
                // A removed article keeps NewsAPI's placeholder date.
                $0.isRemoved || abs($0.publishedAt.timeIntervalSince($1.publishedAt) - 10 * 86_400) < 0.001
            }
        )
        let today = Dataset(seed: 1, articleCount: 300)
        let newest = try #require(today.articles.map(\.publishedAt).max())
        #expect(newest <= Date() && Date().timeIntervalSince(newest) < 2 * 86_400)
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
