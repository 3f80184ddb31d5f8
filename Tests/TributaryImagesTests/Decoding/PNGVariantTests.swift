import Foundation
import PropertyBased
import Testing
import TributaryImages

/// Every colour type and bit depth PNG has, plain and Adam7-interlaced, decoded to the pixels
/// they were written with.
struct PNGVariantTests {
    struct Variant: Sendable, CustomTestStringConvertible {
        var colorType: RawPNG.ColorType
        var bitDepth: Int
        var interlaced: Bool

        var testDescription: String {
            "\(colorType) \(bitDepth)-bit\(interlaced ? " interlaced" : "")"
        }
    }

    static let variants: [Variant] = RawPNG.ColorType.allCases.flatMap { type in
        type.bitDepths.flatMap { depth in
            [false, true].map { Variant(colorType: type, bitDepth: depth, interlaced: $0) }
        }
    }

    /// A palette of up to 256 distinct colours, the first 40 of them translucent.
    static let palette: [(red: UInt8, green: UInt8, blue: UInt8)] = (0..<256).map { index in
        let green = UInt8(truncatingIfNeeded: index * 67)
        let blue = UInt8(truncatingIfNeeded: index * 151 + 7)
        return (UInt8(index), green, blue)
    }
    static let paletteAlphas: [UInt8] = (0..<40).map { UInt8(truncatingIfNeeded: $0 * 37) }

    @Test(arguments: variants, [(13, 11), (1, 1), (3, 2)])
    func decodesToThePixelsWritten(variant: Variant, size: (width: Int, height: Int)) throws {
        var png = RawPNG(
            width: size.width,
            height: size.height,
            colorType: variant.colorType,
            bitDepth: variant.bitDepth,
            interlaced: variant.interlaced
        )
        let entries = min(1 << variant.bitDepth, 256)
        if variant.colorType == .palette {
            png.palette = Array(Self.palette.prefix(entries))
            png.paletteAlphas = Array(Self.paletteAlphas.prefix(entries))
        }
        let expected = Self.pixels(of: variant, size: size)
        let data = png.data { x, y in Self.samples(of: variant, x: x, y: y) }

        let header = try ImageHeader(data: data)
        #expect(header == ImageHeader(format: .png, width: size.width, height: size.height))
        let decoded = try Bitmap(decoding: data)
        try #require(decoded.width == size.width && decoded.height == size.height)
        #expect(decoded == expected)
    }

    /// Sixteen-bit samples with no colour space chunk are sRGB, as browsers read them, not
    /// linear light: mid-grey stays mid-grey.
    @Test(arguments: [false, true])
    func sixteenBitSamplesAreSRGBWithOrWithoutTheChunk(sRGBChunk: Bool) throws {
        var png = RawPNG(width: 2, height: 1, colorType: .grey, bitDepth: 16)
        png.sRGB = sRGBChunk
        let decoded = try Bitmap(decoding: png.data { x, _ in [x == 0 ? 0x8080 : 0x4040] })
        #expect(decoded[0, 0] == Bitmap.Pixel(red: 0x80, green: 0x80, blue: 0x80))
        #expect(decoded[1, 0] == Bitmap.Pixel(red: 0x40, green: 0x40, blue: 0x40))
    }

    /// A file that states its gamma is converted to sRGB: linear mid-grey is brighter in sRGB.
    @Test func aStatedGammaIsConvertedToSRGB() throws {
        var png = RawPNG(width: 3, height: 1, colorType: .grey, bitDepth: 8)
        png.gamma = 100_000
        let decoded = try Bitmap(decoding: png.data { x, _ in [[0, 128, 255][x]] })
        #expect(decoded[0, 0].red == 0)
        #expect((186...188).contains(decoded[1, 0].red))
        #expect(decoded[2, 0].red == 255)
        // An sRGB chunk outranks a stated gamma.
        png.sRGB = true
        let sRGB = try Bitmap(decoding: png.data { x, _ in [[0, 128, 255][x]] })
        #expect(sRGB[1, 0].red == 128)
    }

    /// Indices past the end of the palette read as opaque black, as browsers show them.
    @Test func aPaletteIndexBeyondThePaletteIsOpaqueBlack() throws {
        var png = RawPNG(width: 4, height: 1, colorType: .palette, bitDepth: 8)
        png.palette = Array(Self.palette.prefix(2))
        let decoded = try Bitmap(decoding: png.data { x, _ in [[0, 1, 2, 255][x]] })
        #expect(decoded[1, 0] == Bitmap.Pixel(red: 1, green: 67, blue: 158))
        #expect(decoded[2, 0] == Bitmap.Pixel(red: 0, green: 0, blue: 0))
        #expect(decoded[3, 0] == Bitmap.Pixel(red: 0, green: 0, blue: 0))
    }

