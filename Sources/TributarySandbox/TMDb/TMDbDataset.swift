public import Foundation

/// The movies a sandbox serves over TMDb's v3 API, generated from a seed and dated up to the
/// day it is made for: popularity, ratings, genres, cast and crew, posters and backdrops, some
/// without a release date or a poster, a few adult titles.
///
/// TMDb's own ways of saying "unknown" are served as TMDb sends them: movies still to come
/// have no votes (`vote_count` 0, `vote_average` 0), a `runtime` of 0 and no IMDb id, some
/// have an empty overview, and some cast rows have a `null` or empty `character` and some
/// crew rows an empty `job`. A tenth of the movies are Japanese, with an original title
/// beside the English one, which `language=ja` serves as the title.
public struct TMDbDataset: Sendable {
    struct Person: Sendable, Encodable {
        var id: Int
        var name: String
        var character: String?
        var job: String?
        var department: String?
        var order: Int?
        var profile_path: String?

        enum CodingKeys: String, CodingKey {
            case id, name, character, job, department, order, profile_path
            case credit_id, known_for_department
        }

        /// A cast row always has `character` and `order`, a crew row `job` and `department`:
        /// TMDb sends `null` for the unknown ones rather than leaving them out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(profile_path, forKey: .profile_path)
            try container.encode(String(format: "%024x", id), forKey: .credit_id)
            if let order {
                try container.encode(character, forKey: .character)
                try container.encode(order, forKey: .order)
                try container.encode("Acting", forKey: .known_for_department)
            } else {
                try container.encode(job, forKey: .job)
                try container.encode(department, forKey: .department)
                try container.encode(department ?? "Crew", forKey: .known_for_department)
            }
        }
    }

    struct Movie: Sendable {
        var id: Int
        var title: String
        var originalTitle: String
        var originalLanguage: String
        var status: String
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
            var movie = Movie(
                id: id,
                title: title,
                originalTitle: title,
                originalLanguage: "en",
                status: "Released",
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
            Self.addUnknowns(to: &movie, number: number, referenceDate: referenceDate)
            movies.append(movie)
        }
        self.movies = movies
        byID = Dictionary(uniqueKeysWithValues: movies.enumerated().map { ($1.id, $0) })
    }

    /// Gives some movies, picked by number so that the random choices stay as they were, the
    /// shapes TMDb uses for what it does not know, and an original title in another language.
    private static func addUnknowns(to movie: inout Movie, number: Int, referenceDate: Date) {
        if number % 10 == 3 {
            movie.originalLanguage = "ja"
            movie.originalTitle = japaneseTitles[(number / 10) % japaneseTitles.count]
        }
        if movie.releaseDate.isEmpty {
            movie.status = "Rumored"
            movie.voteCount = 0
            movie.voteAverage = 0
            movie.runtime = 0
        }
        if number % 25 == 4 {
            movie.releaseDate = day(referenceDate.addingTimeInterval(Double(number % 40 + 1) * 86_400))
            if number % 50 == 4 { movie.overview = "" }
        }
        if movie.releaseDate > day(referenceDate) {
            // Still to come: unrated, its length not yet known.
            movie.status = number % 2 == 0 ? "Post Production" : "In Production"
            movie.voteCount = 0
            movie.voteAverage = 0
            movie.runtime = 0
        }
        if number % 7 == 2, !movie.cast.isEmpty { movie.cast[movie.cast.count - 1].character = nil }
        if number % 7 == 5, !movie.cast.isEmpty { movie.cast[movie.cast.count - 1].character = "" }
        if number % 11 == 3 {
            movie.crew.append(
                Person(id: 9_800 + number, name: movie.crew[0].name, job: "", department: "Crew")
            )
        }
    }

    /// Original titles of the Japanese movies.
    static let japaneseTitles = ["銃夢", "静かな港", "最後の信号", "硝子の庭", "鉄の王国"]

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
        /// The HTTP status code.
        public var status: Int
        /// The JSON body.
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
    ///
    /// `language` serves a Japanese movie's original title as its title when it asks for
    /// Japanese; `region` is accepted and, as TMDb does where it has no regional dates, changes
    /// nothing.
    public func answer(_ path: String, query: [String: String], imageBaseURL: String) -> Answer {
        let parts = path.split(separator: "/").map(String.init)
        let today = Self.dayString(referenceDate)
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
            return page(
                movies.filter {
                    !$0.releaseDate.isEmpty && $0.releaseDate >= recent && $0.releaseDate <= today
                }
                .sorted { $0.releaseDate > $1.releaseDate },
                query: query,
                dates: DatesBody(maximum: today, minimum: recent)
            )
        case ["movie", "upcoming"]:
            let first = Self.dayString(referenceDate.addingTimeInterval(86_400))
            let last = Self.dayString(referenceDate.addingTimeInterval(42 * 86_400))
            return page(
                movies.filter { $0.releaseDate >= first && $0.releaseDate <= last }
                    .sorted { $0.popularity > $1.popularity },
                query: query,
                dates: DatesBody(maximum: last, minimum: first)
            )
        case ["search", "movie"]:
            let text = (query["query"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            let year = query["year"].flatMap(Int.init)
            let adult = query["include_adult"] == "true"
            let found =
                text.isEmpty
                ? []
                : movies.filter { movie in
                    (movie.title.lowercased().contains(text)
                        || movie.originalTitle.lowercased().contains(text))
                        && (adult || !movie.adult)
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
            return Answer(
                status: 200,
                body: Self.encode(
                    DetailsBody(movies[index], credits: withCredits, language: query["language"])
                )
            )
        default:
            return Self.notFound
        }
    }

    private func page(_ all: [Movie], query: [String: String], dates: DatesBody? = nil) -> Answer {
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
            dates: dates,
            page: number,
            results: visible[start..<min(start + 20, visible.count)].map {
                MovieBody($0, language: query["language"])
            },
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
        var original_language: String
        var video = false

        /// The movie as a list gives it, its title in `language` where the movie has one in it.
        init(_ movie: Movie, language: String?) {
            id = movie.id
            let asked = language?.split(separator: "-").first.map(String.init)
            title = asked == movie.originalLanguage ? movie.originalTitle : movie.title
            original_title = movie.originalTitle
            original_language = movie.originalLanguage
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

        enum CodingKeys: String, CodingKey {
            case id, title, original_title, overview, release_date, poster_path, backdrop_path
            case vote_average, vote_count, popularity, genre_ids, adult, original_language, video
        }

        /// Every field, a missing image as `null` as TMDb sends it.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(original_title, forKey: .original_title)
            try container.encode(overview, forKey: .overview)
            try container.encode(release_date, forKey: .release_date)
            try container.encode(poster_path, forKey: .poster_path)
            try container.encode(backdrop_path, forKey: .backdrop_path)
            try container.encode(vote_average, forKey: .vote_average)
            try container.encode(vote_count, forKey: .vote_count)
            try container.encode(popularity, forKey: .popularity)
            try container.encode(genre_ids, forKey: .genre_ids)
            try container.encode(adult, forKey: .adult)
            try container.encode(original_language, forKey: .original_language)
            try container.encode(video, forKey: .video)
        }
    }

    struct DatesBody: Encodable {
        var maximum: String
        var minimum: String
    }

    struct PageBody: Encodable {
        var dates: DatesBody?
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
        var status: String
        var imdbID: String?
        var credits: Credits?

        init(_ movie: Movie, credits: Bool, language: String?) {
            self.movie = MovieBody(movie, language: language)
            status = movie.status
            imdbID = movie.status == "Released" ? String(format: "tt%07d", movie.id) : nil
            genres = movie.genreIDs.compactMap { id in
                TMDbDataset.genres.first { $0.id == id }.map { GenreBody(id: $0.id, name: $0.name) }
            }
            runtime = movie.runtime
            tagline = movie.tagline
            self.credits = credits ? Credits(cast: movie.cast, crew: movie.crew) : nil
        }

        enum CodingKeys: String, CodingKey {
            case genres, runtime, tagline, status, credits, homepage
            case imdbID = "imdb_id"
            case collection = "belongs_to_collection"
        }

        /// What `movie/{id}` sends, `null` and empty fields included as TMDb sends them.
        func encode(to encoder: any Encoder) throws {
            try movie.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(genres, forKey: .genres)
            try container.encode(runtime, forKey: .runtime)
            try container.encode(tagline, forKey: .tagline)
            try container.encode(status, forKey: .status)
            try container.encode(imdbID, forKey: .imdbID)
            try container.encode("", forKey: .homepage)
            try container.encodeNil(forKey: .collection)
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
