import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import TributaryImages

/// The news reader: `GET /api/news/live`, one page's view models held here with their state
/// pushed over a WebSocket, and `GET /img`, the thumbnails of the pictures those pages show.
///
/// Both spend what the operator pays for — the news service's quota, fetches and decoding — so
/// both need the token or the session.
struct NewsController {
    let news: LabNews
    let connections: LiveConnections

    /// The widths `/img` makes, in pixels.
    static let widths = 16...2_048

    func addRoutes(to router: Router<LabRequestContext>) {
        router.get("img", use: thumbnail)
    }

    func addLiveRoutes(to router: some RouterMethods<LabRequestContext>) {
        router.ws("api/news/live") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            try await connections.serve(context.requestContext.remoteHost, outbound: outbound) {
                try await live(inbound: inbound, outbound: outbound)
            }
        }
    }

    /// `GET /img?url=…&w=…`: a thumbnail of a picture this lab put on a page, resized here and
    /// sent as JPEG with an `ETag` and a day's `Cache-Control`. Any other address is refused: this
    /// is not a proxy for whatever a visitor names.
    @Sendable func thumbnail(_ request: Request, context: LabRequestContext) async throws -> Response {
        guard let text = request.uri.queryParameters["url"], let url = URL(string: String(text)) else {
            throw LabError.badRequest("badURL", "url names the picture to load.")
        }
        let asked: Int
        if let given = request.uri.queryParameters["w"] {
            guard let width = Int(given), Self.widths.contains(width) else {
                throw LabError.badRequest(
                    "badWidth",
                    "w is a width in pixels from \(Self.widths.lowerBound) to \(Self.widths.upperBound)."
                )
            }
            asked = width
        } else {
            asked = 320
        }
        guard news.mayFetch(url) else {
            throw LabError(
                status: .forbidden,
                code: "notHandedOut",
                message: "The lab loads only the pictures it has put on its own pages."
            )
        }
        // Widths in steps of 80 up to 1,280: a handful of sizes to cache per picture.
        let width = min(1_280, (asked + 79) / 80 * 80)
        let thumbnail = try await thumbnail(key: "\(width) \(url.absoluteString)", url: url, width: width)
        let headers: HTTPFields = [
            .eTag: thumbnail.eTag, .cacheControl: "public, max-age=86400", .contentType: "image/jpeg",
        ]
        if let match = request.headers[.ifNoneMatch], match.contains(thumbnail.eTag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(
            status: .ok,
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: thumbnail.data))
        )
    }

    private func thumbnail(key: String, url: URL, width: Int) async throws -> ThumbnailCache.Entry {
        if let cached = news.thumbnails.get(key) { return cached }
        let request = ImageRequest(
            url: url,
            processors: [
                ImageProcessors.Resize(size: PixelSize(width: width, height: width * 3), contentMode: .fit)
            ]
        )
        do {
            let data = try await news.images.image(for: request).jpegData(quality: 80)
            let entry = ThumbnailCache.Entry(data: data, eTag: "\"\(WebAssets.digest(data))\"")
            news.thumbnails.set(key, entry)
            return entry
        } catch let error as ImagePipeline.Error {
            throw LabError(status: .badGateway, code: "imageFailed", message: "\(error)")
        } catch {
            throw LabError(
                status: .badGateway,
                code: "imageFailed",
                message: "The picture could not be made: \(error)."
            )
        }
    }

    private func live(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        // Each message is a whole state, so under pressure the oldest are the ones to drop.
        let (queue, queued) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(32))
        let session = await NewsSession(news: news) { queued.yield($0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in queue { try await outbound.write(.text(message)) }
            }
            do {
                for try await message in inbound.messages(maxSize: 64 << 10) {
                    guard case .text(let text) = message else { continue }
                    await session.handle(text)
                }
            } catch {
                // An oversized or broken frame ends the connection, and nothing else.
            }
            queued.finish()
            try await group.waitForAll()
        }
        withExtendedLifetime(session) {}
    }
}
