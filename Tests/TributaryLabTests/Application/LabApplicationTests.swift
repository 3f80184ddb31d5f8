import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TributaryLab
import TributaryLabWire
import TributaryStreams

/// The lab's application driven through Hummingbird's own test framework, without a socket.
@Suite(.timeLimit(.minutes(5)))
struct LabApplicationTests {
    /// A store whose database has failed, with a detail nobody outside should read.
    struct FailedStore: DocumentStore {
        static let detail = "disk I/O error at /var/lib/secret/lab.sqlite"
        var failure: DocumentStoreError { .storage(Self.detail) }

        func create(
            _ document: StreamDocument,
            author: String
        ) async throws(DocumentStoreError) -> SharedDocument {
            throw failure
        }
        func document(_ id: DocumentID) async throws(DocumentStoreError) -> SharedDocument { throw failure }
        func save(
            _ id: DocumentID,
            document: StreamDocument,
            baseVersion: Int,
            author: String
        ) async throws(DocumentStoreError) -> SharedDocument { throw failure }
        func delete(_ id: DocumentID) async throws(DocumentStoreError) { throw failure }
        func list(limit: Int, after cursor: String?) async throws(DocumentStoreError) -> DocumentPage {
            throw failure
        }
        func versions(_ id: DocumentID) async throws(DocumentStoreError) -> [DocumentVersion] {
            throw failure
        }
        func version(_ id: DocumentID, number: Int) async throws(DocumentStoreError) -> SharedDocument {
            throw failure
        }
    }

    static let token = "application-token-0123456789"
    static let bearer: HTTPFields = [.authorization: "Bearer \(token)"]

    /// The database's own words stay in the log: the answer names the request, whose id the
    /// log has beside the detail.
    @Test func answersAFailedDatabaseWithoutItsDetail() async throws {
        let app = LabServer(store: FailedStore(), token: Self.token).buildApplication()
        try await app.test(.router) { client in
            for (method, path) in [
                (HTTPRequest.Method.get, "/api/streams"), (.get, "/api/streams/AAAAAAAAAAAAAAAAAAAAAA"),
            ] {
                try await client.execute(uri: path, method: method, headers: Self.bearer) { response in
                    #expect(response.status == .internalServerError)
                    let text = String(buffer: response.body)
                    #expect(text.contains("\"storage\"") && text.contains("request"))
                    #expect(!text.contains("secret") && !text.contains("disk I/O"))
                }
            }
        }
    }

    @Test func refusesWhatNeedsTheTokenAndWhatIsNotJSON() async throws {
        let app = LabServer(store: FailedStore(), token: Self.token).buildApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/run", method: .post, body: ByteBuffer(string: "{}")) {
                response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            }
            var plain = Self.bearer
            plain[.contentType] = "text/plain"
            try await client.execute(
                uri: "/api/run",
                method: .post,
                headers: plain,
                body: ByteBuffer(string: "{}")
            ) {
                #expect($0.status == .unsupportedMediaType)
            }
            try await client.execute(uri: "/api/health", method: .get) { #expect($0.status == .ok) }
        }
    }
}
