import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Tributary
import TributaryImages

extension Sandbox {
    /// Adds TMDb's v3 API at `/tmdb/3/` and its images at `/tmdb/t/p/{size}/{file}`.
    func addTMDbRoutes(to router: Router<BasicRequestContext>, origin: Protected<String>) {
        router.get("tmdb/t/p/:size/:file") { [self] _, context in
            guard
                let image = Self.tmdbImage(
                    size: context.parameters.get("size") ?? "",
                    file: context.parameters.get("file") ?? ""
                ),
                let data = try? imageFiles.data(for: image)
            else {
                return SandboxResponse(status: 404, body: TMDbDataset.notFound.body).response
            }
            return SandboxResponse(
                status: 200,
                headers: [("Content-Type", "image/jpeg"), ("Cache-Control", "public, max-age=31536000")],
                body: data
            )
            .response
        }
        router.group("tmdb/3")
            .add(middleware: Admission { [self] request in tmdbRefusal(request) })
            .get("**") { [self] request, context in
                let path = context.parameters.getCatchAll().joined(separator: "/")
                let query = SandboxRequest(request, origin: origin).query
                let answer = movies.answer(
                    path,
                    query: query,
                    imageBaseURL: origin.withLock { $0 } + "/tmdb/t/p/"
                )
                return SandboxResponse(status: answer.status, body: answer.body).response
            }
    }

    /// The image a TMDb image URL names: `poster-ID.jpg` and `profile-…` at 2:3, `backdrop-ID.jpg`
    /// at 16:9, as wide as `w342` says (or tall as `h632` says), `original` at full size.
    static func tmdbImage(size: String, file: String) -> SandboxImage? {
        let stem = file.hasSuffix(".jpg") ? String(file.dropLast(4)) : ""
        let kind = stem.split(separator: "-").first.map(String.init) ?? ""
        let seed = stem.split(separator: "-").dropFirst().compactMap { Int($0) }.reduce(0) { $0 &* 31 &+ $1 }
        let aspect: Double
        switch kind {
        case "poster", "profile": aspect = 1.5
        case "backdrop": aspect = 9.0 / 16
        default: return nil
        }
        let width: Int
        if size == "original" {
            width = kind == "backdrop" ? 3_840 : 2_000
        } else if size.hasPrefix("w"), let value = Int(size.dropFirst()), (45...3_840).contains(value) {
            width = value
        } else if size.hasPrefix("h"), let value = Int(size.dropFirst()), (45...3_840).contains(value) {
            width = Int(Double(value) / aspect)
        } else {
            return nil
        }
        return SandboxImage(
            content: .jpeg(progressive: false),
            size: PixelSize(width: width, height: max(1, Int(Double(width) * aspect))),
            seed: seed
        )
    }

    /// A TMDb request's refusal: no key (`api_key` or a bearer token) the sandbox accepts, or
    /// a spent rate limit.
    func tmdbRefusal(_ request: SandboxRequest) -> SandboxResponse? {
        var key = request.query["api_key"]
        if let authorization = request.headers["authorization"],
            authorization.lowercased().hasPrefix("bearer ")
        {
            key = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard let key, configuration.apiKeys.contains(key) else {
            return SandboxResponse(
                status: 401,
                body: TMDbDataset.error(401, code: 7, "Invalid API key: You must be granted a valid key.")
                    .body
            )
        }
        return chargeTMDb(key)
    }

    /// Counts a TMDb request against its key's limit; the refusal when the limit is spent.
    func chargeTMDb(_ key: String) -> SandboxResponse? {
        guard let limit = configuration.tmdbRateLimit else { return nil }
        let now = configuration.now()
        let wait: Int? = tmdbUsage.withLock { usage in
            var window = usage[key] ?? (now, 0)
            if now.timeIntervalSince(window.start) >= 10 { window = (now, 0) }
            window.count += 1
            usage[key] = window
            guard window.count > limit else { return nil }
            return max(1, Int((window.start.addingTimeInterval(10).timeIntervalSince(now)).rounded(.up)))
        }
        guard let wait else { return nil }
        var response = SandboxResponse(
            status: 429,
            body: TMDbDataset.error(
                429,
                code: 25,
                "Your request count is over the allowed limit of \(limit)."
            ).body
        )
        response.headers.append(("Retry-After", String(wait)))
        return response
    }
}
