import Foundation
import HTTPTypes
import Hummingbird
import TributaryHTML
import TributaryHTTP
import TributaryLabWire

/// `/embed/{id}` and `/embed/{id}/versions/{n}`: a document's diagram alone, sized to whatever
/// frame holds it, light or dark as the reader's system is, with a link back to the document;
/// the one page other sites may frame (see ``SecurityHeaders``). The diagram is the one
/// `GET /api/streams/{id}/diagram.svg` draws, once per version.
struct EmbedController {
    let documents: DocumentService

    var routes: RouteCollection<LabRequestContext> {
        let routes = RouteCollection(context: LabRequestContext.self)
        routes.get(":id", use: embed)
        routes.get(":id/versions/:number", use: embed)
        return routes
    }

    @Sendable func embed(_ request: Request, context: LabRequestContext) async throws -> Response {
        let id: DocumentID
        let stored: DocumentSummary
        do {
            id = try DocumentsController.id(context)
            // The page names the version and links its diagram: the document itself is not read.
            let number =
                context.parameters.get("number") != nil ? try DocumentsController.versionNumber(context) : nil
            stored = try await documents.summary(of: id, version: number)
        } catch {
            // A frame on another site shows a sentence, never the API's JSON.
            let message: String
            switch error {
            case let error as LabError where error.status == .notFound: message = error.message
            case DocumentStoreError.notFound: message = "There is no such document."
            default: throw error
            }
            return ServerPage.response(
                title: "Not found",
                stylesheet: "embed.css",
                body: """
                    <p role="alert">\(HTMLText.escaped(message)) It may have been deleted, or the link is not whole.</p>
                    """,
                status: .notFound,
                cacheControl: "no-cache"
            )
        }
        let title = HTMLText.escaped(stored.title)
        let version = stored.version
        return ServerPage.response(
            title: "\(title), version \(version)",
            stylesheet: "embed.css",
            body: """
                <figure>
                <img src="/api/streams/\(id)/diagram.svg?version=\(version)" alt="Marble diagram of \(title), version \(version)">
                <figcaption><a href="/streams/\(id)/versions/\(version)" target="_blank" rel="noopener">\(title) · version \(version) · open in the lab</a></figcaption>
                </figure>
                """,
            cacheControl: "no-cache"
        )
    }
}

/// A page the server writes whole, for a person who reaches the lab outside its app.
enum ServerPage {
    /// An HTML page titled `title` (already escaped), with the lab's `stylesheet` and `body`.
    static func response(
        title: String,
        stylesheet: String,
        body: String,
        status: HTTPResponse.Status = .ok,
        cacheControl: String
    ) -> Response {
        let page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Tributary lab</title>
            <link rel="stylesheet" href="/app/\(stylesheet)">
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: cacheControl],
            body: .init(byteBuffer: ByteBuffer(string: page))
        )
    }
}
