public import Foundation

/// The movies a sandbox serves over TMDb's v3 API, generated from a seed and dated up to the
/// day it is made for: popularity, ratings, genres, cast and crew, posters and backdrops, some
/// without a release date or a poster, a few adult titles.
public struct TMDbDataset: Sendable {
    struct Person: Sendable, Encodable {
        var id: Int
        var name: String
        var character: String?
        var job: String?
        var department: String?
        var order: Int?
        var profile_path: String?
    }

    struct Movie: Sendable {
        var id: Int
        var title: String
        var overview: String
        var releaseDate: String
        var posterPath: String?
        var backdropPath: String?
        var voteAverage: Double
        var voteCount: Int
        var popularity: Double
        var genreIDs: [Int]
        var adult: Bool
        var runtime: Int
        var tagline: String
        var cast: [Person]
        var crew: [Person]
    }

    /// TMDb's movie genres, with their real ids.
    static let genres: [(id: Int, name: String)] = [
        (28, "Action"), (12, "Adventure"), (16, "Animation"), (35, "Comedy"), (80, "Crime"),
        (99, "Documentary"), (18, "Drama"), (10751, "Family"), (14, "Fantasy"), (36, "History"),
        (27, "Horror"), (10402, "Music"), (9648, "Mystery"), (10749, "Romance"), (878, "Science Fiction"),
        (10770, "TV Movie"), (53, "Thriller"), (10752, "War"), (37, "Western"),
    ]

    /// The sizes images come in, as TMDb's configuration lists them.
    static let posterSizes = ["w92", "w154", "w185", "w342", "w500", "w780", "original"]
    static let backdropSizes = ["w300", "w780", "w1280", "original"]
    static let profileSizes = ["w45", "w185", "h632", "original"]

    /// The first movie's id.
    public static let firstID = 900_001

    let movies: [Movie]
    let byID: [Int: Int]
    /// The start (UTC) of the day the movies are dated up to.
    public let referenceDate: Date

    /// How many movies there are.
    public var movieCount: Int { movies.count }

    /// Generates the movies for `seed`, released up to the start of the day `day` falls on.
    public init(seed: UInt64 = 1, day: Date = Date(), count: Int = 400) {
        var random = SeededGenerator(seed: seed ^ 0x544D_4462)
        referenceDate = Dataset.startOfDay(containing: day)
        // Every first name with every last name: distinct people, in a fixed order.
        let people = Vocabulary.lastNames.flatMap { last in Vocabulary.firstNames.map { "\($0) \(last)" } }
        var movies: [Movie] = []
        for number in 0..<count {
            let id = Self.firstID + number
            let title =
                "The \(random.pick(Self.adjectives)) \(random.pick(Self.nouns))"
                + (random.chance(0.15) ? " II" : "")
            let age = Double(Int.random(in: -60..<(30 * 365), using: &random)) * 86_400
            let released = referenceDate.addingTimeInterval(-age)
            let genreIDs = (0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(Self.genres).id
            }
            let actors = people.indices.shuffled(using: &random).prefix(
                Int.random(in: 4...10, using: &random)
            )
            let cast = actors.enumerated().map { order, person in
                Person(
                    id: 5_000 + person,
                    name: people[person],
                    character: "\(random.pick(Self.roles)) \(random.pick(Vocabulary.lastNames))",
                    order: order,
                    profile_path: random.chance(0.8) ? "/profile-\(id)-\(order).jpg" : nil
                )
            }
            let director = random.pick(people)
            movies.append(
                Movie(
                    id: id,
                    title: title,
                    overview: "In \(random.pick(Vocabulary.places)), \(random.pick(Self.plots)).",
                    releaseDate: random.chance(0.04) ? "" : Self.day(released),
                    posterPath: random.chance(0.06) ? nil : "/poster-\(id).jpg",
                    backdropPath: random.chance(0.1) ? nil : "/backdrop-\(id).jpg",
                    voteAverage: (Double(Int.random(in: 20...90, using: &random)) / 10),
                    voteCount: Int(pow(Double.random(in: 0..<1, using: &random), 2) * 20_000),
                    popularity: Double(Int.random(in: 100...500_000, using: &random)) / 100,
                    genreIDs: Array(Set(genreIDs)).sorted(),
                    adult: random.chance(0.02),
                    runtime: Int.random(in: 78...178, using: &random),
                    tagline: random.pick(Self.taglines),
                    cast: cast,
                    crew: [
                        Person(id: 9_000 + number, name: director, job: "Director", department: "Directing"),
                        Person(
                            id: 9_500 + number,
                            name: random.pick(people),
                            job: "Screenplay",
                            department: "Writing"
                        ),
                    ]
                )
            )
        }
        self.movies = movies
        byID = Dictionary(uniqueKeysWithValues: movies.enumerated().map { ($1.id, $0) })
    }

