import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import TributaryImages

extension LabServer {
    /// `GET /img?url=…&w=…`: a thumbnail of a picture this lab put on a page, resized here and
    /// sent as JPEG with an `ETag` and a day's `Cache-Control`. Any other address is refused: this
    /// is not a proxy for whatever a visitor names.
    func addNewsRoutes(to router: Router<BasicRequestContext>) {
        router.get("img") { request, _ in
            try await answer {
                guard let news else { throw LabError.notFound("news reader in this lab") }
                guard let text = request.uri.queryParameters["url"], let url = URL(string: String(text))
                else {
                    throw LabError(
                        status: .badRequest,
                        code: "badURL",
                        message: "url names the picture to load."
                    )
                }
                guard news.mayFetch(url) else {
                    throw LabError(
                        status: .forbidden,
                        code: "notHandedOut",
                        message: "The lab loads only the pictures it has put on its own pages."
                    )
                }
                let asked = request.uri.queryParameters["w"].flatMap { Int($0) } ?? 320
                // Widths in steps of 80 up to 1,280: a handful of sizes to cache per picture.
                let width = min(1_280, max(80, (asked + 79) / 80 * 80))
                let key = "\(width) \(url.absoluteString)"
                let thumbnail = try await Self.thumbnail(key: key, url: url, width: width, news: news)
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
        }
    }

    private static func thumbnail(
        key: String,
        url: URL,
        width: Int,
        news: LabNews
    ) async throws -> ThumbnailCache.Entry {
        if let cached = news.thumbnails.get(key) { return cached }
        let request = ImageRequest(
            url: url,
            processors: [
                ImageProcessors.Resize(size: PixelSize(width: width, height: width * 3), contentMode: .fit)
            ]
        )
        do {
            let data = try await news.images.image(for: request).jpegData(quality: 80)
            let eTag = "\"\(WebAssets.digest(data))\""
            news.thumbnails.set(key, data: data, eTag: eTag)
            return ThumbnailCache.Entry(data: data, eTag: eTag, used: 0)
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

    /// `GET /api/news/live`: one page's news reader, its view models held here.
    func addNewsLive(to router: Router<BasicWebSocketRequestContext>) {
        router.ws("api/news/live") { request, _ in
            news != nil && Self.isSameOrigin(request) ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, _ in
            guard let news else { return }
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
            _ = session
        }
    }
}
