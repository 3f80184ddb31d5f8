import Foundation
import Testing
import Tributary
import TributaryHTTP
import TributaryImages
import TributaryTestSupport

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A user of the article's avatar cell.
private struct User {
    var id: Int
    var avatarURL: URL?
}

// Show it in a view
@MainActor final class AvatarCell {
    let loader = ImageLoader(processors: [ImageProcessors.Resize(maximumPixelSize: 80)])
    fileprivate func configure(with user: User) { loader.url = user.avatarURL }  // cancels the previous load
}

#if canImport(SwiftUI)
    struct Avatar: View {
        @State private var loader = ImageLoader(processors: [ImageProcessors.Resize(maximumPixelSize: 80)])
        let url: URL?

        var body: some View {
            Group {
                if let image = loader.image?.cgImage {
                    Image(decorative: image, scale: 1)
                } else if loader.failure != nil {
                    Image(systemName: "person.crop.circle.badge.exclamationmark")
                } else {
                    ProgressView()
                }
            }
            .onAppear { loader.url = url }
            .onChange(of: url) { loader.url = url }
        }
    }
#endif

/// The code of `TributaryImages`' Getting Started article, as it is written there, against an
/// image server on loopback; what it prints is kept and checked.
@MainActor
@Suite(.timeLimit(.minutes(2)))
struct ImagesGettingStartedTests {
    /// What the article's code printed, line by line.
    private let printed = Locked<[String]>([])

    private func print(_ items: Any...) {
        let line = items.map { "\($0)" }.joined(separator: " ")
        printed.withLock { $0.append(line) }
    }

    @Test func theArticlesCodeRuns() async throws {
        try await ImageServer.run { server, log in try await articlesCode(server: server, log: log) }
    }

    /// Out of the server's closure, so that a `catch` knows the pipeline's error type, as it
    /// does where the article's code is written.
    private func articlesCode(server: URL, log: ImageServer.Log) async throws {
        // Set up a pipeline
        let pipeline = ImagePipeline(
            configuration: .init(
                dataLoader: DataLoader(transport: URLSessionTransport()),
                imageCache: ImageCache(costLimit: 100 << 20),
                dataCache: try DataCache(name: "com.example.images", sizeLimit: 300 << 20),
                maximumConcurrentDownloads: 6
            )
        )
        let cache = try #require(pipeline.configuration.dataCache as? DataCache)
        defer { try? FileManager.default.removeItem(at: cache.directory) }

        let api = server
        let transport = URLSessionTransport()
        let token = "getting-started-token"
        let client = APIClient(
            baseURL: api,
            transport: transport,
            middleware: [Authentication(.bearer(token))]
        )
        let loader = DataLoader(client: client)
        let authenticated = ImagePipeline(configuration: .init(dataLoader: loader, imageCache: nil))
        #expect(try await authenticated.image(for: server.appending(path: "img/9.jpg")).width == 64)

        // Load an image
        let url = server.appending(path: "img/3.jpg")
        let image = try await pipeline.image(for: url)
        #expect(image.width == 64 && image.height == 48)

        let request = ImageRequest(
            url: url,
            processors: [
                ImageProcessors.Resize(
                    size: PixelSize(width: 120, height: 120),
                    contentMode: .fill,
                    crop: true
                )
            ],
            priority: .high
        )
        let response = try await pipeline.response(for: request)
        print(response.source)  // .network, .diskCache or .memoryCache
        #expect(printed.current == ["diskCache"])
        #expect(log.count(url.path) == 1)

        let task = pipeline.imageTask(with: request)
        Task { for await progress in task.progress { print(progress.fraction ?? 0) } }
        task.priority = .veryHigh
        let thumbnail = try await task.response.image
        #expect(thumbnail.width <= 120 && thumbnail.height <= 120)

        let user = User(id: 7, avatarURL: server.appending(path: "img/7.jpg"))
        let signedURL = server.appending(path: "img/7.jpg").appending(queryItems: [
            URLQueryItem(name: "signature", value: UUID().uuidString)
        ])
        let signed = ImageRequest(url: signedURL, cacheKey: "avatar-\(user.id)")
        _ = try await pipeline.image(for: signed)
        _ = try await pipeline.image(for: ImageRequest(url: signedURL, cacheKey: "avatar-\(user.id)"))
        #expect(log.count("/img/7.jpg") == 1)

        // Handle failures
        for url in [server.appending(path: "missing.jpg"), server.appending(path: "corrupt.jpg")] {
            do {
                _ = try await pipeline.image(for: url)
            } catch {
                switch error.reason {
                case .loadingFailed(let underlying): print("network:", underlying)  // an APIError
                case .decodingFailed(.tooManyPixels(let width, let height, _)):
                    print("too big:", width, height)
                case .decodingFailed(let decoding): print("bad image:", decoding)
                case .cancelled: break
                default: print(error)
                }
            }
            let expected = url.lastPathComponent == "missing.jpg" ? "network:" : "bad image:"
            #expect(printed.current.contains { $0.hasPrefix(expected) })
        }

        // Show it in a view
        let cell = AvatarCell()
        cell.configure(with: user)
        try await waitUntil { cell.loader.image != nil }
        #expect((cell.loader.image?.width ?? .max) <= 80)
    }
}
