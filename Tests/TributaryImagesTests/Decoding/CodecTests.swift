import Foundation
import PropertyBased
import Testing
import TributaryImages

struct CodecTests {
    @Test func jpegRoundTripKeepsThePicture() throws {
        // Smooth gradients survive JPEG almost exactly; one-pixel lines less so.
        let smooth = Bitmap.pattern(width: 120, height: 80, lines: false)
        let data = try smooth.jpegData(quality: 92)
        #expect(ImageFormat(sniffing: data) == .jpeg)
        let decoded = try Bitmap(decoding: data)
        #expect(decoded.width == 120 && decoded.height == 80)
        #expect(decoded.meanDifference(from: smooth) < 2)
        let lined = Bitmap.pattern(width: 120, height: 80)
        #expect(try Bitmap(decoding: lined.jpegData(quality: 92)).meanDifference(from: lined) < 12)
    }

    @Test func progressiveJPEGDecodesLikeBaseline() throws {
        let original = Bitmap.pattern(width: 96, height: 64)
        let baseline = try Bitmap(decoding: original.jpegData(quality: 90))
        let progressive = try Bitmap(decoding: original.jpegData(quality: 90, progressive: true))
        #expect(progressive.meanDifference(from: baseline) < 1.5)
    }

    @Test func pngRoundTripIsExactIncludingAlpha() throws {
        let original = Bitmap.pattern(width: 50, height: 30, alpha: true)
        let data = try original.pngData()
        #expect(ImageFormat(sniffing: data) == .png)
        let decoded = try Bitmap(decoding: data)
        #expect(decoded == original)
        #expect(decoded.hasTransparency)
    }

    @Test func jpegThumbnailDecodesAtTheSmallestSufficientScale() throws {
        let data = try Bitmap.pattern(width: 800, height: 600).jpegData()
        let decoder = ImageDecoder()
        let eighth = try decoder.decode(data, minimumSize: PixelSize(width: 100, height: 75))
        #expect(eighth.width == 100 && eighth.height == 75)
        let quarter = try decoder.decode(data, minimumSize: PixelSize(width: 101, height: 10))
        #expect(quarter.width == 200 && quarter.height == 150)
        let full = try decoder.decode(data, minimumSize: PixelSize(width: 2000, height: 2000))
        #expect(full.width == 800 && full.height == 600)
    }

