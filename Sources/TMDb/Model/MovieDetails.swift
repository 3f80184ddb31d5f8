import Foundation

/// A movie with everything `movie/{id}` gives, and its cast and crew when asked for with
/// `append_to_response=credits`.
public struct MovieDetails: Sendable, Hashable, Codable, Identifiable {
    /// Someone who plays in the movie.
    public struct CastMember: Sendable, Hashable, Codable, Identifiable {
        public var id: Int
        public var name: String
        public var character: String
        public var order: Int
        public var profilePath: String?

        enum CodingKeys: String, CodingKey {
            case id, name, character, order
            case profilePath = "profile_path"
        }
    }

    /// Someone who worked on the movie.
    public struct CrewMember: Sendable, Hashable, Codable {
        public var id: Int
        public var name: String
        public var job: String
        public var department: String
    }

    /// The cast and crew.
    public struct Credits: Sendable, Hashable, Codable {
        public var cast: [CastMember]
        public var crew: [CrewMember]
    }

    /// The fields the lists give too.
    public var movie: Movie
    public var genres: [Genre]
    /// The running time in minutes.
    public var runtime: Int?
    public var tagline: String?
    public var status: String?
    /// The cast and crew, when they were asked for.
    public var credits: Credits?

    public var id: Int { movie.id }

    /// The people credited as directors.
    public var directors: [String] {
        credits?.crew.filter { $0.job == "Director" }.map(\.name) ?? []
    }

    enum CodingKeys: String, CodingKey {
        case genres, runtime, tagline, status, credits
    }

    public init(from decoder: any Decoder) throws {
        movie = try Movie(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        genres = try container.decodeIfPresent([Genre].self, forKey: .genres) ?? []
        runtime = try container.decodeIfPresent(Int.self, forKey: .runtime)
        tagline = try container.decodeIfPresent(String.self, forKey: .tagline)
        status = try container.decodeIfPresent(String.self, forKey: .status)
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
        try container.encodeIfPresent(credits, forKey: .credits)
    }
}

/// What `configuration` says about images: where they live and the sizes they come in.
public struct TMDbConfiguration: Sendable, Hashable, Codable {
    public struct Images: Sendable, Hashable, Codable {
        public var baseURL: String
        public var secureBaseURL: String
        public var posterSizes: [String]
        public var backdropSizes: [String]
        public var profileSizes: [String]

        enum CodingKeys: String, CodingKey {
            case baseURL = "base_url"
            case secureBaseURL = "secure_base_url"
            case posterSizes = "poster_sizes"
            case backdropSizes = "backdrop_sizes"
            case profileSizes = "profile_sizes"
        }
    }

    public var images: Images
}
