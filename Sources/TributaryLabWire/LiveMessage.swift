public import TributaryStreams

/// What the lab sends a viewer of `GET /api/streams/{id}/live`, as JSON text with a `type`.
///
/// ```json
/// {"type":"snapshot","version":3,"document":{…},"viewers":2}
/// {"type":"saved","version":4,"document":{…},"author":"ada"}
/// {"type":"presence","viewers":3,"names":["Ada","Grace"]}
/// ```
///
/// The lab and ``TributaryLabClient`` share these types, so the two cannot disagree on a field.
public enum LiveServerMessage: Sendable, Equatable {
    /// The document as it is when the viewer joins, or when it resumes behind; how many view it
    /// comes with it or in the `presence` that follows.
    case snapshot(version: Int, document: StreamDocument, viewers: Int?)
    /// Someone saved a new version.
    case saved(version: Int, document: StreamDocument, author: String)
    /// The viewer's save was based on an older version than `version`, which is the document now.
    case conflict(version: Int, document: StreamDocument)
    /// The viewer's message was refused, and nothing changed.
    case invalid(LiveProblem)
    /// How many view the document now, and the names of those who gave one.
    case presence(viewers: Int, names: [String])
    /// The document was deleted; the connection ends.
    case deleted
    /// There is no such document; the connection ends.
    case notFound
}

/// Why the lab refused a message, with the JSON path of the problem where there is one.
public struct LiveProblem: Sendable, Equatable, Codable {
    /// A stable word for the kind of problem, such as `invalidDocument`.
    public var code: String
    /// A sentence a person can act on.
    public var message: String
    /// Where in the document, as `$.streams[0].items`, when the problem has a place.
    public var path: String?

    public init(code: String, message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }
}

/// What a viewer sends the lab on a live connection.
public enum LiveClientMessage: Sendable, Equatable {
    /// Save `document` as the version after `baseVersion`; needs the token or the session.
    case save(baseVersion: Int, document: StreamDocument, author: String?)
    /// The viewer has `version`; the lab sends a snapshot only if a newer one exists.
    case resume(version: Int)
    /// The viewer's display name, shown to the others in `presence`; plain text of at most 64
    /// characters.
    case hello(name: String)
}

extension LiveServerMessage: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, version, document, viewers, author, error, names
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "snapshot":
            self = .snapshot(
                version: try container.decode(Int.self, forKey: .version),
                document: try container.decode(StreamDocument.self, forKey: .document),
                viewers: try container.decodeIfPresent(Int.self, forKey: .viewers)
            )
        case "saved":
            self = .saved(
                version: try container.decode(Int.self, forKey: .version),
                document: try container.decode(StreamDocument.self, forKey: .document),
                author: try container.decodeIfPresent(String.self, forKey: .author) ?? ""
            )
        case "conflict":
            self = .conflict(
                version: try container.decode(Int.self, forKey: .version),
                document: try container.decode(StreamDocument.self, forKey: .document)
            )
        case "invalid": self = .invalid(try container.decode(LiveProblem.self, forKey: .error))
        case "presence":
            self = .presence(
                viewers: try container.decode(Int.self, forKey: .viewers),
                names: try container.decodeIfPresent([String].self, forKey: .names) ?? []
            )
        case "deleted": self = .deleted
        case "notFound": self = .notFound
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type,
                in: container,
                debugDescription: "There is no message of type \"\(type)\"."
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .snapshot(let version, let document, let viewers):
            try container.encode("snapshot", forKey: .type)
            try container.encode(version, forKey: .version)
            try container.encode(document, forKey: .document)
            try container.encodeIfPresent(viewers, forKey: .viewers)
        case .saved(let version, let document, let author):
            try container.encode("saved", forKey: .type)
            try container.encode(version, forKey: .version)
            try container.encode(document, forKey: .document)
            try container.encode(author, forKey: .author)
        case .conflict(let version, let document):
            try container.encode("conflict", forKey: .type)
            try container.encode(version, forKey: .version)
            try container.encode(document, forKey: .document)
        case .invalid(let problem):
            try container.encode("invalid", forKey: .type)
            try container.encode(problem, forKey: .error)
        case .presence(let viewers, let names):
            try container.encode("presence", forKey: .type)
            try container.encode(viewers, forKey: .viewers)
            try container.encode(names, forKey: .names)
        case .deleted: try container.encode("deleted", forKey: .type)
        case .notFound: try container.encode("notFound", forKey: .type)
        }
    }
}

extension LiveClientMessage: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, baseVersion, document, author, version, name
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "save":
            self = .save(
                baseVersion: try container.decode(Int.self, forKey: .baseVersion),
                document: try container.decode(StreamDocument.self, forKey: .document),
                author: try container.decodeIfPresent(String.self, forKey: .author)
            )
        case "resume":
            self = .resume(version: try container.decode(Int.self, forKey: .version))
        case "hello":
            self = .hello(name: try container.decode(String.self, forKey: .name))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type,
                in: container,
                debugDescription: "There is no message of type \"\(type)\"."
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .save(let baseVersion, let document, let author):
            try container.encode("save", forKey: .type)
            try container.encode(baseVersion, forKey: .baseVersion)
            try container.encode(document, forKey: .document)
            try container.encodeIfPresent(author, forKey: .author)
        case .resume(let version):
            try container.encode("resume", forKey: .type)
            try container.encode(version, forKey: .version)
        case .hello(let name):
            try container.encode("hello", forKey: .type)
            try container.encode(name, forKey: .name)
        }
    }
}
