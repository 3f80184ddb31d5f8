public import Foundation
import TributaryHTTP

/// A movie as TMDb's lists and searches give it.
///
/// Dates come as `YYYY-MM-DD` or as an empty string, which is read as no date, as is a date that
/// is not one; images are paths to combine with ``TMDbImages`` into URLs. Every field but `id`
/// may be missing or `null` without failing the movie. TMDb's way of saying "unknown" is read
/// as unknown: a movie nobody voted on has no ``rating`` (its `vote_average` is a 0 that means
/// nothing), and an empty overview is no overview.
public struct Movie: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    /// The title, in the language asked for when TMDb has a translation.
    public var title: String
    /// The title in the movie's original language, such as 銃夢 for "Battle Angel".
    public var originalTitle: String?
    /// What the movie is about; empty when TMDb has no overview.
    public var overview: String
    /// The poster's path, such as `/kqjL17yufvn9OVLyXYpvtyrFfak.jpg`.
    public var posterPath: String?
    /// The backdrop's path.
    public var backdropPath: String?
    /// The release date, when TMDb has one.
    public var releaseDate: Date?
    /// The average vote, 0 to 10; meaningless when ``voteCount`` is 0.
    public var voteAverage: Double
    /// How many people voted.
    public var voteCount: Int
    /// TMDb's popularity score: higher is more popular, on no fixed scale.
    public var popularity: Double
    /// The ids of the movie's genres; ``MoviesViewModel`` names them.
    public var genreIDs: [Int]
    /// Whether the movie is for adults only.
    public var isAdult: Bool
    /// The language the movie was made in, as an ISO 639-1 code, such as `ja`.
    public var originalLanguage: String?

    /// Creates a movie.
    public init(
        id: Int,
        title: String,
        originalTitle: String? = nil,
        overview: String = "",
        posterPath: String? = nil,
        backdropPath: String? = nil,
        releaseDate: Date? = nil,
        voteAverage: Double = 0,
        voteCount: Int = 0,
        popularity: Double = 0,
        genreIDs: [Int] = [],
        isAdult: Bool = false,
        originalLanguage: String? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.overview = overview
        self.posterPath = posterPath
        self.backdropPath = backdropPath
        self.releaseDate = releaseDate
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.popularity = popularity
        self.genreIDs = genreIDs
        self.isAdult = isAdult
        self.originalLanguage = originalLanguage
    }

    /// The average vote, or nil when nobody has voted: unrated, which is not rated zero.
    public var rating: Double? { voteCount > 0 ? voteAverage : nil }

    /// The original title, when it differs from ``title``: the movie's own name beside a
    /// translated one.
    public var distinctOriginalTitle: String? {
        guard let originalTitle, !originalTitle.isEmpty, originalTitle != title else { return nil }
        return originalTitle
    }

    /// The year the movie came out, when it has a date.
    public var year: Int? {
        releaseDate.map { Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: $0).year ?? 0 }
    }

    enum CodingKeys: String, CodingKey {
        case id, title, overview, popularity, adult
        case originalTitle = "original_title"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case genreIDs = "genre_ids"
        case originalLanguage = "original_language"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        originalTitle = try container.decodeIfPresent(String.self, forKey: .originalTitle)
        overview = try container.decodeIfPresent(String.self, forKey: .overview) ?? ""
        posterPath = try container.decodeIfPresent(String.self, forKey: .posterPath)
        backdropPath = try container.decodeIfPresent(String.self, forKey: .backdropPath)
        releaseDate = try TMDbDate.decode(container, forKey: .releaseDate)
        voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage) ?? 0
        voteCount = try container.decodeIfPresent(Int.self, forKey: .voteCount) ?? 0
        popularity = try container.decodeIfPresent(Double.self, forKey: .popularity) ?? 0
        genreIDs = try container.decodeIfPresent([Int].self, forKey: .genreIDs) ?? []
        isAdult = try container.decodeIfPresent(Bool.self, forKey: .adult) ?? false
        originalLanguage = try container.decodeIfPresent(String.self, forKey: .originalLanguage)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(originalTitle, forKey: .originalTitle)
        try container.encode(overview, forKey: .overview)
        try container.encodeIfPresent(posterPath, forKey: .posterPath)
        try container.encodeIfPresent(backdropPath, forKey: .backdropPath)
        try container.encode(releaseDate.map(TMDbDate.string) ?? "", forKey: .releaseDate)
        try container.encode(voteAverage, forKey: .voteAverage)
        try container.encode(voteCount, forKey: .voteCount)
        try container.encode(popularity, forKey: .popularity)
        try container.encode(genreIDs, forKey: .genreIDs)
        try container.encode(isAdult, forKey: .adult)
        try container.encodeIfPresent(originalLanguage, forKey: .originalLanguage)
    }
}

