import Foundation
import NewsAPI
import Testing

@Suite struct ArticlesPageTests {
    static let page = #"""
        {"status":"ok","totalResults":57,"articles":[
          {"source":{"id":"bbc-news","name":"BBC News"},"author":null,"title":"Plain",
           "description":"One","url":"https://example.com/1","urlToImage":null,
           "publishedAt":"2024-01-26T14:00:00Z","content":"Body text… [+2500 chars]"},
          {"source":{"id":null,"name":"Wire"},"author":"","title":"Offset and fraction",
           "description":null,"url":"https://example.com/2","urlToImage":"https://example.com/2.jpg",
           "publishedAt":"2024-01-26T15:30:00.123+00:00","content":null},
          {"source":{"id":null,"name":"[Removed]"},"author":null,"title":"[Removed]",
           "description":"[Removed]","url":"https://removed.com","urlToImage":null,
           "publishedAt":"1970-01-01T00:00:00Z","content":"[Removed]"},
          {"source":{"id":"x","name":"X"},"title":null,"url":"https://example.com/3",
           "publishedAt":"2024-01-26T15:30:00Z"},
          {"source":{"id":"x","name":"X"},"title":"Bad date","url":"https://example.com/4",
           "publishedAt":"yesterday"},
          {"source":{"id":"x","name":"X"},"title":"Bad link","url":"not a url",
           "publishedAt":"2024-01-26T15:30:00Z"},
          "not even an object",
          {"source":{"name":"Lean"},"title":"Only what is needed","url":"https://example.com/5",
           "publishedAt":"2024-01-26T16:00:00+0100","urlToImage":"::nonsense::","author":42}
        ]}
        """#

    @Test func decodesEveryRealWorldShapeAndSkipsWhatCannotBeShown() throws {
        let page = try JSONDecoder().decode(ArticlesPage.self, from: Data(Self.page.utf8))
        #expect(page.totalResults == 57)
        #expect(page.articles.map(\.title) == ["Plain", "Offset and fraction", "Only what is needed"])
        #expect(page.removedCount == 1)
        #expect(page.skippedCount == 4)
        #expect(page.receivedCount == 8)

        let plain = page.articles[0]
        #expect(plain.source == Article.Source(id: "bbc-news", name: "BBC News"))
        #expect(plain.author == nil && plain.urlToImage == nil)
        #expect(plain.publishedAt == Date(timeIntervalSince1970: 1_706_277_600))
        #expect(plain.contentPreview == "Body text")
        #expect(plain.omittedCharacterCount == 2_500)

        let second = page.articles[1]
        #expect(second.author == nil)
        #expect(second.source.id == nil)
        #expect(second.publishedAt == Date(timeIntervalSince1970: 1_706_283_000.123))
        #expect(second.urlToImage == URL(string: "https://example.com/2.jpg"))

        let lean = page.articles[2]
        #expect(lean.author == nil && lean.urlToImage == nil && lean.source.id == nil)
        #expect(lean.publishedAt == Date(timeIntervalSince1970: 1_706_281_200))
    }

    /// Encoded, the page says what it left out, as the text view does, and reads back the same.
    @Test func saysInItsJSONWhatItLeftOut() throws {
        let page = try JSONDecoder().decode(ArticlesPage.self, from: Data(Self.page.utf8))
        let json = try JSONEncoder().encode(page)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["removedCount"] as? Int == 1)
        #expect(object["skippedCount"] as? Int == 4)
        #expect(object["totalResults"] as? Int == 57)
        #expect(try JSONDecoder().decode(ArticlesPage.self, from: json) == page)
        let whole = ArticlesPage(totalResults: 1, articles: page.articles.prefix(1).map { $0 })
        let plain = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(whole)) as? [String: Any]
        )
        #expect(plain["removedCount"] == nil && plain["skippedCount"] == nil)
    }

    @Test func failsOnlyWhenThePageItselfIsBroken() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ArticlesPage.self, from: Data(#"{"status":"ok","totalResults":1}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ArticlesPage.self, from: Data(#"{"status":"ok","articles":"#.utf8))
        }
    }

    @Test func roundTripsThroughItsOwnEncoding() throws {
        let page = try JSONDecoder().decode(ArticlesPage.self, from: Data(Self.page.utf8))
        let again = try JSONDecoder().decode(ArticlesPage.self, from: JSONEncoder().encode(page))
        #expect(again.articles == page.articles)
        let text = String(decoding: try JSONEncoder().encode(page.articles[0]), as: UTF8.self)
        #expect(text.contains(#""author":null"#))
        #expect(text.contains(#""publishedAt":"2024-01-26T14:00:00Z""#))
    }

    @Test func decodesSourcesLeavingOutEntriesWithoutAnID() throws {
        let json = #"""
            {"status":"ok","sources":[
              {"id":"abc-news","name":"ABC News","description":"News","url":"https://abcnews.go.com",
               "category":"general","language":"en","country":"us"},
              {"id":null,"name":"Nameless"},
              {"id":"lean","name":null}]}
            """#
        let page = try JSONDecoder().decode(SourcesPage.self, from: Data(json.utf8))
        #expect(page.sources.map(\.id) == ["abc-news", "lean"])
        #expect(page.sources[0].newsCategory == .general)
        #expect(page.sources[1].name == "lean")
        #expect(page.skippedCount == 1)
    }
}