    /// Damage behind valid checksums — bad filter types, stray bytes, rows cut short or run
    /// long — and headers with impossible fields end as an error or as a bitmap of the stated
    /// size, never as a crash or an overrun.
    @Test(arguments: variants)
    func damageBehindValidChecksumsIsRefusedOrDecoded(variant: Variant) throws {
        var random = Xoshiro(seed: (0x5EED, 4, 5, 6))
        var refused = 0
        for round in 0..<40 {
            var png = RawPNG(
                width: 13,
                height: 11,
                colorType: variant.colorType,
                bitDepth: variant.bitDepth,
                interlaced: variant.interlaced
            )
            png.palette = Array(Self.palette.prefix(min(1 << variant.bitDepth, 256)))
            let cut = Int.random(in: 0..<40, using: &random)
            png.damage = { lines in
                for _ in 0..<Int.random(in: 1...4, using: &random) where !lines.isEmpty {
                    lines[Int.random(in: 0..<lines.count, using: &random)] = UInt8.random(
                        in: 0...255,
                        using: &random
                    )
                }
                switch round % 3 {
                case 0: lines.removeLast(min(cut, lines.count))
                case 1: lines.append(contentsOf: (0..<cut).map { UInt8(truncatingIfNeeded: $0) })
                default: break
                }
            }
            let data = png.data { x, y in Self.samples(of: variant, x: x, y: y) }
            do {
                let bitmap = try Bitmap(decoding: data)
                #expect(bitmap.width == 13 && bitmap.height == 11)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    @Test(arguments: [
        (RawPNG.ColorType.palette, 16), (.rgb, 4), (.greyAlpha, 1), (.rgba, 2), (.grey, 3), (.grey, 0),
    ])
    func impossibleHeadersAreCorrupt(colorType: RawPNG.ColorType, bitDepth: Int) {
        var png = RawPNG(width: 4, height: 4, colorType: colorType, bitDepth: bitDepth)
        png.palette = Array(Self.palette.prefix(4))
        let data = png.data { _, _ in Array(repeating: 0, count: colorType.channels) }
        #expect(throws: ImageDecodingError.self) { try Bitmap(decoding: data) }
    }

    /// A width past the format's 2^31 - 1 is refused before anything is allocated, even by a
    /// decoder without a pixel limit.
    @Test func aWidthPastTheFormatsLimitIsCorrupt() {
        var data = RawPNG(width: 1, height: 1, colorType: .rgb, bitDepth: 8).data { _, _ in [0, 0, 0] }
        data.replaceSubrange(16..<20, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ImageDecodingError.corrupt("the PNG header states a size of 4294967295×1")) {
            try ImageDecoder(pixelLimit: .max).decode(data)
        }
    }

    // MARK: Expected pixels

    /// An 8-bit level for each pixel and channel, which every depth can express after scaling.
    private static func level(_ x: Int, _ y: Int, channel: Int) -> Int {
        (x * (7 + channel * 5) + y * (13 + channel * 3) + channel * 61) & 0xFF
    }

    private static func samples(of variant: Variant, x: Int, y: Int) -> [Int] {
        let depth = variant.bitDepth
        if variant.colorType == .palette {
            return [(x * 3 + y * 5) % min(1 << depth, 256)]
        }
        return (0..<variant.colorType.channels).map { channel in
            let level = level(x, y, channel: channel)
            return depth == 16 ? level * 257 : level >> (8 - depth)
        }
    }

    private static func pixels(of variant: Variant, size: (width: Int, height: Int)) -> Bitmap {
        var bitmap = Bitmap(width: size.width, height: size.height, fill: .init(red: 0, green: 0, blue: 0))
        for y in 0..<size.height {
            for x in 0..<size.width {
                bitmap[x, y] = pixel(of: variant, samples: samples(of: variant, x: x, y: y))
            }
        }
        return bitmap
    }

    /// What a pixel's samples mean as 8-bit RGBA.
    private static func pixel(of variant: Variant, samples: [Int]) -> Bitmap.Pixel {
        let maximum = (1 << variant.bitDepth) - 1
        let levels = samples.map { UInt8(($0 * 255 + maximum / 2) / maximum) }
        switch variant.colorType {
        case .grey:
            return .init(red: levels[0], green: levels[0], blue: levels[0])
        case .greyAlpha:
            return .init(red: levels[0], green: levels[0], blue: levels[0], alpha: levels[1])
        case .rgb:
            return .init(red: levels[0], green: levels[1], blue: levels[2])
        case .rgba:
            return .init(red: levels[0], green: levels[1], blue: levels[2], alpha: levels[3])
        case .palette:
            let index = samples[0]
            let entry = palette[index]
            let alpha = index < paletteAlphas.count ? paletteAlphas[index] : 255
            return .init(red: entry.red, green: entry.green, blue: entry.blue, alpha: alpha)
        }
    }
}
