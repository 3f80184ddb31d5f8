import Foundation
import Tributary
import TributaryImages

extension Sandbox {
    /// `/images/{name}`: the generated image, made once and then served from memory.
    func image(_ request: SandboxRequest, name: String) -> SandboxResponse {
        guard let image = SandboxImage(name: name, query: request.query) else {
            return .error(
                404,
                "imageNotFound",
                "There is no image \(name); try /images/1.jpg or /images/large.jpg."
            )
        }
        let data: Data?
        do {
            data = try imageFiles.data(for: image)
        } catch {
            return .error(500, "unexpectedError", "The image \(name) could not be generated: \(error).")
        }
        guard let data else {
            return .error(404, "imageNotFound", "The image \(name) does not exist.")
        }
        let type = name.hasSuffix(".png") ? "image/png" : "image/jpeg"
        return SandboxResponse(
            status: 200,
            headers: [("Content-Type", type), ("Cache-Control", "public, max-age=86400")],
            body: data
        )
    }
}

/// Generated image files, kept once made, up to a total size, oldest first out.
final class SandboxImageFiles: Sendable {
    private struct State {
        var files: [SandboxImage: Data] = [:]
        var order: [SandboxImage] = []
        var total = 0
    }

    private let state = Protected(State())
    private let limit: Int

    init(limit: Int = 256 << 20) {
        self.limit = limit
    }

    func data(for image: SandboxImage) throws -> Data? {
        if let data = state.withLock({ $0.files[image] }) { return data }
        guard let data = try image.data() else { return nil }
        state.withLock { state in
            guard state.files[image] == nil else { return }
            state.files[image] = data
            state.order.append(image)
            state.total += data.count
            while state.total > limit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.total -= state.files.removeValue(forKey: oldest)?.count ?? 0
            }
        }
        return data
    }
}
