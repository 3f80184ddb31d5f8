public import Foundation
public import NewsAPI

/// The news a sandbox serves: sources and articles generated from a seed.
///
/// The same seed and day always give the same dataset: 70 sources over the 7 categories, 10
/// countries and 6 languages, and 5,000 articles dated over the 30 days before
/// ``referenceDate``, the start of that day (UTC), so that the news always reads as recent, with
/// the untidiness of real responses (missing authors, descriptions, images and content; dates
/// with `Z`, `+00:00` or fractional seconds; a few "[Removed]" placeholders; sources that
/// NewsAPI does not list).
public struct Dataset: Sendable {
    /// A source with where it publishes.
    public struct Source: Sendable, Hashable {
        /// The id used in the `sources` parameter, such as `global-post`.
        public var id: String
        /// The display name.
        public var name: String
        /// What the source covers.
        public var description: String
        /// The host the source publishes on, such as `www.global-post.example`.
        public var domain: String
        /// The category the source publishes in.
        public var category: NewsCategory
        /// The language, as an ISO 639-1 code.
        public var language: String
        /// The country, as a lowercase ISO 3166-1 code.
        public var country: String
    }

    /// An article as the sandbox stores it.
    public struct Article: Sendable {
        /// The article's number, which also names its image.
        public var number: Int
        /// The index in ``Dataset/sources`` of a listed source, or nil. A removed article keeps
        /// the source it was in, so that its placeholder shows up where the article did.
        public var sourceIndex: Int?
        /// The name of the source, as sent; `[Removed]` for a removed article.
        public var sourceName: String
        /// The host the source publishes on, which the `domains` and `excludeDomains`
        /// parameters match.
        public var domain: String
        /// The author, when the article names one.
        public var author: String?
        /// The headline; `[Removed]` for a removed article.
        public var title: String
        /// A short summary, when there is one.
        public var description: String?
        /// The article's address; `https://removed.com` for a removed article.
        public var url: String
        /// The image's path on the sandbox, such as `/images/12.jpg`.
        public var imagePath: String?
        /// When the article was published; the start of 1970 for a removed article.
        public var publishedAt: Date
        /// `publishedAt` as it is sent: the format varies as it does in real responses.
        public var publishedAtText: String
        /// The beginning of the text, cut with a `… [+N chars]` marker as NewsAPI's is, when
        /// there is any.
        public var content: String?
        /// A made-up measure of how widely the article was read, for `sortBy=popularity`.
        public var popularity: Int
        /// Whether the article stands for one NewsAPI removed, sent as a `[Removed]` placeholder.
        public var isRemoved: Bool
        /// The words of each searchable field, lowercased, for search.
        var words: [NewsEndpoint.SearchField: [Substring]]
    }

    /// The countries sources are in, with the language each writes in.
    public static let countries: [(code: String, language: String)] = [
        ("us", "en"), ("gb", "en"), ("au", "en"), ("ca", "en"), ("in", "en"),
        ("de", "de"), ("fr", "fr"), ("es", "es"), ("it", "it"), ("nl", "nl"),
    ]
    /// The time the newest article can have: the start (UTC) of the day the dataset was made
    /// for.
    public let referenceDate: Date

    /// The seed the dataset was made from.
    public let seed: UInt64
    /// The listed sources.
    public let sources: [Source]
    /// The articles, newest first.
    public let articles: [Article]
    /// Listed sources by id.
    let sourceIndex: [String: Int]

    /// Generates the dataset for `seed`, dated up to the start of the day `day` falls on.
    ///
    /// The same seed gives the same articles on every day, only their dates move with it.
    public init(seed: UInt64 = 1, day: Date = Date(), articleCount: Int = 5_000, sourceCount: Int = 70) {
        self.seed = seed
        let referenceDate = Self.startOfDay(containing: day)
        self.referenceDate = referenceDate
        var random = SeededGenerator(seed: seed)
        let sources = Self.makeSources(count: sourceCount, random: &random)
        self.sources = sources
        let unlisted = (1...8).map { "\(Vocabulary.places[$0 % Vocabulary.places.count]) Blog \($0)" }
        var articles = (0..<articleCount).map { number in
            Self.makeArticle(
                number: number,
                sources: sources,
                unlisted: unlisted,
                referenceDate: referenceDate,
                random: &random
            )
        }
        articles.sort { ($0.publishedAt, $1.number) > ($1.publishedAt, $0.number) }
        self.articles = articles
        sourceIndex = Dictionary(uniqueKeysWithValues: sources.enumerated().map { ($1.id, $0) })
    }

