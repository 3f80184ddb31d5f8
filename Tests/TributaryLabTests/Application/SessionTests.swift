import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing
import TributaryAsyncHTTPClient
import TributaryLab
import TributaryLabWire

/// The printed `/?token=` link becomes a session cookie, which writes only from the lab's own
/// pages.
@Suite(.timeLimit(.minutes(5)))
struct SessionTests {
    /// A link with a token that is not the lab's says, as a page for a person, what happened and
    /// what to do; it opens no session.
    @Test func aWrongTokenLinkExplainsItselfInAPage() async throws {
        try await withLab { lab in
            let wrong = try await lab.send(.get, "/?token=not-\(lab.token)", authorized: false)
            #expect(wrong.status == 401)
            #expect(wrong.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(
                wrong.text.contains("This link does not open the lab") && wrong.text.contains("--new-token")
            )
            #expect(wrong.headers[.setCookie] == nil)
        }
    }

    @Test func theTokenLinkSetsAStrictHTTPOnlyCookie() async throws {
        try await withLab { lab in
            // AsyncHTTPClient itself, which leaves redirects alone, to see the answer as it is.
            let visit = try await lab.transport.client.execute(
                HTTPClientRequest(url: lab.base.absoluteString + "/?token=\(lab.token)"),
                timeout: .seconds(120)
            )
            #expect(visit.status.code == 303 && visit.headers.first(name: "location") == "/")
            let cookie = try #require(visit.headers.first(name: "set-cookie"))
            // The cookie carries a session of its own, never the token.
            #expect(cookie.hasPrefix("tributary_lab=") && !cookie.contains(lab.token))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            // It lasts as long as the session, closing the browser or not.
            #expect(cookie.contains("Max-Age=2592000"), "\(cookie)")
            let session = try #require(cookie.split(separator: ";").first.map(String.init))
            let list = try await lab.send(
                .get,
                "/api/streams",
                authorized: false,
                headers: [.cookie: session]
            )
            #expect(list.status == 200)
            // The token as a cookie is no session.
            let token = try await lab.send(
                .get,
                "/api/streams",
                authorized: false,
                headers: [.cookie: "tributary_lab=\(lab.token)"]
            )
            #expect(token.status == 401)
            // A browser holding an old cookie beside the session sends both: either may be it,
            // in one Cookie field or in two; past four, no more are checked.
            let stale = "tributary_lab=an-old-session"
            for headers: HTTPFields in [
                [.cookie: "\(stale); \(session)"],
                [.cookie: stale, .cookie: session],
            ] {
                let both = try await lab.send(.get, "/api/streams", authorized: false, headers: headers)
                #expect(both.status == 200)
            }
            let many = Array(repeating: stale, count: 4).joined(separator: "; ") + "; \(session)"
            let past = try await lab.send(.get, "/api/streams", authorized: false, headers: [.cookie: many])
            #expect(past.status == 401)
            #expect(try await lab.send(.get, "/?token=wrong", authorized: false).status == 401)
            #expect(try await lab.send(.get, "/", authorized: false).status == 200)
        }
    }

    @Test func aCookieWritesOnlyFromTheLabsOwnOrigin() async throws {
        try await withLab { lab in
            let own = "http://\(lab.base.host ?? ""):\(lab.base.port ?? 0)"
            let session: HTTPFields = [.cookie: "other=1; \(try await lab.session())"]
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
                headers: [.cookie: "tributary_lab=not-a-session", .origin: own]
            )
            #expect(wrong.status == 401)
            // Reading the list needs the token or the session too.
            let list = try await lab.send(.get, "/api/streams", authorized: false, headers: session)
            #expect((list.json["documents"] as? [Any])?.count == 1)
        }
    }
}

extension LabConnection {
    /// A session of the lab's, as the `name=value` its cookie carries, opened with the printed
    /// link.
    func session() async throws -> String {
        let visit = try await transport.client.execute(
            HTTPClientRequest(url: base.absoluteString + "/?token=\(token)"),
            timeout: .seconds(120)
        )
        let cookie = try #require(visit.headers.first(name: "set-cookie"))
        return try #require(cookie.split(separator: ";").first.map(String.init))
    }
}
