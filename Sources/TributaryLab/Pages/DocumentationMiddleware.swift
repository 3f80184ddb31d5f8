import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Serves the package's documentation at `/docs`: a DocC archive made for static hosting under
/// that path, whose every page is a folder's `index.html`. Hummingbird's `FileMiddleware`
/// reads the files, within the archive's folder only; `/docs` itself leads to the landing page
/// of every module.
struct DocumentationMiddleware: RouterMiddleware {
    typealias Context = LabRequestContext

    private let files: FileMiddleware<Context, LocalFileSystem>
    /// Where `/docs` leads: the page of every module of a combined archive, or else the first
    /// module's.
    private let landing: String

    init(archive: URL) {
        let documentation = archive.appending(path: "documentation")
        let modules =
            (try? FileManager.default.contentsOfDirectory(atPath: documentation.path))?.sorted() ?? []
        landing =
            FileManager.default.fileExists(atPath: documentation.appending(path: "index.html").path)
            ? "/docs/documentation/"
            : modules.first.map { "/docs/documentation/\($0)/" } ?? "/docs/documentation/"
        files = FileMiddleware(
            archive.path,
            urlBasePath: "/docs",
            cacheControl: .init([(MediaType(type: .any), [.noCache])]),
            searchForIndexHtml: true
        )
    }

    /// The script DocC puts in each page to say where the documentation is served, as the
    /// content security policy lets it run: by the SHA-256 of its text.
    static let baseURLScriptHash = Data(SHA256.hash(data: Data(#"var baseUrl = "/docs/""#.utf8)))
        .base64EncodedString()

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard path == "/docs" || path.hasPrefix("/docs/") else { return try await next(request, context) }
        if path == "/docs" || path == "/docs/" {
            return Response(status: .seeOther, headers: [.location: landing])
        }
        // A page is its folder's index.html. FileMiddleware sends a folder named without its
        // slash to the slashed path without the base path, outside /docs: sent here instead.
        if !path.hasSuffix("/"), !(path.split(separator: "/").last?.contains(".") ?? true) {
            return Response(status: .movedPermanently, headers: [.location: path + "/"])
        }
        return try await files.handle(request, context: context, next: next)
    }
}
