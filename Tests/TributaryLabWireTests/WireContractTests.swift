import Foundation
import Testing
import TributaryLabWire
import TributaryStreams

/// Every body and message that crosses the lab's wire, against a fixed example of its JSON: the
/// example reads as the value expected, and the value writes as the example, byte for byte.
/// The lab, its Swift client, the command line and the pages all read and write these.
@Suite struct WireContractTests {
    static let id = DocumentID("Qm9vbGVhbnNBcmVGdW4xMg")!
    static let time = Date(timeIntervalSince1970: 1_795_759_451.125)
    static let timeText = "2026-11-27T06:04:11.125Z"
    static let documentText = #"{"schemaVersion":1,"streams":[{"id":"a","items":[{"value":1}]}]}"#
    static var document: StreamDocument { try! StreamDocument.decode(Data(documentText.utf8)) }
    static var shared: SharedDocument {
        SharedDocument(id: id, version: 3, updatedAt: time, author: "ada", document: document)
    }
    /// The members of ``shared`` and `more`, in the order the lab writes them: sorted.
    static func sharedFields(_ more: [String: String] = [:]) -> String {
        let members = [
            "author": #""ada""#, "document": encoded(document), "id": #""Qm9vbGVhbnNBcmVGdW4xMg""#,
            "updatedAt": #""\#(timeText)""#, "version": "3",
        ].merging(more) { $1 }
        return members.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",")
    }

    /// The document as the lab writes it, whatever members it adds to the example.
    static func encoded(_ document: StreamDocument) -> String {
        String(decoding: try! LabJSON.encoder.encode(document), as: UTF8.self)
    }

    func expect<Value: Codable & Equatable>(
        _ value: Value,
        writesAs json: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let written = String(decoding: try LabJSON.encoder.encode(value), as: UTF8.self)
        #expect(written == json, sourceLocation: sourceLocation)
        let read = try LabJSON.decoder.decode(Value.self, from: Data(json.utf8))
        #expect(read == value, sourceLocation: sourceLocation)
    }

    @Test func aSharedDocument() throws {
        try expect(Self.shared, writesAs: "{\(Self.sharedFields())}")
        #expect(Self.shared.title == "Qm9vbGVhbnNBcmVGdW4xMg")
    }

    @Test func theListAndTheVersions() throws {
        try expect(
            DocumentList(documents: [DocumentSummary(Self.shared)], nextCursor: "next"),
            writesAs:
                #"{"documents":[{"id":"Qm9vbGVhbnNBcmVGdW4xMg","title":"Qm9vbGVhbnNBcmVGdW4xMg","updatedAt":"\#(Self.timeText)","version":3}],"nextCursor":"next"}"#
        )
        try expect(DocumentList(documents: [], nextCursor: nil), writesAs: #"{"documents":[]}"#)
        try expect(
            DocumentVersions(versions: [DocumentVersion(number: 1, time: Self.time, author: "ada")]),
            writesAs: #"{"versions":[{"author":"ada","number":1,"time":"\#(Self.timeText)"}]}"#
        )
    }

    @Test func anError() throws {
        try expect(
            LabErrorBody(error: LabProblem(code: "invalidDocument", message: "No.", path: "$.streams[0]")),
            writesAs: #"{"error":{"code":"invalidDocument","message":"No.","path":"$.streams[0]"}}"#
        )
        try expect(
            LabErrorBody(error: LabProblem(code: "notFound", message: "There is no such document.")),
            writesAs: #"{"error":{"code":"notFound","message":"There is no such document."}}"#
        )
    }

    /// A live message carries a document's fields beside its `type`, as the REST answer does.
    @Test func theLiveMessages() throws {
        try expect(
            LiveServerMessage.snapshot(Self.shared, viewers: 2),
            writesAs: "{\(Self.sharedFields(["type": #""snapshot""#, "viewers": "2"]))}"
        )
        try expect(
            LiveServerMessage.snapshot(Self.shared, viewers: nil),
            writesAs: "{\(Self.sharedFields(["type": #""snapshot""#]))}"
        )
        try expect(
            LiveServerMessage.saved(Self.shared),
            writesAs: "{\(Self.sharedFields(["type": #""saved""#]))}"
        )
        try expect(
            LiveServerMessage.conflict(Self.shared),
            writesAs: "{\(Self.sharedFields(["type": #""conflict""#]))}"
        )
        try expect(
            LiveServerMessage.invalid(LabProblem(code: "tooLarge", message: "Too large.")),
            writesAs: #"{"error":{"code":"tooLarge","message":"Too large."},"type":"invalid"}"#
        )
        try expect(
            LiveServerMessage.presence(viewers: 3, names: ["Ada"]),
            writesAs: #"{"names":["Ada"],"type":"presence","viewers":3}"#
        )
        try expect(LiveServerMessage.deleted, writesAs: #"{"type":"deleted"}"#)
        try expect(LiveServerMessage.notFound, writesAs: #"{"type":"notFound"}"#)

        try expect(
            LiveClientMessage.save(baseVersion: 3, document: Self.document, author: "ada"),
            writesAs:
                #"{"author":"ada","baseVersion":3,"document":\#(Self.encoded(Self.document)),"type":"save"}"#
        )
        try expect(LiveClientMessage.resume(version: 4), writesAs: #"{"type":"resume","version":4}"#)
        try expect(LiveClientMessage.hello(name: "Ada"), writesAs: #"{"name":"Ada","type":"hello"}"#)
    }

    @Test func aMessageOfNoKnownTypeIsRefused() {
        #expect(throws: DecodingError.self) {
            try LabJSON.decoder.decode(LiveServerMessage.self, from: Data(#"{"type":"shout"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try LabJSON.decoder.decode(LiveClientMessage.self, from: Data(#"{"type":"delete"}"#.utf8))
        }
        // A document whose id is not an id does not read.
        #expect(throws: DecodingError.self) {
            try LabJSON.decoder.decode(
                SharedDocument.self,
                from: Data(
                    "{\(Self.sharedFields().replacingOccurrences(of: "Qm9vbGVhbnNBcmVGdW4xMg", with: "../x"))}"
                        .utf8
                )
            )
        }
    }

    @Test func theNewsSocket() throws {
        try expect(
            NewsSocket.Input(
                type: "input",
                feed: .init(kind: "category", country: "gb", category: "science"),
                searchText: "",
                seq: 4
            ),
            writesAs:
                #"{"feed":{"category":"science","country":"gb","kind":"category"},"searchText":"","seq":4,"type":"input"}"#
        )
        try expect(
            NewsSocket.Choices(countries: ["gb"], feeds: ["http://127.0.0.1/feeds/a.xml"]),
            writesAs: #"{"countries":["gb"],"feeds":["http://127.0.0.1/feeds/a.xml"],"type":"choices"}"#
        )
        let article = NewsSocket.Article(
            title: nil,
            url: "https://example.com/a",
            source: "Example",
            author: nil,
            publishedAt: Self.time,
            description: "Text.",
            image: nil
        )
        try expect(
            NewsSocket.Articles(
                seq: 4,
                state: "loaded",
                refreshing: false,
                loadingMore: false,
                searchText: "",
                unfinishedQuery: nil,
                articles: [article],
                error: nil,
                canLoadMore: true,
                totalResults: 21
            ),
            writesAs:
                #"{"articles":[{"description":"Text.","publishedAt":"\#(Self.timeText)","source":"Example","url":"https://example.com/a"}],"canLoadMore":true,"loadingMore":false,"refreshing":false,"searchText":"","seq":4,"state":"loaded","totalResults":21,"type":"articles"}"#
        )
        try expect(
            NewsSocket.Sources(
                seq: 2,
                state: "failed",
                sources: [
                    .init(id: "bbc", name: "BBC", description: nil, category: "general", country: "gb")
                ],
                error: "The server is down."
            ),
            writesAs:
                #"{"error":"The server is down.","seq":2,"sources":[{"category":"general","country":"gb","id":"bbc","name":"BBC"}],"state":"failed","type":"sources"}"#
        )
    }

    @Test func aRecordingSummary() throws {
        try expect(
            RecordingSummary(
                id: "Qm9vbGVhbnNBcmVGdW4xMg",
                name: "search",
                events: 12,
                dropped: 1,
                updatedAt: Self.time
            ),
            writesAs:
                #"{"dropped":1,"events":12,"id":"Qm9vbGVhbnNBcmVGdW4xMg","name":"search","updatedAt":"\#(Self.timeText)"}"#
        )
    }
}
