import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Tributary
import TributaryImages

/// `GET /img?url=…&w=…`: the thumbnails of the pictures the news pages show, resized here and
/// sent as JPEG with an `ETag` and a day's `Cache-Control`. Fetching and decoding spend what the
/// operator pays for, so it needs the token or the session; and it loads only pictures the lab
/// itself put on a page: it is not a proxy for whatever a visitor names.
struct ThumbnailController {
    let news: LabNews

    /// The widths `/img` makes, in pixels.
    static let widths = 16...2_048

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
}

/// A set that forgets its least recently added or used members beyond `capacity`.
final class HandedOut: Sendable {
    private let capacity: Int
    private let members = Protected(LRUList<String, Void>())

    init(capacity: Int) { self.capacity = capacity }

    func insert(_ member: String) {
        members.withLock { members in
            members.set((), for: member, cost: 1)
            while members.count > capacity, members.removeOldest() != nil {}
        }
    }

    func contains(_ member: String) -> Bool { members.withLock { $0.contains(member) } }
}

/// Encoded thumbnails by key, the least recently used leaving first beyond `capacity` bytes.
final class ThumbnailCache: Sendable {
    struct Entry: Sendable {
        var data: Data
        var eTag: String
    }

    private let capacity: Int
    private let entries = Protected(LRUList<String, Entry>())

    init(capacity: Int) { self.capacity = capacity }

    func get(_ key: String) -> Entry? { entries.withLock { $0.value(for: key) } }

    func set(_ key: String, _ entry: Entry) {
        guard entry.data.count <= capacity else { return }
        entries.withLock { entries in
            entries.set(entry, for: key, cost: entry.data.count)
            while entries.totalCost > capacity, entries.removeOldest() != nil {}
        }
    }
}
