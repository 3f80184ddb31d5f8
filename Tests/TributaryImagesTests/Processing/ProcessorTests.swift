import Testing
import TributaryImages

struct ProcessorTests {
    @Test(arguments: [
        (ImageProcessors.Resize.ContentMode.fit, false, 200, 100),
        (.fill, false, 300, 150),
        (.fill, true, 200, 150),
    ])
    func resizeSizes(mode: ImageProcessors.Resize.ContentMode, crop: Bool, width: Int, height: Int) throws {
        let resize = ImageProcessors.Resize(
            size: PixelSize(width: 200, height: 150),
            contentMode: mode,
            crop: crop
        )
        let result = try resize.process(Bitmap.pattern(width: 800, height: 400))
        #expect(result.width == width && result.height == height)
    }

    @Test func smallImagesAreNotEnlargedUnlessAsked() throws {
        let image = Bitmap.pattern(width: 40, height: 30)
        #expect(try ImageProcessors.Resize(maximumPixelSize: 256).process(image) == image)
        let upscaled = try ImageProcessors.Resize(size: PixelSize(width: 80, height: 80), upscale: true)
            .process(image)
        #expect(upscaled.width == 80 && upscaled.height == 60)
    }

    @Test func uniformColourStaysUniform() throws {
        let image = Bitmap(width: 333, height: 171, fill: .init(red: 10, green: 200, blue: 77, alpha: 255))
        let result = try ImageProcessors.Resize(maximumPixelSize: 50).process(image)
        let colours = Set((0..<result.height).flatMap { y in (0..<result.width).map { x in result[x, y] } })
        #expect(colours.count == 1)
        #expect(result[0, 0] == .init(red: 10, green: 200, blue: 77, alpha: 255))
    }

    @Test func transparentNeighboursLeaveNoDarkFringe() throws {
        // Left half opaque red, right half transparent black: the edge must stay red, only fading.
        var image = Bitmap(width: 100, height: 10, fill: .init(red: 0, green: 0, blue: 0, alpha: 0))
        for x in 0..<50 { for y in 0..<10 { image[x, y] = .init(red: 255, green: 0, blue: 0) } }
        let result = try ImageProcessors.Resize(maximumPixelSize: 20).process(image)
        let row = result.height / 2
        for x in 0..<result.width where result[x, row].alpha > 16 {
            #expect(result[x, row].red > 240, "column \(x): \(result[x, row])")
        }
    }

    @Test func downscalingAveragesFinePatterns() throws {
        // One-pixel stripes of black and white average to grey instead of aliasing.
        var image = Bitmap(width: 400, height: 40, fill: .init(red: 0, green: 0, blue: 0))
        for x in stride(from: 0, to: 400, by: 2) {
            for y in 0..<40 { image[x, y] = .init(red: 255, green: 255, blue: 255) }
        }
        let result = try ImageProcessors.Resize(size: PixelSize(width: 40, height: 4)).process(image)
        for x in 1..<(result.width - 1) { #expect((110...145).contains(result[x, 2].red)) }
    }

    @Test func cropCutsExactPixels() throws {
        let image = Bitmap.pattern(width: 64, height: 64)
        let result = try ImageProcessors.Crop(x: 10, y: 20, width: 5, height: 7).process(image)
        #expect(result.width == 5 && result.height == 7)
        #expect(result[0, 0] == image[10, 20] && result[4, 6] == image[14, 26])
        let clipped = try ImageProcessors.Crop(x: 60, y: -5, width: 10, height: 10).process(image)
        #expect(clipped.width == 4 && clipped.height == 5)
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Crop(x: 100, y: 0, width: 5, height: 5).process(image)
        }
    }

    @Test func identifiersDistinguishParameters() {
        let identifiers = [
            ImageProcessors.Resize(maximumPixelSize: 256).identifier,
            ImageProcessors.Resize(size: PixelSize(width: 256, height: 256), contentMode: .fill).identifier,
            ImageProcessors.Resize(size: PixelSize(width: 256, height: 256), contentMode: .fill, crop: true)
                .identifier,
            ImageProcessors.Crop(x: 0, y: 0, width: 256, height: 256).identifier,
        ]
        #expect(Set(identifiers).count == identifiers.count)
    }
}
