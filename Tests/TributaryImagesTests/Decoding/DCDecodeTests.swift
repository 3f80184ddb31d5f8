import CImageCodecs
import Foundation
import PropertyBased
import Testing

@testable import TributaryImages

/// The 1/8-scale decoder that reads only DC coefficients, held against libjpeg's own 1/8-scale
/// decode of the same file, baseline and progressive.
struct DCDecodeTests {
    typealias Layout = JPEGCodec.Layout

    /// A photo-like picture: gradients, edges and fine noise, at a size that leaves partial
    /// blocks and partial MCUs on the right and at the bottom.
    static let picture: Bitmap = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bitmap = Bitmap.pattern(width: 203, height: 117)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(state >> 60) - 8
                let pixel = bitmap[x, y]
                bitmap[x, y] = .init(
                    red: UInt8(clamping: Int(pixel.red) + noise),
                    green: UInt8(clamping: Int(pixel.green) - noise),
                    blue: UInt8(clamping: (x * y) % 256 + noise)
                )
            }
        }
        return bitmap
    }()

    /// Decodes with the DC decoder alone; nil when it declines.
    static func dcDecode(_ data: Data, width: Int, height: Int, maximumScans: Int = 1_000) -> Bitmap? {
        var handled: Int32 = 0
        let bitmap = Bitmap(width: width, height: height) { buffer in
            buffer.update(repeating: 0)
            handled = data.withUnsafeBytes {
                tic_jpeg_decode_dc_rgba(
                    $0.baseAddress,
                    $0.count,
                    buffer.baseAddress,
                    Int32(width),
                    Int32(height),
                    Int32(maximumScans)
                )
            }
        }
        return handled == 1 ? bitmap : nil
    }

    /// The DC decode of a file, and libjpeg's 1/8 decode of the same file.
    static func decodes(
        _ layout: Layout,
        quality: Int = 90,
        progressive: Bool
    ) throws -> (fast: Bitmap, reference: Bitmap) {
        let data = try JPEGCodec.encode(picture, quality: quality, progressive: progressive, layout: layout)
        let reference = try JPEGCodec.decode(data, eighths: 1, maximumScans: 1_000, libjpegOnly: true)
        #expect(reference.width == 26 && reference.height == 15)
        let fast = try #require(dcDecode(data, width: 26, height: 15))
        return (fast, reference)
    }

    static func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Grey, and chroma at full resolution or halved in one direction (repeated, as libjpeg does
    /// without fancy upsampling), come out exactly as libjpeg decodes them, baseline or
    /// progressive (its DC scans first and refining, its AC scans passed over), restarts or not.
    @Test(arguments: [
        Layout(grayscale: true),
        Layout(lumaSampling: (1, 1)),
        Layout(lumaSampling: (2, 1)),
        Layout(lumaSampling: (1, 2)),
        Layout(restartInterval: 1, grayscale: true),
        Layout(restartInterval: 3, lumaSampling: (1, 1)),
    ])
    func matchesLibjpegExactly(layout: Layout) throws {
        // From coarse quantization to none: short codes only, up to the longest codes and
        // magnitudes (which the lookup tables leave to the slow path).
        for quality in [30, 75, 90, 100] {
            for progressive in [false, true] {
                let (fast, reference) = try Self.decodes(layout, quality: quality, progressive: progressive)
                #expect(
                    Self.largestDifference(fast, reference) == 0,
                    "quality \(quality), progressive: \(progressive)"
                )
            }
        }
    }

    /// Chroma halved both ways: each chroma block's quadrant means, which libjpeg works out in
    /// fixed point with its 2x2 inverse DCT and this decoder in floating point, so a few pixels
    /// round the other way. A progressive file's chroma comes from its AC scans too, first and
    /// refining.
    @Test(arguments: [Layout(), Layout(restartInterval: 5), Layout(restartInterval: 1)])
    func matchesLibjpegToRoundingWithChromaHalvedBothWays(layout: Layout) throws {
        for quality in [30, 75, 90, 100] {
            for progressive in [false, true] {
                let (fast, reference) = try Self.decodes(layout, quality: quality, progressive: progressive)
                let context: Comment = "quality \(quality), progressive: \(progressive)"
                #expect(fast.meanDifference(from: reference) < 0.1, context)
                #expect(Self.largestDifference(fast, reference) <= 2, context)
            }
        }
    }

    @Test(arguments: [false, true])
    func thumbnailsGoThroughIt(progressive: Bool) throws {
        // At 1/8 the decoder's output is what ImageDecoder returns; at 2/8 it is not used.
        let data = try JPEGCodec.encode(Self.picture, quality: 80, progressive: progressive)
        let eighth = try ImageDecoder().decode(data, minimumSize: PixelSize(width: 20, height: 10))
        #expect(eighth == Self.dcDecode(data, width: 26, height: 15))
        let quarter = try ImageDecoder().decode(data, minimumSize: PixelSize(width: 40, height: 20))
        #expect(quarter.width == 51 && quarter.height == 30)
    }

    @Test func aFileWithMoreScansThanAllowedIsRefusedAtEveryScale() throws {
        // libjpeg's progressive script for YCbCr has ten scans.
        let data = try JPEGCodec.encode(Self.picture, quality: 80, progressive: true)
        #expect(Self.dcDecode(data, width: 26, height: 15, maximumScans: 10) != nil)
        #expect(Self.dcDecode(data, width: 26, height: 15, maximumScans: 9) == nil)
        let decoder = ImageDecoder(maximumProgressiveScans: 9)
        for size in [nil, PixelSize(width: 20, height: 10)] {
            #expect(throws: ImageDecodingError.self) { try decoder.decode(data, minimumSize: size) }
        }
    }

    @Test func whatLibjpegRefusesIsRefusedAtEveryScale() throws {
        // A DC table whose last symbol claims a magnitude of 16 bits: libjpeg refuses the table.
        var data = try JPEGCodec.encode(Self.picture, quality: 80, progressive: false)
        let bytes = [UInt8](data)
        let table = try #require(
            bytes.indices.dropLast(5).first {
                bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC4 && bytes[$0 + 4] >> 4 == 0
            }
        )
        let counts = bytes[(table + 5)..<(table + 21)].reduce(0) { $0 + Int($1) }
        data[table + 20 + counts] = 16
        #expect(Self.dcDecode(data, width: 26, height: 15) == nil)
        #expect(throws: ImageDecodingError.self) { try ImageDecoder().decode(data, minimumSize: nil) }
        #expect(throws: ImageDecodingError.self) {
            try ImageDecoder().decode(data, minimumSize: PixelSize(width: 20, height: 10))
        }
    }

    /// Every damaged file is either declined, and left to libjpeg, or decoded to what libjpeg
    /// decodes from the same bytes; none reads or writes out of bounds (the address sanitizer
    /// checks the same loop).
    @Test func damagedDataIsDeclinedOrDecodedAsLibjpegDoes() throws {
        var random = Xoshiro(seed: (0x5EED, 1, 2, 3))
        var outcomes: [String: Int] = [:]
        for (layout, tolerance) in [
            (Layout(), 2), (Layout(restartInterval: 2), 2), (Layout(grayscale: true), 0),
        ] {
            for progressive in [false, true] {
                let source = try JPEGCodec.encode(
                    Self.picture,
                    quality: 75,
                    progressive: progressive,
                    layout: layout
                )
                for round in 0..<400 {
                    let data = source.randomlyDamaged(maximumChanges: 8, using: &random)
                    guard let fast = Self.dcDecode(data, width: 26, height: 15) else {
                        outcomes["declined", default: 0] += 1
                        continue
                    }
                    let context: Comment = "round \(round), \(layout), progressive: \(progressive)"
                    do {
                        let reference = try JPEGCodec.decode(
                            data,
                            eighths: 1,
                            maximumScans: 1_000,
                            libjpegOnly: true
                        )
                        #expect(Self.largestDifference(fast, reference) <= tolerance, context)
                        outcomes["decoded alike", default: 0] += 1
                    } catch {
                        Issue.record("decoded what libjpeg refuses (\(error)): \(context)")
                    }
                }
            }
        }
        // Both outcomes occur: the damage reaches the entropy-coded data, and spares it too.
        #expect(outcomes["declined", default: 0] > 0, "\(outcomes)")
        #expect(outcomes["decoded alike", default: 0] > 0, "\(outcomes)")
        for progressive in [false, true] {
            let source = try JPEGCodec.encode(Self.picture, quality: 75, progressive: progressive)
            let truncated = Data(source.dropLast(40))
            #expect(Self.dcDecode(truncated, width: 26, height: 15) == nil)
            #expect(throws: ImageDecodingError.truncated) {
                try ImageDecoder().decode(truncated, minimumSize: PixelSize(width: 20, height: 10))
            }
        }
    }
}
