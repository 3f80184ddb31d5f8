public import TributaryStreams

/// What the lab sends a viewer of `GET /api/streams/{id}/live`, as JSON text with a `type`.
///
/// ```json
/// {"type":"snapshot","id":"…","version":3,"updatedAt":"…","author":"ada","document":{…},"viewers":2}
/// {"type":"saved","id":"…","version":4,"updatedAt":"…","author":"ada","document":{…}}
/// {"type":"presence","viewers":3,"names":["Ada","Grace"]}
/// ```
///
/// The lab and `TributaryLabClient` share these types, so the two cannot disagree on a field.
public enum LiveServerMessage: Sendable, Equatable {
    /// The document as it is when the viewer joins, or when it resumes behind; how many view it
    /// comes with it or in the `presence` that follows.
    case snapshot(SharedDocument, viewers: Int?)
    /// Someone saved a new version.
    case saved(SharedDocument)
    /// The viewer's save was based on an older version than the one given, which is the
    /// document now.
    case conflict(SharedDocument)
    /// The viewer's message was refused, and nothing changed.
    case invalid(LabProblem)
    /// How many view the document now, and the names of those who gave one.
    case presence(viewers: Int, names: [String])
    /// The document was deleted; the connection ends.
    case deleted
    /// There is no such document; the connection ends.
    case notFound
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
        case type, viewers, error, names
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        // A document's fields sit beside `type`, as in the REST API's answers.
        case "snapshot":
            self = .snapshot(
                try SharedDocument(from: decoder),
                viewers: try container.decodeIfPresent(Int.self, forKey: .viewers)
            )
        case "saved": self = .saved(try SharedDocument(from: decoder))
        case "conflict": self = .conflict(try SharedDocument(from: decoder))
        case "invalid": self = .invalid(try container.decode(LabProblem.self, forKey: .error))
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
        case .snapshot(let shared, let viewers):
            try container.encode("snapshot", forKey: .type)
            try shared.encode(to: encoder)
            try container.encodeIfPresent(viewers, forKey: .viewers)
        case .saved(let shared):
            try container.encode("saved", forKey: .type)
            try shared.encode(to: encoder)
        case .conflict(let shared):
            try container.encode("conflict", forKey: .type)
            try shared.encode(to: encoder)
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
