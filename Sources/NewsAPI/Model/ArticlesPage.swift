import Foundation
import TributaryHTTP

/// One page of articles from the top-headlines or everything endpoint.
///
/// One bad article never fails a page: articles that do not decode are skipped and counted in
/// ``skippedCount``, and NewsAPI's "[Removed]" placeholders are left out and counted in
/// ``removedCount``. Encoded, a page says what it left out as `removedCount` and `skippedCount`
/// beside NewsAPI's own fields, so that `totalResults` is never read as counting only the
/// articles shown; decoding such a page adds them back to its counts.
public struct ArticlesPage: Sendable, Hashable, Codable {
    /// How many articles match the request in all, over every page.
    public var totalResults: Int
    /// The articles on this page that can be shown, in the server's order.
    public var articles: [Article]
    /// How many entries on this page did not decode.
    public var skippedCount: Int
    /// How many entries on this page were placeholders for removed articles.
    public var removedCount: Int

    /// Creates a page.
    public init(totalResults: Int, articles: [Article], skippedCount: Int = 0, removedCount: Int = 0) {
        self.totalResults = totalResults
        self.articles = articles
        self.skippedCount = skippedCount
        self.removedCount = removedCount
    }

    /// How many entries the server sent on this page.
    public var receivedCount: Int { articles.count + skippedCount + removedCount }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode(LossyList<Article>.self, forKey: .articles)
        articles = entries.elements.filter { !$0.isRemoved }
        skippedCount =
            entries.failures + ((try? container.decodeIfPresent(Int.self, forKey: .skippedCount)) ?? 0)
        removedCount =
            entries.elements.count - articles.count
            + ((try? container.decodeIfPresent(Int.self, forKey: .removedCount)) ?? 0)
        totalResults = (try? container.decodeIfPresent(Int.self, forKey: .totalResults)) ?? entries.count
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("ok", forKey: .status)
        try container.encode(totalResults, forKey: .totalResults)
        try container.encode(articles, forKey: .articles)
        if removedCount > 0 { try container.encode(removedCount, forKey: .removedCount) }
        if skippedCount > 0 { try container.encode(skippedCount, forKey: .skippedCount) }
    }

    private enum CodingKeys: String, CodingKey {
        case status, totalResults, articles, removedCount, skippedCount
    }
}

/// The sources endpoint's answer.
public struct SourcesPage: Sendable, Hashable, Codable {
    /// The sources, in the server's order.
    public var sources: [NewsSource]
    /// How many entries did not decode.
    public var skippedCount: Int

    /// Creates a list of sources.
    public init(sources: [NewsSource], skippedCount: Int = 0) {
        self.sources = sources
        self.skippedCount = skippedCount
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode(LossyList<NewsSource>.self, forKey: .sources)
        sources = entries.elements
        skippedCount = entries.failures
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("ok", forKey: .status)
        try container.encode(sources, forKey: .sources)
    }

    private enum CodingKeys: String, CodingKey {
        case status, sources
    }
}
