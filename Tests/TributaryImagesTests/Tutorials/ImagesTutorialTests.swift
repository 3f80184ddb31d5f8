import Foundation
import Hummingbird
import Testing
import TributaryImages
import TributaryTestSupport

/// The tutorial "Images on Linux" (TributaryImages' catalog) as it is written: its program, the
/// last version of `main.swift`, run twice against the tutorial's photo served over HTTP on
/// loopback, prints what the tutorial shows and saves the thumbnail it shows.
@Suite(.timeLimit(.minutes(5)))
struct ImagesTutorialTests {
    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appending(path: "Sources/TributaryImages/Documentation.docc/Resources")

    /// Serves a folder holding the tutorial's photo as `rocket.jpg`, as its first step does,
    /// for the duration of `body`, which gets the server's address and a folder to work in.
    private static func withPhotoServed(_ body: (URL, URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(
            path: "images-tutorial-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = folder.appending(path: "images")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: resources.appending(path: "images-rocket.jpg"),
            to: served.appending(path: "rocket.jpg")
        )
        let router = Router()
        router.add(middleware: FileMiddleware(served.path, searchForIndexHtml: false))
        try await withLoopbackServer(router) { base in try await body(base, folder) }
    }

    /// What the tutorial's terminal shows after `$ swift run`, one list of lines a run.
    private static func shownRuns() throws -> [[String]] {
        let terminal = try String(contentsOf: resources.appending(path: "images-07-run.txt"), encoding: .utf8)
        return terminal.components(separatedBy: "$ swift run\n").dropFirst().map { run in
            run.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("$") }
        }
    }

    @Test func theProgramPrintsWhatTheTutorialShows() async throws {
        try await Self.withPhotoServed { base, folder in
            // images-06-save.swift, with the served address, and the tutorial's folder for files.
            func run() async throws -> [String] {
                var lines: [String] = []
                func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

                let url = base.appending(path: "rocket.jpg")
                let dataCache = try DataCache(directory: folder.appending(path: "image-cache"))
                let pipeline = ImagePipeline(
                    configuration: .init(imageCache: ImageCache(costLimit: 64 << 20), dataCache: dataCache)
                )

                for _ in 1...2 {
                    let response = try await pipeline.response(for: ImageRequest(url: url))
                    print(response.image, "from", response.source)
                }

                let request = ImageRequest(
                    url: url,
                    processors: [ImageProcessors.Resize(maximumPixelSize: 160)]
                )
                let thumbnail = try await pipeline.response(for: request)
                print("thumbnail", thumbnail.image, "from", thumbnail.source)
                if let original = thumbnail.original {
                    print("of a \(original.format) of \(original.width)×\(original.height)")
                }
                try thumbnail.image.jpegData(quality: 85).write(to: folder.appending(path: "rocket-160.jpg"))

                // The disk cache writes in the background: wait for it before the program ends.
                dataCache.flush()
                print(dataCache.totalSize, "bytes on disk")
                return lines
            }

            let runs = [try await run(), try await run()]
            let shown = try Self.shownRuns()
            #expect(runs == shown)
            let saved = try Bitmap(decoding: Data(contentsOf: folder.appending(path: "rocket-160.jpg")))
            #expect(saved.width == 160 && saved.height == 107)
            // The thumbnail the tutorial shows.
            let thumbnail = try Data(contentsOf: Self.resources.appending(path: "images-rocket-160.jpg"))
            #expect(try Data(contentsOf: folder.appending(path: "rocket-160.jpg")) == thumbnail)
        }
    }
}
