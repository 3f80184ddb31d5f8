import Foundation
import TributaryHTTP

/// A movie with everything `movie/{id}` gives, and its cast and crew when asked for with
/// `append_to_response=credits`.
///
/// TMDb's "unknown" reads as unknown: a `runtime` of 0 or `null` is no runtime, an empty
/// tagline no tagline; a cast or crew row that does not decode is left out rather than failing
/// the movie.
public struct MovieDetails: Sendable, Hashable, Codable, Identifiable {
    /// Someone who plays in the movie.
    public struct CastMember: Sendable, Hashable, Codable, Identifiable {
        public var id: Int
        /// The actor's name.
        public var name: String
        /// Whom they play; nil when TMDb does not know (it sends `null` or `""`).
        public var character: String?
        /// Where they come in the billing, from 0.
        public var order: Int?
        /// The path of the actor's profile picture, for ``TMDbImages``; nil when there is none.
        public var profilePath: String?

        /// Creates a cast member.
        public init(
            id: Int,
            name: String,
            character: String? = nil,
            order: Int? = nil,
            profilePath: String? = nil
        ) {
            self.id = id
            self.name = name
            self.character = character
            self.order = order
            self.profilePath = profilePath
        }

        enum CodingKeys: String, CodingKey {
            case id, name, character, order
            case profilePath = "profile_path"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
            character = try TMDbText.decode(container, forKey: .character)
            order = try container.decodeIfPresent(Int.self, forKey: .order)
            profilePath = try TMDbText.decode(container, forKey: .profilePath)
        }
    }

    /// Someone who worked on the movie.
    public struct CrewMember: Sendable, Hashable, Codable {
        /// The person's TMDb id.
        public var id: Int
        /// The person's name.
        public var name: String
        /// What they did, such as "Director"; nil when TMDb does not say.
        public var job: String?
        /// Their department, such as "Directing"; nil when TMDb does not say.
        public var department: String?
        /// The path of the person's profile picture, for ``TMDbImages``; nil when there is none.
        public var profilePath: String?

        /// Creates a crew member.
        public init(
            id: Int,
            name: String,
            job: String? = nil,
            department: String? = nil,
            profilePath: String? = nil
        ) {
            self.id = id
            self.name = name
            self.job = job
            self.department = department
            self.profilePath = profilePath
        }

        enum CodingKeys: String, CodingKey {
            case id, name, job, department
            case profilePath = "profile_path"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
            job = try TMDbText.decode(container, forKey: .job)
            department = try TMDbText.decode(container, forKey: .department)
            profilePath = try TMDbText.decode(container, forKey: .profilePath)
        }
    }

    /// The cast and crew.
    public struct Credits: Sendable, Hashable, Codable {
        /// The people who play in the movie, in TMDb's order.
        public var cast: [CastMember]
        /// The people who worked on the movie.
        public var crew: [CrewMember]

        /// Creates credits.
        public init(cast: [CastMember], crew: [CrewMember]) {
            self.cast = cast
            self.crew = crew
        }

        /// The cast in billing order; those without an order come last, as TMDb lists them.
        public var billedCast: [CastMember] {
            cast.enumerated().sorted {
                ($0.element.order ?? .max, $0.offset) < ($1.element.order ?? .max, $1.offset)
            }
            .map(\.element)
        }

        enum CodingKeys: String, CodingKey {
            case cast, crew
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            cast = try container.decodeIfPresent(LossyList<CastMember>.self, forKey: .cast)?.elements ?? []
            crew = try container.decodeIfPresent(LossyList<CrewMember>.self, forKey: .crew)?.elements ?? []
        }
    }

    /// The fields the lists give too.
    public var movie: Movie
    /// The movie's genres, with their names.
    public var genres: [Genre]
    /// The running time in minutes; nil when TMDb does not know it (it sends 0 or `null`).
    public var runtime: Int?
    /// The tagline; nil when there is none.
    public var tagline: String?
    /// Where the movie stands: "Rumored", "Planned", "In Production", "Post Production",
    /// "Released" or "Canceled".
    public var status: String?
    /// The movie's IMDb id, such as `tt0437086`.
    public var imdbID: String?
    /// The cast and crew, when they were asked for.
    public var credits: Credits?

    public var id: Int { movie.id }

    /// The people credited as directors.
    public var directors: [String] {
        credits?.crew.filter { $0.job == "Director" }.map(\.name) ?? []
    }

    enum CodingKeys: String, CodingKey {
        case genres, runtime, tagline, status, credits
        case imdbID = "imdb_id"
    }

    public init(from decoder: any Decoder) throws {
        movie = try Movie(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        genres = (try? container.decodeIfPresent(LossyList<Genre>.self, forKey: .genres))?.elements ?? []
        runtime = try container.decodeIfPresent(Int.self, forKey: .runtime).flatMap { $0 > 0 ? $0 : nil }
        tagline = try TMDbText.decode(container, forKey: .tagline)
        status = try TMDbText.decode(container, forKey: .status)
        imdbID = try TMDbText.decode(container, forKey: .imdbID)
        credits = try container.decodeIfPresent(Credits.self, forKey: .credits)
        movie.genreIDs = movie.genreIDs.isEmpty ? genres.map(\.id) : movie.genreIDs
    }

    public func encode(to encoder: any Encoder) throws {
        try movie.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(genres, forKey: .genres)
        try container.encodeIfPresent(runtime, forKey: .runtime)
        try container.encodeIfPresent(tagline, forKey: .tagline)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(imdbID, forKey: .imdbID)
        try container.encodeIfPresent(credits, forKey: .credits)
    }
}

/// TMDb's optional text: `null`, missing and `""` all mean there is none.
enum TMDbText {
    static func decode<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws -> String? {
        try container.decodeIfPresent(String.self, forKey: key).flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// What `configuration` says about images: where they live and the sizes they come in.
public struct TMDbConfiguration: Sendable, Hashable, Codable {
    /// Where images live and the sizes they come in.
    public struct Images: Sendable, Hashable, Codable {
        /// The HTTP URL that image paths follow, after a size.
        public var baseURL: String
        /// The HTTPS URL that image paths follow, after a size.
        public var secureBaseURL: String
        /// The sizes posters come in, such as `w342` and `original`.
        public var posterSizes: [String]
        /// The sizes backdrops come in, such as `w780` and `original`.
        public var backdropSizes: [String]
        /// The sizes profile pictures come in, such as `w185` and `original`.
        public var profileSizes: [String]

        enum CodingKeys: String, CodingKey {
            case baseURL = "base_url"
            case secureBaseURL = "secure_base_url"
            case posterSizes = "poster_sizes"
            case backdropSizes = "backdrop_sizes"
            case profileSizes = "profile_sizes"
        }
    }

    /// Where images live and the sizes they come in.
    public var images: Images
}