    /// Midnight UTC at the start of the day `date` falls on.
    static func startOfDay(containing date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds / 86_400).rounded(.down) * 86_400)
    }

    /// The listed source with `id`.
    public func source(id: String) -> Source? {
        sourceIndex[id].map { sources[$0] }
    }

    /// The source an article is from, if it is listed.
    public func source(of article: Article) -> Source? {
        article.sourceIndex.map { sources[$0] }
    }

    private static func makeSources(count: Int, random: inout SeededGenerator) -> [Source] {
        var names: [String] = []
        for prefix in Vocabulary.sourcePrefixes {
            for noun in Vocabulary.sourceNouns {
                names.append("\(prefix) \(noun)")
            }
        }
        names.shuffle(using: &random)
        return (0..<count).map { index in
            let name = names[index % names.count] + (index < names.count ? "" : " \(index / names.count + 1)")
            let country = countries[index % countries.count]
            // Country by country, then category by category: 70 sources give every country a
            // source in every category, so that no category of any country is empty.
            let category = NewsCategory.allCases[(index / countries.count) % NewsCategory.allCases.count]
            let id = name.lowercased().replacingOccurrences(of: " ", with: "-")
            return Source(
                id: id,
                name: name,
                description: "\(name) covers \(category.rawValue) news from \(country.code.uppercased()).",
                domain: "www.\(id).example",
                category: category,
                language: country.language,
                country: country.code
            )
        }
    }

    private static func makeArticle(
        number: Int,
        sources: [Source],
        unlisted: [String],
        referenceDate: Date,
        random: inout SeededGenerator
    ) -> Article {
        let sourceIndex = random.chance(0.05) ? nil : Int.random(in: 0..<sources.count, using: &random)
        let source = sourceIndex.map { sources[$0] }
        let category = source?.category ?? random.pick(NewsCategory.allCases)
        let sourceName = source?.name ?? random.pick(unlisted)
        let domain =
            source?.domain ?? sourceName.lowercased().replacingOccurrences(of: " ", with: "") + ".example"
        let topic = Vocabulary.topics[category]!
        let place = random.pick(Vocabulary.places)
        let subject = random.pick(topic.subjects)
        let title =
            topic.headline(subject, random.pick(topic.verbs), random.pick(topic.objects))
            + random.pick(Vocabulary.qualifiers)
        // Within a sentence a subject is lowercased, unless it starts with a name (`Swift`,
        // `AI`, `Olympic`).
        let keepsCapital = ["Swift", "AI", "Olympic"].contains { subject.hasPrefix($0) }
        let summary =
            "In \(place), \(keepsCapital ? title : title.prefix(1).lowercased() + title.dropFirst()). "
            + random.pick(Vocabulary.fillers)
        let body = (0..<3).map { _ in random.pick(Vocabulary.fillers) }.joined(separator: " ")
        let content =
            "\(summary) \(body)".prefix(197) + "… [+\(Int.random(in: 800...9_000, using: &random)) chars]"
        let author: String? =
            random.chance(0.18)
            ? nil
            : random.chance(0.1)
                ? "\(random.pick(Vocabulary.firstNames)) \(random.pick(Vocabulary.lastNames)), \(random.pick(Vocabulary.firstNames)) \(random.pick(Vocabulary.lastNames))"
                : "\(random.pick(Vocabulary.firstNames)) \(random.pick(Vocabulary.lastNames))"
        // Only the dates sent with milliseconds have them, so what a client reads is exact.
        let dateStyle = Int.random(in: 0..<10, using: &random)
        let age = Double(Int.random(in: 0..<30 * 86_400_000, using: &random)) / 1_000
        let published = referenceDate.addingTimeInterval(-(dateStyle == 2 ? age : age.rounded(.up)))
        let slug = title.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
        let day = published.formatted(.iso8601.year().month().day().dateSeparator(.dash))
        let removed = random.chance(0.003)
        let imagePath: String? =
            random.chance(0.08) ? nil : "/images/\(number).\(random.chance(0.2) ? "png" : "jpg")"
        var article = Article(
            number: number,
            sourceIndex: sourceIndex,
            sourceName: sourceName,
            domain: domain,
            author: author,
            title: title,
            description: random.chance(0.05) ? nil : summary,
            url: "https://\(domain)/\(day.replacingOccurrences(of: "-", with: "/"))/\(slug)-\(number)",
            imagePath: imagePath,
            publishedAt: published,
            publishedAtText: Self.timestamp(published, style: dateStyle),
            content: random.chance(0.05) ? nil : String(content),
            popularity: Int.random(in: 0...100_000, using: &random),
            isRemoved: removed,
            words: [:]
        )
        if removed {
            article.sourceName = "[Removed]"
            article.title = "[Removed]"
            article.description = "[Removed]"
            article.content = "[Removed]"
            article.author = nil
            article.imagePath = nil
            article.url = "https://removed.com"
            article.publishedAt = Date(timeIntervalSince1970: 0)
            article.publishedAtText = "1970-01-01T00:00:00Z"
        }
        article.words = [
            .title: words(article.title),
            .description: words(article.description ?? ""),
            .content: words(article.content ?? ""),
        ]
        return article
    }

    /// `date` in one of the forms NewsAPI sends: mostly `Z`, sometimes `+00:00`, and with
    /// milliseconds when it has them.
    static func timestamp(_ date: Date, style: Int) -> String {
        let text = NewsAPI.Article.timestamp(date)
        return style < 2 && !text.contains(".") ? text.dropLast() + "+00:00" : text
    }

    /// The lowercased words of `text`.
    static func words(_ text: String) -> [Substring] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }
    }
}
