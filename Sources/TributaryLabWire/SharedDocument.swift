public import Foundation
public import TributaryStreams

/// A version of a shared document, as the lab stores it, answers it and sends it to viewers.
///
/// ```json
/// {"author":"ada","document":{…},"id":"Qm9vbGVhbnNBcmVGdW4xMg","updatedAt":"2026-11-27T06:04:11.120Z","version":3}
/// ```
public struct SharedDocument: Sendable, Hashable, Codable {
    /// The document's id, which is its share link.
    public var id: DocumentID
    /// The version, counting saves from 1.
    public var version: Int
    /// When the version was saved.
    public var updatedAt: Date
    /// Who saved the version: a name of at most 64 characters, or "anonymous".
    public var author: String
    /// The document.
    public var document: StreamDocument

    /// Makes a version of a shared document.
    ///
    /// - Parameters:
    ///   - id: The document's id.
    ///   - version: The version, counting saves from 1.
    ///   - updatedAt: When the version was saved.
    ///   - author: Who saved the version.
    ///   - document: The document.
    public init(id: DocumentID, version: Int, updatedAt: Date, author: String, document: StreamDocument) {
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.author = author
        self.document = document
    }

    /// The document's name, or its id.
    public var title: String { document.name ?? id.description }
}

/// A document as `GET /api/streams` lists it, without its streams.
public struct DocumentSummary: Sendable, Hashable, Codable {
    /// The document's id, which is its share link.
    public var id: DocumentID
    /// The document's name, or its id.
    public var title: String
    /// Its latest version.
    public var version: Int
    /// When its latest version was saved.
    public var updatedAt: Date

    /// Makes a document's summary.
    ///
    /// - Parameters:
    ///   - id: The document's id.
    ///   - title: The document's name, or its id.
    ///   - version: Its latest version.
    ///   - updatedAt: When its latest version was saved.
    public init(id: DocumentID, title: String, version: Int, updatedAt: Date) {
        self.id = id
        self.title = title
        self.version = version
        self.updatedAt = updatedAt
    }

    /// Summarises a version of a shared document: its id, title, version and time.
    public init(_ shared: SharedDocument) {
        self.init(id: shared.id, title: shared.title, version: shared.version, updatedAt: shared.updatedAt)
    }
}

/// A page of `GET /api/streams?limit=N&cursor=C`: the documents most recently saved first.
///
/// ```json
/// {"documents":[{"id":"…","title":"Search","updatedAt":"…","version":3}],"nextCursor":"…"}
/// ```
public struct DocumentList: Sendable, Hashable, Codable {
    /// The page's documents, the most recently saved first.
    public var documents: [DocumentSummary]
    /// The `cursor` of the next page; absent on the last.
    public var nextCursor: String?

    /// Makes a page of the list.
    ///
    /// - Parameters:
    ///   - documents: The page's documents, the most recently saved first.
    ///   - nextCursor: The `cursor` of the next page, or nil on the last.
    public init(documents: [DocumentSummary], nextCursor: String?) {
        self.documents = documents
        self.nextCursor = nextCursor
    }
}

/// One saved version of a document, without the document.
public struct DocumentVersion: Sendable, Hashable, Codable {
    /// The version, counting saves from 1.
    public var number: Int
    /// When it was saved.
    public var time: Date
    /// Who saved it.
    public var author: String

    /// Makes the record of a saved version.
    ///
    /// - Parameters:
    ///   - number: The version, counting saves from 1.
    ///   - time: When it was saved.
    ///   - author: Who saved it.
    public init(number: Int, time: Date, author: String) {
        self.number = number
        self.time = time
        self.author = author
    }
}

/// The answer of `GET /api/streams/{id}/versions`: every version, oldest first.
///
/// ```json
/// {"versions":[{"author":"ada","number":1,"time":"2026-11-27T06:04:11.120Z"}]}
/// ```
public struct DocumentVersions: Sendable, Hashable, Codable {
    /// Every version of the document, oldest first.
    public var versions: [DocumentVersion]

    /// Makes the answer from `versions`, oldest first.
    public init(versions: [DocumentVersion]) { self.versions = versions }
}

/// Why the lab refused a request or a message, with the JSON path of the problem where there
/// is one.
public struct LabProblem: Sendable, Hashable, Codable {
    /// A stable word for the kind of problem, such as `invalidDocument`.
    public var code: String
    /// A sentence a person can act on.
    public var message: String
    /// Where in the document, as `$.streams[0].items`, when the problem has a place.
    public var path: String?

    /// Makes a problem.
    ///
    /// - Parameters:
    ///   - code: A stable word for the kind of problem, such as `invalidDocument`.
    ///   - message: A sentence a person can act on.
    ///   - path: Where in the document the problem is, as `$.streams[0].items`, if it has a place.
    public init(code: String, message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }
}

/// The body of every error the lab's API answers with.
///
/// ```json
/// {"error":{"code":"invalidDocument","message":"…","path":"$.streams[0].items"}}
/// ```
public struct LabErrorBody: Sendable, Hashable, Codable {
    /// What went wrong.
    public var error: LabProblem

    /// Wraps `error` as the body of an error answer.
    public init(error: LabProblem) { self.error = error }
}

/// The lab's JSON, for both its ends: sorted keys and ISO 8601 times in UTC with milliseconds
/// and a `Z`, which every reader takes as UTC rather than as local time.
public enum LabJSON {
    /// Writes what the lab sends.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(time))
        }
        return encoder
    }()

    /// Reads what the lab sends.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            let date = (try? time.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
            guard let date else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "\(text) is not an ISO 8601 time."
                )
            }
            return date
        }
        return decoder
    }()

    private static let time = Date.ISO8601FormatStyle().year().month().day()
        .time(includingFractionalSeconds: true).timeZone(separator: .omitted)
}
