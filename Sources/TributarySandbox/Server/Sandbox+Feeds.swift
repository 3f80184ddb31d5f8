import Foundation
import NewsAPI
import TributaryHTML
import TributaryHTTP

extension Sandbox {
    /// `/feeds/{category}.rss` or `.atom`: the category's latest headlines as RSS 2.0 or Atom,
    /// with the quirks real feeds have: CDATA, HTML in summaries, a missing date, dates in
    /// several forms, relative links, `xml:base`. `/feeds/quirks/{name}` serves the shapes of
    /// ``feedQuirks``.
    func feed(_ request: SandboxRequest, name: String) -> SandboxResponse {
        if name.hasPrefix("quirks/") { return quirkyFeed(named: String(name.dropFirst("quirks/".count))) }
        let parts = name.split(separator: ".")
        guard parts.count == 2, let category = NewsCategory(rawValue: String(parts[0])),
            parts[1] == "rss" || parts[1] == "atom"
        else {
            return .error(
                404,
                "feedNotFound",
                "There is no feed \(name); try /feeds/technology.rss or .atom."
            )
        }
        let articles = dataset.articles.lazy
            .filter { !$0.isRemoved && $0.sourceIndex.map { self.dataset.sources[$0].category } == category }
            .prefix(Self.feedLength)
        let title = "Sandbox — \(category.rawValue.capitalized)"
        let body =
            parts[1] == "rss"
            ? rss(Array(articles), title: title, origin: request.origin)
            : atom(Array(articles), title: title, name: name, origin: request.origin)
        let type = parts[1] == "rss" ? "application/rss+xml" : "application/atom+xml"
        return SandboxResponse(
            status: 200,
            headers: [("Content-Type", "\(type); charset=utf-8")],
            body: Data(body.utf8)
        )
    }

    static let feedLength = 20

    private func rss(_ articles: [Dataset.Article], title: String, origin: String) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
            <channel>
            <title>\(Self.escape(title))</title>
            <link>\(origin)/</link>
            <description>Generated headlines.</description>

            """
        for (index, article) in articles.enumerated() {
            xml += "<item>\n"
            // CDATA with HTML, as many feeds send titles and summaries.
            xml +=
                index == 0
                ? "<title><![CDATA[\(article.title)]]></title>\n"
                : "<title>\(Self.escape(article.title))</title>\n"
            // A relative link, resolved against the channel's link.
            let link = index == 2 ? "/articles/\(article.number)" : article.url
            xml += "<link>\(Self.escape(link))</link>\n"
            xml += "<guid isPermaLink=\"false\">sandbox-\(article.number)</guid>\n"
            if let description = article.description {
                xml +=
                    index % 3 == 0
                    ? "<description><![CDATA[<p>\(description) <b>Read more</b></p>]]></description>\n"
                    : "<description>\(Self.escape("<p>\(description)</p>"))</description>\n"
            }
            if let author = article.author {
                xml +=
                    index % 2 == 0
                    ? "<author>newsroom@sandbox.example (\(Self.escape(author)))</author>\n"
                    : "<dc:creator>\(Self.escape(author))</dc:creator>\n"
            }
            // One item without a date, one with a named zone and a two-digit year.
            if index != 1 {
                xml += "<pubDate>\(Self.rfc822(article.publishedAt, shortForm: index == 3))</pubDate>\n"
            }
            if let image = article.imagePath {
                xml +=
                    index % 2 == 0
                    ? "<enclosure url=\"\(origin)\(image)\" length=\"0\" type=\"image/jpeg\"/>\n"
                    : "<media:thumbnail url=\"\(origin)\(image)\" width=\"320\" height=\"240\"/>\n"
            }
            xml += "</item>\n"
        }
        return xml + "</channel>\n</rss>\n"
    }

    private func atom(_ articles: [Dataset.Article], title: String, name: String, origin: String) -> String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <title type="text">\(Self.escape(title))</title>
            <link rel="self" href="\(origin)/feeds/\(name)"/>
            <link rel="alternate" href="\(origin)/"/>
            <id>urn:sandbox:\(name)</id>
            <updated>\(Article.timestamp(dataset.referenceDate))</updated>

            """
        for (index, article) in articles.enumerated() {
            // An entry with its own xml:base and a relative link.
            xml += index == 2 ? "<entry xml:base=\"\(origin)/archive/\">\n" : "<entry>\n"
            xml += "<title type=\"html\">\(Self.escape(article.title))</title>\n"
            let link = index == 2 ? "\(article.number).html" : article.url
            xml += "<link rel=\"alternate\" type=\"text/html\" href=\"\(Self.escape(link))\"/>\n"
            xml += "<id>urn:sandbox:article:\(article.number)</id>\n"
            // One entry with only `updated`; one with neither date.
            if index != 1 {
                let stamp = Article.timestamp(article.publishedAt)
                xml +=
                    index == 4
                    ? "<updated>\(stamp)</updated>\n" : "<published>\(stamp.dropLast())+00:00</published>\n"
            }
            if let author = article.author {
                xml += "<author><name>\(Self.escape(author))</name></author>\n"
            }
            if let description = article.description {
                xml +=
                    index % 2 == 0
                    ? "<summary type=\"html\">\(Self.escape("<p>\(description) &amp; more</p>"))</summary>\n"
                    : "<content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\"><p>\(Self.escape(description))</p></div></content>\n"
            }
            if let image = article.imagePath {
                xml += "<link rel=\"enclosure\" type=\"image/jpeg\" href=\"\(origin)\(image)\"/>\n"
            }
            xml += "</entry>\n"
        }
        return xml + "</feed>\n"
    }

    static func escape(_ text: String) -> String { HTMLText.escaped(text) }

    /// `date` as RSS writes it: `Thu, 15 Jan 2026 12:00:00 +0000`, or in the older short form
    /// with a named zone and a two-digit year: `15 Jan 26 07:00:00 EST`.
    static func rfc822(_ date: Date, shortForm: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let shifted = shortForm ? date.addingTimeInterval(-5 * 3_600) : date
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second, .weekday],
            from: shifted
        )
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let time = String(format: "%02d:%02d:%02d", parts.hour!, parts.minute!, parts.second!)
        if shortForm {
            return String(format: "%02d", parts.day!) + " \(months[parts.month! - 1]) "
                + String(format: "%02d", parts.year! % 100) + " \(time) EST"
        }
        return "\(days[parts.weekday! - 1]), " + String(format: "%02d", parts.day!)
            + " \(months[parts.month! - 1]) \(parts.year!) \(time) +0000"
    }
}
