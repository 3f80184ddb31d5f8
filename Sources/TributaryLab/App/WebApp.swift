import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TributaryStreams

/// The lab's pages: HTML, CSS and JavaScript modules shipped as resources of this module and
/// served from memory, with no request anywhere else.
struct WebAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        let eTag: String
    }

    let files: [String: Asset]

    static let bundled = WebAssets(folder: Bundle.module.url(forResource: "Web", withExtension: nil))

    init(folder: URL?) {
        var files: [String: Asset] = [:]
        let names = folder.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        for name in names {
            guard let folder, let data = try? Data(contentsOf: folder.appending(path: name)) else { continue }
            files[name] = Asset(
                body: ByteBuffer(bytes: data),
                contentType: Self.contentType(of: name),
                eTag: "\"\(Self.digest(data))\""
            )
        }
        self.files = files
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }

    /// FNV-1a over the bytes: enough to tell one version of a file from the next.
    static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The file's response, or `304` when the browser has this version already.
    func response(_ name: String, to request: Request) -> Response? {
        guard let asset = files[name] else { return nil }
        if let match = request.headers[.ifNoneMatch], match.contains(asset.eTag) {
            return Response(status: .notModified, headers: [.eTag: asset.eTag, .cacheControl: "no-cache"])
        }
        return Response(
            status: .ok,
            headers: [.contentType: asset.contentType, .eTag: asset.eTag, .cacheControl: "no-cache"],
            body: .init(byteBuffer: asset.body)
        )
    }
}

/// The examples that "new from example" starts from: the documents of `Examples/streams`.
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

/// Adds to every answer the headers that keep a page to itself: a content security policy that
/// runs only the lab's own scripts, no sniffing of content types, no referrer to other sites
/// and no framing.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var policy: String {
        [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob: data:",
            "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
            "frame-ancestors 'none'", "form-action 'self'",
        ].joined(separator: "; ")
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.xFrameOptions] = "DENY"
        return response
    }
}

extension HTTPField.Name {
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
}

extension LabServer {
    /// The pages: `/`, the deep links `/news…` and `/streams/{id}`, and their files under `/app`.
    func addAppRoutes(to router: Router<BasicRequestContext>) {
        let assets = WebAssets.bundled
        let page: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            assets.response("index.html", to: request) ?? Response(status: .notFound)
        }
        router.get("news", use: page)
        router.get("streams", use: page)
        router.get("streams/:id", use: page)
        router.get("app/:file") { request, context in
            guard let file = context.parameters.get("file"), let response = assets.response(file, to: request)
            else {
                return LabError(status: .notFound, code: "notFound", message: "There is no such file.")
                    .response
            }
            return response
        }
        router.get("api/examples") { _, _ in
            LabJSON.response(["examples": StreamExamples.bundled])
        }
        router.post("api/marbles") { request, context in
            try await answer {
                struct Marbles: Decodable {
                    var marbles: String
                    var frame: Double?
                    var id: String?
                }
                let body = try await request.body.collect(upTo: maximumBodySize)
                guard let given = try? JSONDecoder().decode(Marbles.self, from: Data(body.readableBytesView))
                else {
                    throw LabError(
                        status: .badRequest,
                        code: "malformedJSON",
                        message: "The body is {\"marbles\": \"-1-2|\", \"frame\": seconds, \"id\": name}."
                    )
                }
                let stream = try streamsOperation { () throws(StreamError) in
                    try TributaryStreams.Marbles.parse(
                        given.marbles,
                        frame: given.frame ?? 1,
                        id: given.id ?? "marbles"
                    )
                }
                return LabJSON.response(["stream": stream])
            }
        }
    }
}
