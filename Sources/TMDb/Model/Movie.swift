public import Foundation

/// A movie as TMDb's lists and searches give it.
///
/// Dates come as `YYYY-MM-DD` or as an empty string, which is read as no date; images are paths
/// to combine with ``TMDbImages`` into URLs.
public struct Movie: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    public var title: String
    public var originalTitle: String?
    public var overview: String
    /// The poster's path, such as `/kqjL17yufvn9OVLyXYpvtyrFfak.jpg`.
    public var posterPath: String?
    /// The backdrop's path.
    public var backdropPath: String?
    /// The release date, when TMDb has one.
    public var releaseDate: Date?
    public var voteAverage: Double
    public var voteCount: Int
    public var popularity: Double
    /// The ids of the movie's genres; ``MoviesViewModel`` names them.
    public var genreIDs: [Int]
    public var isAdult: Bool
    public var originalLanguage: String?

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

/// TMDb's dates: `YYYY-MM-DD`, or an empty string for none.
enum TMDbDate {
    static func decode<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key), !text.isEmpty else {
            return nil
        }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]),
            let date = DateComponents(
                calendar: calendar,
                timeZone: .gmt,
                year: parts[0],
                month: parts[1],
                day: parts[2]
            )
            .date
        else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "\"\(text)\" is not a date of the form YYYY-MM-DD."
            )
        }
        return date
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
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// One page of a TMDb list: `{page, results, total_pages, total_results}`.
public struct TMDbPage<Item: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    public var page: Int
    public var results: [Item]
    public var totalPages: Int
    public var totalResults: Int

    public init(page: Int, results: [Item], totalPages: Int, totalResults: Int) {
        self.page = page
        self.results = results
        self.totalPages = totalPages
        self.totalResults = totalResults
    }

    /// Whether there is a next page.
    public var hasMore: Bool { page < totalPages }

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }
}
