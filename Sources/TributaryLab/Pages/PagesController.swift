import Foundation
import HTTPTypes
import Hummingbird
import TributaryLabWire
import TributaryStreams

/// The pages: `/`, the deep links `/news…`, `/streams/{id}` and `/recordings/{id}`, their files under `/app`, the
/// examples the editor starts from, the operator catalogue its form is made from, and the
/// printed `/?token=` link, which opens a session.
struct PagesController {
    let token: String
    let sessions: LabSessions
    let publicURL: URL?
    let assets = WebAssets.bundled

    var routes: RouteCollection<LabRequestContext> {
        let routes = RouteCollection(context: LabRequestContext.self)
        routes.get(use: home)
        for path: RouterPath in [
            "news", "streams", "streams/:id", "streams/:id/versions/:number", "recordings", "recordings/:id",
        ] {
            routes.get(path, use: page)
        }
        routes.get("app/:file", use: file)
        routes.get("favicon.ico") { request, _ in
            assets.response("favicon.svg", to: request) ?? Response(status: .notFound)
        }
        routes.get("api/examples") { _, _ in ["examples": StreamExamples.bundled] }
        routes.get("api/operators") { _, _ in ["operators": StreamOperator.catalogue] }
        return routes
    }

    /// The app's page; with `?token=`, the printed link, a session whose cookie carries a random
    /// id rather than the token, strict to this site and out of scripts' reach.
    @Sendable func home(_ request: Request, context: LabRequestContext) async throws -> Response {
        guard let given = request.uri.queryParameters["token"] else {
            return try await page(request, context: context)
        }
        guard LabAuthenticator.same(String(given), token) else { return Self.wrongToken }
        var response = Response(status: .seeOther, headers: [.location: "/", .cacheControl: "no-store"])
        response.setCookie(
            Cookie(
                name: LabSessions.cookieName,
                value: sessions.open(),
                // As long as the session: closing the browser keeps it too.
                maxAge: Int(sessions.lifetime.components.seconds),
                path: "/",
                secure: publicURL?.scheme?.lowercased() == "https",
                httpOnly: true,
                sameSite: .strict
            )
        )
        return response
    }

    /// A path the lab has no page for, as a person who followed a wrong link reads it.
    /// `/docs` of a lab started without the package's documentation: how to build it.
    static var documentationNotBuilt: Response {
        ServerPage.response(
            title: "The documentation is not built",
            stylesheet: "app.css",
            body: """
                <main id="main">
                <h1>The documentation is not built</h1>
                <p role="alert">This lab serves the package's documentation at /docs once it is built. In the
                package's folder, build it with</p>
                <pre><code>swift package --disable-sandbox generate-documentation --enable-experimental-combined-documentation \\
                    --transform-for-static-hosting --hosting-base-path docs $(sed -n 's/^ *- \\([[:alnum:]]*\\)$/--target \\1/p' .spi.yml)</code></pre>
                <p>and start the lab again from that folder (or give it the archive with <code>--docs</code>).</p>
                <p><a href="/streams">Stream documents</a> · <a href="/recordings">Recordings</a> · <a href="/news">News</a></p>
                </main>
                """,
            status: .notFound,
            cacheControl: "no-cache"
        )
    }

    static var noSuchPage: Response {
        ServerPage.response(
            title: "No such page",
            stylesheet: "app.css",
            body: """
                <main id="main">
                <h1>No such page</h1>
                <p role="alert">The lab has no page at this address: the link may be mistyped, or cut short when it
                was copied.</p>
                <p><a href="/streams">Stream documents</a> · <a href="/recordings">Recordings</a> · <a href="/news">News</a></p>
                </main>
                """,
            status: .notFound,
            cacheControl: "no-cache"
        )
    }

    /// A link whose token is not the lab's, for a person rather than a program: what happened
    /// and what to do.
    static var wrongToken: Response {
        ServerPage.response(
            title: "This link does not open the lab",
            stylesheet: "app.css",
            body: """
                <main id="main">
                <h1>This link does not open the lab</h1>
                <p role="alert">The token in this link is not the lab’s. The lab was given a new token since
                the link was made (<code>tributary lab --new-token</code>), or the link was cut short when it
                was copied.</p>
                <p>Open the link <code>tributary lab</code> printed when it started — it ends in
                <code>/?token=</code> and the whole token — or ask whoever runs the lab for it.</p>
                <p>A document’s own link opens it without the token, read-only.</p>
                </main>
                """,
            status: .unauthorized,
            cacheControl: "no-store"
        )
    }

    @Sendable func page(_ request: Request, context: LabRequestContext) async throws -> Response {
        guard let response = assets.response("index.html", to: request) else {
            throw LabError.notFound("page")
        }
        return response
    }

    @Sendable func file(_ request: Request, context: LabRequestContext) async throws -> Response {
        guard let name = context.parameters.get("file"), let response = assets.response(name, to: request)
        else {
            throw LabError.notFound("such file")
        }
        return response
    }
}

/// The examples that "new from example" starts from: the documents of `Examples`.
enum StreamExamples {
    struct Example: Encodable {
        var name: String
        var title: String
        var document: StreamDocument
    }

    static let bundled: [Example] = {
        guard let folder = Bundle.module.url(forResource: "Examples", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.sorted().compactMap { name in
            guard name.hasSuffix(".json"), let data = try? Data(contentsOf: folder.appending(path: name)),
                let document = try? StreamDocument.decode(data)
            else { return nil }
            return Example(name: String(name.dropLast(5)), title: document.name ?? name, document: document)
        }
    }()
}
