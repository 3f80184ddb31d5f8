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
