import Foundation
import Testing
import TributaryAsyncHTTPClient
import TributaryImages
import TributarySandbox

/// The sandbox's generated images, loaded through the image pipeline over loopback.
@Suite(.timeLimit(.minutes(5)))
struct ImageRoutesTests {
    func withPipeline<Result: Sendable>(
        _ body: (URL, ImagePipeline) async throws -> Result
    ) async throws -> Result {
        try await withSandbox { url, transport in
            let pipeline = ImagePipeline(
                configuration: .init(dataLoader: DataLoader(transport: transport), imageCache: nil)
            )
            return try await body(url.deletingLastPathComponent(), pipeline)
        }
    }

    @Test func articleImagesDecodeToTheGeneratedPixels() async throws {
        try await withPipeline { origin, pipeline in
            let article = try #require(
                sharedDataset.articles.first { $0.imagePath?.hasSuffix(".jpg") == true }
            )
            let path = try #require(article.imagePath)
            let expected = try #require(SandboxImage(name: String(path.dropFirst("/images/".count))))
            let response = try await pipeline.response(for: ImageRequest(url: origin.appending(path: path)))
            #expect(
                response.image.width == expected.size.width && response.image.height == expected.size.height
            )
            let difference = response.image.meanDifference(from: expected.bitmap)
            #expect(difference < 4, "mean difference \(difference)")
        }
    }

    @Test func pngsKeepTheirAlphaExactly() async throws {
        try await withPipeline { origin, pipeline in
            let image = try await pipeline.image(for: origin.appending(path: "images/alpha.png"))
            #expect(image == SandboxImage(name: "alpha.png")!.bitmap)
            #expect(image.hasTransparency)
        }
    }

    /// A photo stored a quarter turn off comes out upright, full size and as a thumbnail.
    @Test func rotatedPhotosComeOutUpright() async throws {
        try await withPipeline { origin, pipeline in
            let url = origin.appending(path: "images/rotated.jpg")
            let expected = try #require(SandboxImage(name: "rotated.jpg")).bitmap
            let full = try await pipeline.response(for: ImageRequest(url: url))
            #expect(full.original == ImageHeader(format: .jpeg, width: 600, height: 800, orientation: .right))
            try #require(full.image.width == 800 && full.image.height == 600)
            let difference = full.image.meanDifference(from: expected)
            #expect(difference < 4, "mean difference \(difference)")
            let thumbnail = try await pipeline.image(
                for: ImageRequest(url: url, processors: [ImageProcessors.Resize(maximumPixelSize: 200)])
            )
            #expect(thumbnail.width == 200 && thumbnail.height == 150)
        }
    }

    @Test func progressiveAndLargeJPEGsDecode() async throws {
        try await withPipeline { origin, pipeline in
            let progressive = try await pipeline.data(
                for: ImageRequest(url: origin.appending(path: "images/progressive.jpg"))
            )
            #expect(progressive.contains(0xC2), "a progressive frame header")
            let large = try await pipeline.response(
                for: ImageRequest(
                    url: origin.appending(path: "images/large.jpg"),
                    processors: [ImageProcessors.Resize(maximumPixelSize: 256)]
                )
            )
            #expect(large.original == ImageHeader(format: .jpeg, width: 4000, height: 3000))
            #expect(large.image.width == 256 && large.image.height == 192)
        }
    }

    @Test(arguments: [
        ("corrupt.jpg", ImagePipeline.Error.Stage.decoding),
        ("truncated.jpg", .decoding),
        ("truncated.png", .decoding),
        ("missing.jpg", .loading),
        ("nothing-here.gif", .loading),
    ])
    func brokenImagesFailWithTheirStage(name: String, stage: ImagePipeline.Error.Stage) async throws {
        try await withPipeline { origin, pipeline in
            let error = await #expect(throws: ImagePipeline.Error.self) {
                try await pipeline.image(for: origin.appending(path: "images/\(name)"))
            }
            #expect(error?.stage == stage)
        }
    }

    @Test func articleNumbersCoverEveryKind() {
        let kinds = (0..<400).compactMap { SandboxImage(name: "\($0).jpg")?.content }
        #expect(kinds.contains(.missing) && kinds.contains(.corruptJPEG) && kinds.contains(.truncated(.jpeg)))
        #expect(kinds.contains(.jpeg(progressive: true)) && kinds.contains(.jpeg(progressive: false)))
        #expect((0..<100).contains { SandboxImage(name: "\($0).jpg")?.size == SandboxImage.largest })
        #expect(
            SandboxImage(name: "5.jpg", query: ["size": "64x48"])?.size == PixelSize(width: 64, height: 48)
        )
    }
}

extension Bitmap {
    func meanDifference(from other: Bitmap) -> Double {
        zip(pixels, other.pixels).reduce(0) { $0 + abs(Double($1.0) - Double($1.1)) }
            / Double(max(pixels.count, 1))
    }
}