    private static func day(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!,
            from: date
        )
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static let adjectives = [
        "Silent", "Last", "Hidden", "Crimson", "Endless", "Broken", "Northern", "Glass", "Midnight",
        "Distant",
        "Iron", "Lost",
    ]
    static let nouns = [
        "Harbor", "Frontier", "Orchard", "Signal", "Archive", "Lighthouse", "Kingdom", "Voyage", "Garden",
        "Protocol", "Summer", "Compiler",
    ]
    static let roles = ["Captain", "Doctor", "Agent", "Professor", "Detective", "Mayor"]
    static let plots = [
        "a retired engineer finds one last bug worth chasing",
        "two rivals must share a lighthouse through a long winter",
        "a signal from the archive changes everything",
        "a family inherits an orchard and its secrets",
    ]
    static let taglines = [
        "Some doors stay closed.", "Every signal has a source.", "Home is a moving target.", "",
    ]
}

extension TMDbDataset {
    /// An answer as TMDb gives it: a status and a JSON body.
    public struct Answer: Sendable {
        public var status: Int
        public var body: Data
    }

    /// TMDb's error body: `{"success": false, "status_code": …, "status_message": …}`.
    public static func error(_ status: Int, code: Int, _ message: String) -> Answer {
        struct Body: Encodable {
            var success = false
            var status_code: Int
            var status_message: String
        }
        return Answer(status: status, body: encode(Body(status_code: code, status_message: message)))
    }

    static let notFound = error(404, code: 34, "The resource you requested could not be found.")
    static let badPage = error(
        400,
        code: 22,
        "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer."
    )