/// TMDb's dates: `YYYY-MM-DD`, or an empty string or `null` for none.
enum TMDbDate {
    /// The date at `key`; nil for none, and for text that is not a date, so that one odd date
    /// never fails the movie it belongs to.
    static func decode<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws -> Date? {
        guard let text = try? container.decodeIfPresent(String.self, forKey: key) else { return nil }
        return date(text)
    }

    /// The day `text` names, as `YYYY-MM-DD`, at midnight UTC.
    static func date(_ text: String) -> Date? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
        return DateComponents(
            calendar: calendar,
            timeZone: .gmt,
            year: parts[0],
            month: parts[1],
            day: parts[2]
        )
        .date
    }

    static func string(_ date: Date) -> String {
        let parts = calendar.dateComponents(in: .gmt, from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    private static let calendar = Calendar(identifier: .gregorian)
}

/// A genre, as `genre/movie/list` names it.
public struct Genre: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    /// The genre's name, in the language asked for.
    public var name: String

    /// Creates a genre.
    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// One page of a TMDb list: `{page, results, total_pages, total_results}`, and for the now
/// playing and upcoming lists the `dates` they span.
///
/// One result that does not decode never fails the page: it is left out and counted in
/// ``skippedCount``.
public struct TMDbPage<Item: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The days a now playing or upcoming list covers.
    public struct DateWindow: Sendable, Hashable, Codable {
        /// The first day, as TMDb gives it: `YYYY-MM-DD`.
        public var minimum: String
        /// The last day.
        public var maximum: String

        /// Creates a window from its first and last days, as `YYYY-MM-DD`.
        public init(minimum: String, maximum: String) {
            self.minimum = minimum
            self.maximum = maximum
        }

        /// The first day, when it is a date.
        public var start: Date? { TMDbDate.date(minimum) }
        /// The last day, when it is a date.
        public var end: Date? { TMDbDate.date(maximum) }
    }

    /// The page, from 1.
    public var page: Int
    /// The results on this page that decoded, in the list's order.
    public var results: [Item]
    /// How many pages the list has.
    public var totalPages: Int
    /// How many results the list has in all.
    public var totalResults: Int
    /// The days the list covers, for now playing and upcoming.
    public var dates: DateWindow?
    /// How many results on this page did not decode.
    public var skippedCount: Int

    /// Creates a page.
    public init(
        page: Int,
        results: [Item],
        totalPages: Int,
        totalResults: Int,
        dates: DateWindow? = nil,
        skippedCount: Int = 0
    ) {
        self.page = page
        self.results = results
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.dates = dates
        self.skippedCount = skippedCount
    }

    /// Whether there is a next page.
    public var hasMore: Bool { page < totalPages }

    enum CodingKeys: String, CodingKey {
        case page, results, dates
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode(LossyList<Item>.self, forKey: .results)
        results = entries.elements
        skippedCount = entries.failures
        page = try container.decodeIfPresent(Int.self, forKey: .page) ?? 1
        totalPages = try container.decodeIfPresent(Int.self, forKey: .totalPages) ?? page
        totalResults = try container.decodeIfPresent(Int.self, forKey: .totalResults) ?? entries.count
        dates = try? container.decodeIfPresent(DateWindow.self, forKey: .dates)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(page, forKey: .page)
        try container.encode(results, forKey: .results)
        try container.encode(totalPages, forKey: .totalPages)
        try container.encode(totalResults, forKey: .totalResults)
        try container.encodeIfPresent(dates, forKey: .dates)
    }
}
