import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing
import TributaryAsyncHTTPClient
import TributaryLab

/// The printed `/?token=` link becomes a session cookie, which writes only from the lab's own
/// pages.
@Suite(.timeLimit(.minutes(1)))
struct SessionTests {
    @Test func theTokenLinkSetsAStrictHTTPOnlyCookie() async throws {
        try await withLab { lab in
            // AsyncHTTPClient itself, which leaves redirects alone, to see the answer as it is.
            let visit = try await lab.transport.client.execute(
                HTTPClientRequest(url: lab.base.absoluteString + "/?token=\(lab.token)"),
                timeout: .seconds(10)
            )
            #expect(visit.status.code == 303 && visit.headers.first(name: "location") == "/")
            let cookie = try #require(visit.headers.first(name: "set-cookie"))
            #expect(cookie.hasPrefix("tributary_lab=\(lab.token);"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            #expect(try await lab.send(.get, "/?token=wrong", authorized: false).status == 401)
            #expect(try await lab.send(.get, "/", authorized: false).status == 200)
        }
    }

    @Test func aCookieWritesOnlyFromTheLabsOwnOrigin() async throws {
        try await withLab { lab in
            let own = "http://\(lab.base.host ?? ""):\(lab.base.port ?? 0)"
            let session: HTTPFields = [.cookie: "other=1; tributary_lab=\(lab.token)"]
            var fromOwnPage = session
            fromOwnPage[.origin] = own
            let created = try await lab.send(
                .post,
                "/api/streams",
                body: document(named: "By cookie"),
                authorized: false,
                headers: fromOwnPage
            )
            #expect(created.status == 201)
            var fromElsewhere = session
            fromElsewhere[.origin] = "https://evil.example"
            let forged = try await lab.send(
                .post,
                "/api/streams",
                body: document(named: "Forged"),
                authorized: false,
                headers: fromElsewhere
            )
            #expect(forged.status == 403 && forged.errorCode == "foreignOrigin")
            let noOrigin = try await lab.send(
                .post,
                "/api/streams",
                body: document(named: "Unnamed"),
                authorized: false,
                headers: session
            )
            #expect(noOrigin.status == 403)
            let wrong = try await lab.send(
                .post,
                "/api/streams",
                body: document(named: "Wrong"),
                authorized: false,
                headers: [.cookie: "tributary_lab=not-the-token", .origin: own]
            )
            #expect(wrong.status == 401)
            // Reading the list needs the token too; the cookie carries it.
            let list = try await lab.send(.get, "/api/streams", authorized: false, headers: session)
            #expect((list.json["documents"] as? [Any])?.count == 1)
        }
    }
}
