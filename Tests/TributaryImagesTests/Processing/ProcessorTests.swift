import PropertyBased
import Testing
import TributaryImages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Each output pixel is the Catmull-Rom kernel (widened by the scale when shrinking)
    /// applied in two dimensions to premultiplied colour, worked out here directly in
    /// double precision, one output pixel at a time.
    @Test(arguments: [
        (PixelSize(width: 97, height: 61), PixelSize(width: 40, height: 25)),
        (PixelSize(width: 640, height: 480), PixelSize(width: 37, height: 28)),
        (PixelSize(width: 30, height: 20), PixelSize(width: 75, height: 50)),
        (PixelSize(width: 5, height: 3), PixelSize(width: 2, height: 1)),
        (PixelSize(width: 4, height: 12), PixelSize(width: 1, height: 3)),
    ])
    func resizeMatchesTheKernelWorkedOutPixelByPixel(source: PixelSize, target: PixelSize) throws {
        let image = Bitmap.pattern(width: source.width, height: source.height, alpha: true)
        let resize = ImageProcessors.Resize(size: target, contentMode: .fill, crop: true, upscale: true)
        let result = try resize.process(image)
        #expect(result.width == target.width && result.height == target.height)
        let columns = KernelWindow.all(source: source.width, target: target.width)
        let rows = KernelWindow.all(source: source.height, target: target.height)
        var worst = 0
        for y in 0..<target.height {
            for x in 0..<target.width {
                var sums = [0.0, 0.0, 0.0, 0.0]
                for (row, rowWeight) in rows[y].taps {
                    for (column, columnWeight) in columns[x].taps {
                        let pixel = image[column, row]
                        let weight = rowWeight * columnWeight
                        let alpha = Double(pixel.alpha)
                        sums[0] += Double(pixel.red) * alpha / 255 * weight
                        sums[1] += Double(pixel.green) * alpha / 255 * weight
                        sums[2] += Double(pixel.blue) * alpha / 255 * weight
                        sums[3] += alpha * weight
                    }
                }
                let alpha = min(max(sums[3], 0), 255)
                let expected =
                    (0..<3).map { alpha > 0 ? min(max(sums[$0] * 255 / alpha, 0), 255) : 0 } + [alpha]
                let pixel = result[x, y]
                let actual = [pixel.red, pixel.green, pixel.blue, pixel.alpha].map(Double.init)
                for channel in 0..<4 {
                    worst = max(worst, Int(abs(actual[channel] - expected[channel]).rounded(.up)))
                }
            }
        }
        #expect(worst <= 1, "largest channel difference \(worst)")
    }

    /// A filled and cropped resize resamples only the part it keeps, to the very pixels that
    /// scaling the whole image and cutting out its centre gives.
    @Test func aCroppedFillIsTheCentreOfTheWholeFill() throws {
        var random = Xoshiro(seed: (0x5EED, 10, 11, 12))
        for _ in 0..<60 {
            let image = Bitmap.pattern(
                width: Int.random(in: 1...120, using: &random),
                height: Int.random(in: 1...120, using: &random),
                alpha: Bool.random(using: &random)
            )
            let size = PixelSize(
                width: Int.random(in: 1...90, using: &random),
                height: Int.random(in: 1...90, using: &random)
            )
            let upscale = Bool.random(using: &random)
            let whole = try ImageProcessors.Resize(size: size, contentMode: .fill, upscale: upscale).process(
                image
            )
            let cropped = try ImageProcessors.Resize(
                size: size,
                contentMode: .fill,
                crop: true,
                upscale: upscale
            )
            .process(image)
            let width = min(size.width, whole.width)
            let height = min(size.height, whole.height)
            let centre = try ImageProcessors.Crop(
                x: (whole.width - width) / 2,
                y: (whole.height - height) / 2,
                width: width,
                height: height
            )
            .process(whole)
            #expect(cropped == centre, "\(image.width)×\(image.height) filling \(size), upscale \(upscale)")
        }
    }

    /// A thin image filled into a square and scaled up costs the square, not the 256×1,024,000
    /// pixels it would reach whole.
    @Test func aThinImageFilledAndScaledUpCostsOnlyWhatIsKept() throws {
        var image = Bitmap(width: 1, height: 4_000, fill: .init(red: 0, green: 0, blue: 0))
        for y in 0..<4_000 { image[0, y] = .init(red: UInt8(y * 255 / 3_999), green: 90, blue: 200) }
        let square = PixelSize(width: 256, height: 256)
        let peakBefore = Self.peakResidentBytes()
        let result = try ImageProcessors.Resize(size: square, contentMode: .fill, crop: true, upscale: true)
            .process(image)
        // The whole would be a 1 GB bitmap, resampled through 4 GB of intermediate rows.
        #expect(Self.peakResidentBytes() - peakBefore < 256 << 20)
        #expect(result.width == 256 && result.height == 256)
        // The middle of the image, where the red ramp is at half.
        #expect(result[0, 0] == result[255, 0])
        #expect((126...129).contains(Int(result[128, 128].red)))
        #expect(result[128, 128].green == 90 && result[128, 128].blue == 200)
    }

    /// A result past the pixel limit is refused before any of it is allocated: a thin image
    /// filled and scaled up but not cropped reaches 256×1,024,000 pixels.
    @Test func aResizePastThePixelLimitIsRefused() throws {
        let thin = Bitmap.pattern(width: 1, height: 4_000)
        let square = PixelSize(width: 256, height: 256)
        let peakBefore = Self.peakResidentBytes()
        let error = #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Resize(size: square, contentMode: .fill, upscale: true).process(thin)
        }
        #expect(Self.peakResidentBytes() - peakBefore < 256 << 20)
        #expect(
            error?.reason == "Resizing the 1×4000 image with resize(256x256,fill,upscale) would make "
                + "256×1024000 pixels, more than the limit of 64000000."
        )
        let huge = PixelSize(width: Int.max, height: Int.max)
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Resize(size: huge, upscale: true).process(thin)
        }

        // The limit is on the result, inclusive.
        let small = Bitmap.pattern(width: 2, height: 40)
        let fill = PixelSize(width: 16, height: 16)
        let atLimit = try ImageProcessors.Resize(
            size: fill,
            contentMode: .fill,
            upscale: true,
            pixelLimit: 5_120
        )
        .process(small)
        #expect(atLimit.width == 16 && atLimit.height == 320)
        #expect(throws: ImageProcessingError.self) {
            try ImageProcessors.Resize(size: fill, contentMode: .fill, upscale: true, pixelLimit: 5_119)
                .process(small)
        }
    }

    /// The most memory the process has held resident so far.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)
        #else
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Int(usage.ru_maxrss) * 1024
        #endif
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

/// The source pixels one output position reads along an axis, and their weights.
private struct KernelWindow {
    var taps: [(index: Int, weight: Double)]

    static func all(source: Int, target: Int) -> [KernelWindow] {
        let scale = Double(source) / Double(target)
        let support = 2 * max(scale, 1)
        let width = Int((2 * support).rounded(.up)) + 1
        return (0..<target).map { position in
            let center = (Double(position) + 0.5) * scale - 0.5
            // The window starts at the first pixel within reach, moved inside the image.
            let first = min(max(Int((center - support).rounded(.up)), 0), max(source - width, 0))
            let indices = first..<min(first + width, source)
            let raw = indices.map { kernel((Double($0) - center) / max(scale, 1)) }
            let total = raw.reduce(0, +)
            return KernelWindow(taps: zip(indices, raw).map { ($0, total == 0 ? 0 : $1 / total) })
        }
    }

    static func kernel(_ distance: Double) -> Double {
        let d = abs(distance)
        switch d {
        case ..<1: return (1.5 * d - 2.5) * d * d + 1
        case ..<2: return ((-0.5 * d + 2.5) * d - 4) * d + 2
        default: return 0
        }
    }
}