    @Test(
        arguments: [
            (
                "jpeg", [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x30, 0x00, 0x40], ImageFormat.jpeg,
                64, 48
            ),
            ("gif", Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00], .gif, 320, 240),
            (
                "bmp",
                Array("BM".utf8) + [UInt8](repeating: 0, count: 12) + [
                    40, 0, 0, 0, 0x20, 0, 0, 0, 0xF0, 0xFF, 0xFF, 0xFF,
                ],
                .bmp, 32, 16
            ),
            (
                "webp-vp8x",
                Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [
                    10, 0, 0, 0, 0, 0, 0, 0, 0x3F, 0x01, 0, 0xEF, 0, 0,
                ],
                .webp, 320, 240
            ),
            (
                "webp-vp8l",
                Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8L".utf8) + [
                    0, 0, 0, 0, 0x2F, 0x3F, 0xC0, 0x3B, 0x00,
                ],
                .webp, 64, 240
            ),
            (
                "avif",
                [0, 0, 0, 0x18] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1avif".utf8)
                    + [0, 0, 0, 0x14] + Array("ispe".utf8) + [
                        0, 0, 0, 0, 0, 0, 0x07, 0x80, 0, 0, 0x04, 0x38,
                    ],
                .avif, 1920, 1080
            ),
            (
                "heic",
                [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
                    + [0, 0, 0, 0x14] + Array("ispe".utf8) + [
                        0, 0, 0, 0, 0, 0, 0x0F, 0xC0, 0, 0, 0x0B, 0xD0,
                    ],
                .heic, 4032, 3024
            ),
        ] as [(String, [UInt8], ImageFormat, Int, Int)]
    )
    func headersAreReadWithoutDecoding(
        name: String,
        bytes: [UInt8],
        format: ImageFormat,
        width: Int,
        height: Int
    ) throws {
        let header = try ImageHeader(data: Data(bytes))
        #expect(header == ImageHeader(format: format, width: width, height: height), "\(name)")
    }

    @Test func pngHeaderIsRead() throws {
        let header = try ImageHeader(data: Bitmap.pattern(width: 33, height: 17).pngData())
        #expect(header == ImageHeader(format: .png, width: 33, height: 17))
    }

    // MARK: Hostile input

    @Test func unknownBytesAreUnrecognized() {
        #expect(throws: ImageDecodingError.unrecognizedFormat) {
            try Bitmap(decoding: Data("<html>oops</html>".utf8))
        }
        #expect(throws: ImageDecodingError.unrecognizedFormat) { try Bitmap(decoding: Data()) }
    }

    @Test func formatsWithoutADecoderSaySo() {
        let gif = Data(Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0, 0, 0])
        #expect(throws: ImageDecodingError.unsupportedFormat(.gif)) { try Bitmap(decoding: gif) }
    }

    @Test func truncatedFilesAreTruncated() throws {
        let jpeg = try Bitmap.pattern(width: 200, height: 150).jpegData()
        #expect(throws: ImageDecodingError.truncated) { try Bitmap(decoding: jpeg.prefix(jpeg.count / 2)) }
        let png = try Bitmap.pattern(width: 200, height: 150).pngData()
        #expect(throws: ImageDecodingError.truncated) { try Bitmap(decoding: png.prefix(png.count / 2)) }
        #expect(throws: ImageDecodingError.truncated) { try Bitmap(decoding: png.prefix(20)) }
    }

    /// HEIF sizes are two 32-bit numbers, whose product passes `Int.max`; comparing two of them
    /// to find the primary image must not overflow.
    @Test func theLargestHEIFSizesAreReadWithoutOverflow() throws {
        let largest: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let bytes =
            [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
            + [0, 0, 0, 0x14] + Array("ispe".utf8) + [0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0x01, 0]
            + [0, 0, 0, 0x14] + Array("ispe".utf8) + [0, 0, 0, 0] + largest
            + [0, 0, 0, 0x14] + Array("ispe".utf8) + [0, 0, 0, 0] + largest
        let header = try ImageHeader(data: Data(bytes))
        #expect(header.width == 4_294_967_295 && header.height == 4_294_967_295)
        #expect(header.pixelCount == .max)
        #expect(
            throws: ImageDecodingError.tooManyPixels(
                width: 4_294_967_295,
                height: 4_294_967_295,
                limit: 64_000_000
            )
        ) {
            try ImageDecoder().decode(Data(bytes), minimumSize: nil)
        }
    }

    /// Headers of every format, with each signature followed by random bytes laced with the
    /// markers the readers look for, read without a crash: a size or a typed error.
    @Test func randomHeadersAreReadOrRefusedNeverCrash() {
        let signatures: [[UInt8]] = [
            [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("GIF89a".utf8),
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8),
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8L".utf8),
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8), Array("BM".utf8),
            [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8),
            [0, 0, 0, 0x18] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1avif".utf8),
        ]
        let pieces: [[UInt8]] = [
            [0xFF], [0x00], [0xFF, 0xFF, 0xFF, 0xFF], [0x80, 0, 0, 0], Array("ispe".utf8), Array("eXIf".utf8),
            Array("Exif".utf8) + [0, 0], Array("MM".utf8) + [0, 42], Array("II".utf8) + [42, 0],
            [0xFF, 0xC0], [0xFF, 0xC2], [0xFF, 0xE1], [0x9D, 0x01, 0x2A], [0x2F],
        ]
        var random = Xoshiro(seed: (0x5EED, 21, 22, 23))
        var sizes = 0
        for signature in signatures {
            for _ in 0..<400 {
                var bytes = signature
                for _ in 0..<Int.random(in: 0...24, using: &random) {
                    if Bool.random(using: &random) {
                        bytes += pieces.randomElement(using: &random)!
                    } else {
                        bytes += (0..<Int.random(in: 1...8, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        }
                    }
                }
                do {
                    let header = try ImageHeader(data: Data(bytes))
                    #expect(header.width > 0 && header.height > 0 && header.pixelCount > 0)
                    sizes += 1
                } catch {
                    // Every refusal is an ImageDecodingError, by the initialiser's type.
                }
            }
        }
        #expect(sizes > 0)
    }

    @Test func liedAboutDimensionsAreRefusedBeforeDecoding() throws {
        // A valid JPEG whose frame header claims 60000×60000: refused without allocating 14 GB.
        var data = try Bitmap.pattern(width: 16, height: 16).jpegData()
        let frame = try #require(data.indices.first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        for offset in [5, 7] {
            data[frame + offset] = 0xEA
            data[frame + offset + 1] = 0x60
        }
        #expect(throws: ImageDecodingError.tooManyPixels(width: 60000, height: 60000, limit: 64_000_000)) {
            try Bitmap(decoding: data)
        }
        let small = ImageDecoder(pixelLimit: 100)
        #expect(throws: ImageDecodingError.tooManyPixels(width: 16, height: 16, limit: 100)) {
            try small.decode(Bitmap.pattern(width: 16, height: 16).pngData(), minimumSize: nil)
        }
    }

    @Test func progressiveJPEGsWithTooManyScansAreRefused() throws {
        // jpeg_simple_progression writes ten scans; a decoder allowing three refuses the file
        // instead of spending a pass over every coefficient on each.
        let data = try Bitmap.pattern(width: 64, height: 48).jpegData(progressive: true)
        let strict = ImageDecoder(maximumProgressiveScans: 3)
        #expect(throws: ImageDecodingError.corrupt("more than 3 progressive scans")) {
            try strict.decode(data, minimumSize: nil)
        }
        #expect(try ImageDecoder().decode(data, minimumSize: nil).width == 64)
    }

    @Test func zeroSizedHeadersAreCorrupt() {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x00, 0x00, 0x40])
        #expect(throws: ImageDecodingError.self) { try Bitmap(decoding: jpeg) }
    }

    @Test func corruptedDataNeverCrashes() throws {
        let sources = [
            try Bitmap.pattern(width: 64, height: 48).jpegData(),
            try Bitmap.pattern(width: 64, height: 48).jpegData(progressive: true),
            try Bitmap.pattern(width: 64, height: 48, alpha: true).pngData(),
            try OrientationTests.jpeg(width: 64, height: 48, orientation: .right),
            OrientationTests.png(
                exif: OrientationTests.tiff(littleEndian: true, value: 6, exifHeader: false)
            ),
        ]
        var random = Xoshiro(seed: (0x5EED, 7, 8, 9))
        var failures = 0
        for source in sources {
            for _ in 0..<150 {
                let data = source.randomlyDamaged(maximumChanges: 12, using: &random)
                do {
                    _ = try Bitmap(decoding: data)
                } catch {
                    failures += 1
                }
            }
        }
        // Most mutations are caught; whichever are not still decode to a valid bitmap.
        #expect(failures > 0)
    }
}
