import Foundation
import NewsAPI
import TributaryFeeds

/// How news is shown in a terminal.
enum NewsFormat {
    /// A numbered list from `first`: title, then source and age, then the link.
    /// The number of the first article on `page`, counting from 1; pages so far on that the
    /// number passes `Int.max` (a mistyped --page) start at `Int.max`.
    /// The start of `text`, up to 80 characters ending at a word, marked as cut with "…".
    static func excerpt(_ text: String) -> String {
        guard text.count > 80 else { return text }
        let start = text.prefix(80)
        let words = start.lastIndex(of: " ").map { start[..<$0] } ?? start
        return words + "…"
    }

    static func firstNumber(page: Int, pageSize: Int) -> Int {
        let (skipped, overflow) = (page - 1).multipliedReportingOverflow(by: pageSize)
        return overflow || skipped == .max ? .max : skipped + 1
    }

    static func articles(_ page: ArticlesPage, numberedFrom first: Int, now: Date) -> String {
        guard !page.articles.isEmpty else {
            return "No articles (\(page.totalResults) in all)."
        }
        var lines: [String] = []
        for (offset, article) in page.articles.enumerated() {
            let (number, overflow) = first.addingReportingOverflow(offset)
            let label = "\(overflow ? .max : number)."
            let indent = String(repeating: " ", count: label.count + 1)
            lines.append("\(label) \(article.title)")
            lines.append("\(indent)\(article.source.name) · \(age(of: article.publishedAt, now: now))")
            lines.append("\(indent)\(article.url.absoluteString)")
        }
        var summary = "\(page.articles.count) of \(counted(page.totalResults, "article"))"
        if page.skippedCount > 0 { summary += "; \(page.skippedCount) unreadable left out" }
        if page.removedCount > 0 { summary += "; \(page.removedCount) removed left out" }
        return lines.joined(separator: "\n") + "\n\n" + summary + "."
    }

    /// A numbered list of feed entries: title, then feed and age, then the link.
    static func entries(_ entries: [FeedEntry], now: Date) -> String {
        guard !entries.isEmpty else { return "The feed has no entries." }
        var lines: [String] = []
        for (offset, entry) in entries.enumerated() {
            let label = "\(offset + 1)."
            let indent = String(repeating: " ", count: label.count + 1)
            // A placeholder in brackets, which no feed's own title is taken for.
            lines.append(
                "\(label) \(entry.title ?? "[untitled]" + (entry.summaryText.map { " " + Self.excerpt($0) } ?? ""))"
            )
            let age = entry.published.map { self.age(of: $0, now: now) } ?? "undated"
            lines.append(
                "\(indent)\([entry.author ?? entry.feedTitle, age].compactMap { $0 }.joined(separator: " · "))"
            )
            if let link = entry.link { lines.append("\(indent)\(link.absoluteString)") }
        }
        return lines.joined(separator: "\n") + "\n\n\(counted(entries.count, "entry", "entries"))."
    }

    /// A note of the flaws a feed was forgiven, or nil when it had none.
    static func forgiven(_ repairs: [FeedRepair]) -> String? {
        guard !repairs.isEmpty else { return nil }
        return "note: to read the feed, the reader "
            + repairs.map(\.description).joined(separator: "; ") + "."
    }

    /// One line a source: id, name, category, country and language.
    static func sources(_ sources: [NewsSource]) -> String {
        guard !sources.isEmpty else { return "No sources." }
        let width = sources.map(\.id.count).max() ?? 0
        return sources.map { source in
            let details = [source.category, source.country?.uppercased(), source.language].compactMap { $0 }
            return source.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + source.name
                + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        }
        .joined(separator: "\n")
    }

    /// How long ago `date` was: "just now", "5 minutes ago", "3 hours ago", "2 days ago".
    static func age(of date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        func ago(_ count: Int, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s") ago" }
        switch seconds {
        case ..<0: return "in the future"
        case ..<60: return "just now"
        case ..<3_600: return ago(seconds / 60, "minute")
        case ..<86_400: return ago(seconds / 3_600, "hour")
        case ..<(30 * 86_400): return ago(seconds / 86_400, "day")
        case ..<(365 * 86_400): return ago(seconds / (30 * 86_400), "month")
        default: return ago(seconds / (365 * 86_400), "year")
        }
    }

    /// A feed entry in the shape of NewsAPI's articles, with null for what the feed leaves out
    /// (a link, a date) rather than anything made up.
    struct FeedArticle: Encodable {
        var entry: FeedEntry

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(
                Article.Source(id: nil, name: entry.feedTitle ?? entry.link?.host ?? ""),
                forKey: .source
            )
            try container.encode(entry.author, forKey: .author)
            try container.encode(entry.title, forKey: .title)
            try container.encode(entry.summaryText, forKey: .description)
            try container.encode(entry.link, forKey: .url)
            try container.encode(entry.image, forKey: .urlToImage)
            try container.encode(entry.published.map(Article.timestamp), forKey: .publishedAt)
            try container.encode(entry.id, forKey: .id)
        }

        private enum CodingKeys: String, CodingKey {
            case source, author, title, description, url, urlToImage, publishedAt, id
        }
    }
}