    /// The answer to `path`, below `/3/`, with `query`; `imageBaseURL` is where the images of
    /// `configuration` live.
    public func answer(_ path: String, query: [String: String], imageBaseURL: String) -> Answer {
        let parts = path.split(separator: "/").map(String.init)
        switch parts {
        case ["movie", "popular"]:
            return page(movies.sorted { $0.popularity > $1.popularity }, query: query)
        case ["movie", "top_rated"]:
            return page(
                movies.filter { $0.voteCount >= 100 }.sorted {
                    ($0.voteAverage, $0.voteCount) > ($1.voteAverage, $1.voteCount)
                },
                query: query
            )
        case ["movie", "now_playing"]:
            let recent = Self.dayString(referenceDate.addingTimeInterval(-45 * 86_400))
            let today = Self.dayString(referenceDate)
            return page(
                movies.filter {
                    !$0.releaseDate.isEmpty && $0.releaseDate >= recent && $0.releaseDate <= today
                }
                .sorted { $0.releaseDate > $1.releaseDate },
                query: query
            )
        case ["search", "movie"]:
            let text = (query["query"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            let year = query["year"].flatMap(Int.init)
            let adult = query["include_adult"] == "true"
            let found =
                text.isEmpty
                ? []
                : movies.filter { movie in
                    movie.title.lowercased().contains(text) && (adult || !movie.adult)
                        && (year.map { movie.releaseDate.hasPrefix(String($0)) } ?? true)
                }
                .sorted { $0.popularity > $1.popularity }
            return page(found, query: query)
        case ["genre", "movie", "list"]:
            struct Body: Encodable { var genres: [GenreBody] }
            return Answer(
                status: 200,
                body: Self.encode(Body(genres: Self.genres.map { GenreBody(id: $0.id, name: $0.name) }))
            )
        case ["configuration"]:
            return Answer(status: 200, body: Self.encode(ConfigurationBody(base: imageBaseURL)))
        case let parts where parts.count == 2 && parts[0] == "movie":
            guard let id = Int(parts[1]), let index = byID[id] else { return Self.notFound }
            let withCredits = (query["append_to_response"] ?? "").split(separator: ",").contains("credits")
            return Answer(status: 200, body: Self.encode(DetailsBody(movies[index], credits: withCredits)))
        default:
            return Self.notFound
        }
    }

    private func page(_ all: [Movie], query: [String: String]) -> Answer {
        let number: Int
        if let text = query["page"] {
            guard let value = Int(text), (1...500).contains(value) else { return Self.badPage }
            number = value
        } else {
            number = 1
        }
        let visible = query["include_adult"] == "true" ? all : all.filter { !$0.adult }
        let start = min((number - 1) * 20, visible.count)
        let body = PageBody(
            page: number,
            results: visible[start..<min(start + 20, visible.count)].map(MovieBody.init),
            total_pages: min(max(1, (visible.count + 19) / 20), 500),
            total_results: visible.count
        )
        return Answer(status: 200, body: Self.encode(body))
    }

    static func dayString(_ date: Date) -> String { day(date) }

    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    struct GenreBody: Encodable {
        var id: Int
        var name: String
    }

    struct MovieBody: Encodable {
        var id: Int
        var title: String
        var original_title: String
        var overview: String
        var release_date: String
        var poster_path: String?
        var backdrop_path: String?
        var vote_average: Double
        var vote_count: Int
        var popularity: Double
        var genre_ids: [Int]
        var adult: Bool
        var original_language = "en"
        var video = false

        init(_ movie: Movie) {
            id = movie.id
            title = movie.title
            original_title = movie.title
            overview = movie.overview
            release_date = movie.releaseDate
            poster_path = movie.posterPath
            backdrop_path = movie.backdropPath
            vote_average = movie.voteAverage
            vote_count = movie.voteCount
            popularity = movie.popularity
            genre_ids = movie.genreIDs
            adult = movie.adult
        }
    }

    struct PageBody: Encodable {
        var page: Int
        var results: [MovieBody]
        var total_pages: Int
        var total_results: Int
    }

    struct DetailsBody: Encodable {
        struct Credits: Encodable {
            var cast: [Person]
            var crew: [Person]
        }

        var movie: MovieBody
        var genres: [GenreBody]
        var runtime: Int
        var tagline: String
        var status = "Released"
        var credits: Credits?

        init(_ movie: Movie, credits: Bool) {
            self.movie = MovieBody(movie)
            genres = movie.genreIDs.compactMap { id in
                TMDbDataset.genres.first { $0.id == id }.map { GenreBody(id: $0.id, name: $0.name) }
            }
            runtime = movie.runtime
            tagline = movie.tagline
            self.credits = credits ? Credits(cast: movie.cast, crew: movie.crew) : nil
        }

        enum CodingKeys: String, CodingKey {
            case genres, runtime, tagline, status, credits
        }

        func encode(to encoder: any Encoder) throws {
            try movie.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(genres, forKey: .genres)
            try container.encode(runtime, forKey: .runtime)
            try container.encode(tagline, forKey: .tagline)
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(credits, forKey: .credits)
        }
    }

    struct ConfigurationBody: Encodable {
        struct Images: Encodable {
            var base_url: String
            var secure_base_url: String
            var poster_sizes = TMDbDataset.posterSizes
            var backdrop_sizes = TMDbDataset.backdropSizes
            var profile_sizes = TMDbDataset.profileSizes
            var logo_sizes = ["w45", "w92", "original"]
            var still_sizes = ["w92", "w300", "original"]
        }

        var images: Images
        var change_keys = ["adult", "budget", "credits", "genres", "images", "title"]

        init(base: String) {
            images = Images(base_url: base, secure_base_url: base)
        }
    }
}
