import Foundation
import HTTPTypes
import Testing
import TributaryLab
import TributaryLabWire

/// Every route of the lab's API and every error, against a real server on loopback and a real
/// SQLite file.
@Suite(.timeLimit(.minutes(5)))
struct LabAPITests {
    @Test func answersItsHealthWithoutAToken() async throws {
        try await withLab { lab in
            let health = try await lab.send(.get, "/api/health", authorized: false)
            #expect(health.status == 200 && health.json["status"] as? String == "ok")
        }
    }

    /// HEAD is answered wherever GET is: the same status and headers, no body.
    @Test func answersHeadLikeGetWithoutTheBody() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Headed"))
            let id = try #require(created.json["id"] as? String)
            for path in ["/api/health", "/api/streams/\(id)", "/"] {
                let get = try await lab.send(.get, path)
                let head = try await lab.send(.head, path)
                #expect(get.status == 200 && head.status == 200, "\(path)")
                #expect(head.body.isEmpty && !get.body.isEmpty, "\(path)")
                #expect(head.headers[.contentLength] == "\(get.body.count)", "\(path)")
                #expect(head.headers[.eTag] == get.headers[.eTag], "\(path)")
            }
            #expect(try await lab.send(.head, "/api/streams/AAAAAAAAAAAAAAAAAAAAAA").status == 404)
        }
    }

    @Test func createsReadsSavesAndKeepsEveryVersion() async throws {
        try await withLab { lab in
            let created = try await lab.send(
                .post,
                "/api/streams",
                body: document(named: "First"),
                headers: [HTTPField.Name("X-Author")!: "ada"]
            )
            #expect(created.status == 201)
            let id = try #require(created.json["id"] as? String)
            #expect(id.count == 22)
            #expect(created.headers[.location] == "/api/streams/\(id)")
            #expect(created.headers[.eTag] == "\"1\"")
            #expect(created.json["version"] as? Int == 1 && created.json["author"] as? String == "ada")

            // Reading needs only the id, which is the share link.
            let read = try await lab.send(.get, "/api/streams/\(id)", authorized: false)
            #expect(read.status == 200 && read.headers[.eTag] == "\"1\"")
            #expect((read.json["document"] as? [String: Any])?["name"] as? String == "First")
            let unchanged = try await lab.send(
                .get,
                "/api/streams/\(id)",
                authorized: false,
                headers: [.ifNoneMatch: "\"1\""]
            )
            #expect(unchanged.status == 304 && unchanged.body.isEmpty)

            let saved = try await lab.send(
                .put,
                "/api/streams/\(id)",
                body: document(named: "Second"),
                headers: [.ifMatch: "\"1\""]
            )
            #expect(
                saved.status == 200 && saved.json["version"] as? Int == 2 && saved.headers[.eTag] == "\"2\""
            )

            // A save based on version 1 comes too late: it gets the current document, not a
            // silent overwrite.
            let stale = try await lab.send(
                .put,
                "/api/streams/\(id)",
                body: document(named: "Late"),
                headers: [.ifMatch: "\"1\""]
            )
            #expect(stale.status == 412 && stale.json["version"] as? Int == 2)
            #expect((stale.json["document"] as? [String: Any])?["name"] as? String == "Second")
            let unnamed = try await lab.send(.put, "/api/streams/\(id)", body: document(named: "No base"))
            #expect(unnamed.status == 428 && unnamed.errorCode == "versionRequired")

            let versions = try await lab.send(.get, "/api/streams/\(id)/versions", authorized: false)
            let list = try #require(versions.json["versions"] as? [[String: Any]])
            #expect(list.map { $0["number"] as? Int } == [1, 2])
            #expect(list.first?["author"] as? String == "ada")
            let first = try await lab.send(.get, "/api/streams/\(id)/versions/1", authorized: false)
            #expect((first.json["document"] as? [String: Any])?["name"] as? String == "First")
            #expect(first.headers[.eTag] == "\"1\"")
            // Read again, it is the same answer, kept rather than made again.
            #expect(
                try await lab.send(.get, "/api/streams/\(id)/versions/1", authorized: false).body
                    == first.body
            )
            let beyond = try await lab.send(.get, "/api/streams/\(id)/versions/9", authorized: false)
            #expect(beyond.status == 404 && beyond.errorMessage.contains("its versions are 1 to 2"))

            // Restoring is putting an old version back: it becomes version 3.
            let restored = try await lab.send(
                .put,
                "/api/streams/\(id)",
                body: try JSONSerialization.data(withJSONObject: first.json["document"] as Any),
                headers: [.ifMatch: "\"2\""]
            )
            #expect(restored.status == 200 && restored.json["version"] as? Int == 3)

            let deleted = try await lab.send(.delete, "/api/streams/\(id)")
            #expect(deleted.status == 204)
            #expect(try await lab.send(.get, "/api/streams/\(id)").status == 404)
            #expect(try await lab.send(.get, "/api/streams/\(id)/versions").status == 404)
            // A version kept for readers goes with its document.
            #expect(
                try await lab.send(.get, "/api/streams/\(id)/versions/1", authorized: false).status == 404
            )
        }
    }

    /// A version is named as the lab writes it — digits from 1 — in a path and in `If-Match`:
    /// `01`, `+1` and `+2` name none.
    @Test func namesVersionsOnlyAsTheLabWritesThem() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Numbered"))
            let id = try #require(created.json["id"] as? String)
            #expect(
                try await lab.send(.get, "/api/streams/\(id)/versions/1", authorized: false).status == 200
            )
            for path in ["01", "+1", "0", "1.0"] {
                #expect(
                    try await lab.send(.get, "/api/streams/\(id)/versions/\(path)", authorized: false).status
                        == 404
                )
            }
            let signed = try await lab.send(
                .put,
                "/api/streams/\(id)",
                body: document(named: "Signed"),
                headers: [.ifMatch: "\"+1\""]
            )
            // A tag, but of no version: the save is stale.
            #expect(signed.status == 412)
        }
    }

    /// A page on another site may send its visitor to a link but gets nothing it can read: a
    /// read is answered without a CORS header, and a route that needs a credential refuses the
    /// foreign `Origin`.
    @Test func givesAnotherSitesPageNothingItCanRead() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Linked"))
            let id = try #require(created.json["id"] as? String)
            let foreign: HTTPFields = [.origin: "https://evil.example"]
            let read = try await lab.send(.get, "/api/streams/\(id)", authorized: false, headers: foreign)
            #expect(read.status == 200 && read.headers[.accessControlAllowOrigin] == nil)
            let listed = try await lab.send(.get, "/api/streams", headers: foreign)
            #expect(listed.status == 403 && listed.errorCode == "foreignOrigin")
        }
    }

    /// `If-Match` and `If-None-Match` are read as lists of entity tags, `*` among them: a list
    /// with anything else in it is no list, and a save is refused rather than read in part.
    @Test func readsPreconditionsAsListsOfEntityTags() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Tagged"))
            let id = try #require(created.json["id"] as? String)
            let read = { @Sendable (condition: String) in
                try await lab.send(
                    .get,
                    "/api/streams/\(id)",
                    authorized: false,
                    headers: [.ifNoneMatch: condition]
                )
            }
            let save = { @Sendable (condition: String) in
                try await lab.send(
                    .put,
                    "/api/streams/\(id)",
                    body: document(named: "Saved"),
                    headers: [.ifMatch: condition]
                )
            }
            for value in ["*", " * ", "\"1\"", "W/\"1\"", "\"x\", \"1\"", ", \"1\" ,"] {
                #expect(try await read(value).status == 304, "\(value)")
            }
            for value in ["\"2\"", "\"1\" junk", "1", "\"1"] {
                #expect(try await read(value).status == 200, "\(value)")
            }
            for value in ["\"1\", junk", "\"1\" \"2\"", "\"1\", W/2"] {
                let refused = try await save(value)
                #expect(refused.status == 400 && refused.errorCode == "badVersion", "\(value)")
            }
            // Tags of no version, and weak ones, which If-Match never matches: stale.
            for value in ["\"x\"", "W/\"1\"", "\"2\""] {
                let stale = try await save(value)
                #expect(stale.status == 412 && stale.json["version"] as? Int == 1, "\(value)")
            }
            // Any tag of the list naming the latest version matches.
            let saved = try await save("\"x\", \"1\", \"999\"")
            #expect(saved.status == 200 && saved.json["version"] as? Int == 2)
        }
    }

    /// A name sent in UTF-8 is the name kept, not its bytes read one by one.
    @Test func creditsASaveToTheNameAsItWasSent() async throws {
        try await withLab { lab in
            let created = try await lab.send(
                .post,
                "/api/streams",
                body: document(named: "Named"),
                headers: [.init("X-Author")!: "Zoë Åström"]
            )
            let id = try #require(created.json["id"] as? String)
            let versions = try await lab.send(.get, "/api/streams/\(id)/versions", authorized: false)
            let list = try #require(versions.json["versions"] as? [[String: Any]])
            #expect(list.first?["author"] as? String == "Zoë Åström")
        }
    }

    @Test func listsNewestFirstInPages() async throws {
        try await withLab { lab in
            var ids: [String] = []
            for index in 0..<5 {
                let created = try await lab.send(.post, "/api/streams", body: document(named: "Doc \(index)"))
                ids.append(try #require(created.json["id"] as? String))
            }
            var seen: [String] = []
            var cursor: String?
            repeat {
                let path = "/api/streams?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await lab.send(.get, path)
                #expect(page.status == 200)
                let documents = try #require(page.json["documents"] as? [[String: Any]])
                #expect(documents.count <= 2)
                seen += documents.compactMap { $0["id"] as? String }
                #expect(documents.allSatisfy { $0["title"] is String && $0["version"] as? Int == 1 })
                cursor = page.json["nextCursor"] as? String
            } while cursor != nil
            #expect(seen == ids.reversed())
            #expect(try await lab.send(.get, "/api/streams?cursor=forged").status == 400)
            #expect(try await lab.send(.get, "/api/streams?limit=0").status == 400)
        }
    }

    /// Without the token, nothing is written and nothing is listed.
    @Test func refusesWritesWithoutTheToken() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Mine"))
            let id = try #require(created.json["id"] as? String)
            for (method, path) in [
                (HTTPRequest.Method.post, "/api/streams"), (.put, "/api/streams/\(id)"),
                (.delete, "/api/streams/\(id)"),
                (.get, "/api/streams"),
            ] {
                let refused = try await lab.send(
                    method,
                    path,
                    body: document(named: "Theirs"),
                    authorized: false,
                    headers: [.ifMatch: "\"1\""]
                )
                #expect(refused.status == 401 && refused.errorCode == "unauthorized", "\(method) \(path)")
                let forged = try await lab.send(
                    method,
                    path,
                    body: document(named: "Theirs"),
                    authorized: false,
                    headers: [.authorization: "Bearer test-token-0123456788", .ifMatch: "\"1\""]
                )
                #expect(forged.status == 401, "\(method) \(path)")
            }
            let kept = try await lab.send(.get, "/api/streams/\(id)")
            #expect(kept.json["version"] as? Int == 1)
            #expect((kept.json["document"] as? [String: Any])?["name"] as? String == "Mine")
        }
    }

    /// Bad input gets a typed error and changes nothing.
    @Test func refusesWhatIsNotAValidDocument() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Good"))
            let id = try #require(created.json["id"] as? String)
            let malformed = try await lab.send(
                .post,
                "/api/streams",
                body: Data("{\"schemaVersion\": 1,".utf8)
            )
            #expect(malformed.status == 400 && malformed.errorCode == "malformedJSON")
            var broken = String(decoding: document(named: "Broken"), as: UTF8.self)
            broken = broken.replacingOccurrences(of: "$0 * 2", with: "$0 * * 2")
            let invalid = try await lab.send(
                .put,
                "/api/streams/\(id)",
                body: Data(broken.utf8),
                headers: [.ifMatch: "\"1\""]
            )
            #expect(invalid.status == 422 && invalid.errorCode == "invalidDocument")
            #expect(invalid.errorPath == "$.nodes[0].expression")
            let huge = Data(repeating: UInt8(ascii: " "), count: 2 << 20)
            let tooLarge = try await lab.send(.post, "/api/streams", body: huge)
            #expect(tooLarge.status == 413 && tooLarge.errorCode == "tooLarge")
            #expect(try await lab.send(.get, "/api/streams/not-an-id").status == 404)
            #expect(try await lab.send(.get, "/api/streams/AAAAAAAAAAAAAAAAAAAAAA").status == 404)
            let list = try await lab.send(.get, "/api/streams")
            #expect((list.json["documents"] as? [Any])?.count == 1)
            #expect(try await lab.send(.get, "/api/streams/\(id)").json["version"] as? Int == 1)
        }
    }

    @Test func runsAndDrawsADocument() async throws {
        try await withLab { lab in
            let run = try await lab.send(
                .post,
                "/api/run",
                body: document(named: "Run", values: [1, 2])
            )
            #expect(run.status == 200)
            let marbles = try #require(run.json["marbles"] as? String)
            #expect(marbles.contains("numbers") && marbles.contains("doubled"))
            let timeline = try #require(run.json["timeline"] as? [[String: Any]])
            #expect(timeline.contains { ($0["lane"] as? String) == "doubled" })
            let drawn = try await lab.send(
                .post,
                "/api/diagram.svg",
                body: document(named: "Drawn")
            )
            #expect(drawn.status == 200 && drawn.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(drawn.text.hasPrefix("<svg") || drawn.text.hasPrefix("<?xml"))
            let created = try await lab.send(.post, "/api/streams", body: document(named: "<b>Stored</b>"))
            let id = try #require(created.json["id"] as? String)
            let stored = try await lab.send(.get, "/api/streams/\(id)/diagram.svg", authorized: false)
            #expect(stored.status == 200 && !stored.text.contains("<b>Stored</b>"))
        }
    }
}
