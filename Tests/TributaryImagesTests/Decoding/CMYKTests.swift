#if canImport(CJPEG)
    import Foundation
    import Testing
    import TributaryImages

    /// CMYK and YCCK JPEGs, as print workflows write them, decode to the colours their inks make.
    struct CMYKTests {
        static let width = 64
        static let height = 48

        /// Smooth inks: cyan across, magenta down, a little yellow, black rising along the diagonal.
        static let inks: [UInt8] = (0..<(width * height)).flatMap { index -> [UInt8] in
            let (x, y) = (index % width, index / width)
            return [
                UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), 64,
                UInt8((x + y) * 128 / (width + height - 2)),
            ]
        }

        /// What the inks look like on screen: each colour is its ink's complement, darkened by black.
        static var expected: Bitmap {
            var bitmap = Bitmap(width: width, height: height, fill: .init(red: 0, green: 0, blue: 0))
            for index in 0..<(width * height) {
                let ink = inks[(index * 4)..<(index * 4 + 4)].map(Int.init)
                let channel = { (value: Int) in UInt8(((255 - value) * (255 - ink[3]) + 127) / 255) }
                bitmap[index % width, index / width] = .init(
                    red: channel(ink[0]),
                    green: channel(ink[1]),
                    blue: channel(ink[2])
                )
            }
            return bitmap
        }

        @Test(arguments: [(true, false), (false, false), (true, true)])
        func decodesToTheColoursOfItsInks(adobe: Bool, ycck: Bool) throws {
            let data = CMYKJPEG.encode(
                width: Self.width,
                height: Self.height,
                inks: Self.inks,
                adobe: adobe,
                ycck: ycck
            )
            let decoded = try Bitmap(decoding: data)
            try #require(decoded.width == Self.width && decoded.height == Self.height)
            let difference = decoded.meanDifference(from: Self.expected)
            #expect(difference < 1.5, "mean difference \(difference)")
            #expect(!decoded.hasTransparency)
        }

        /// A thumbnail of a CMYK JPEG decodes at 1/8 scale too, to the mean of each 8×8 block.
        @Test func thumbnailsDecodeAtAReducedScale() throws {
            let data = CMYKJPEG.encode(width: Self.width, height: Self.height, inks: Self.inks)
            let thumbnail = try ImageDecoder().decode(data, minimumSize: PixelSize(width: 8, height: 6))
            try #require(thumbnail.width == 8 && thumbnail.height == 6)
            let full = try Bitmap(decoding: data)
            var total = 0
            for y in 0..<6 {
                for x in 0..<8 {
                    var sum = 0
                    for dy in 0..<8 {
                        for dx in 0..<8 { sum += Int(full[x * 8 + dx, y * 8 + dy].red) }
                    }
                    total += abs(sum / 64 - Int(thumbnail[x, y].red))
                }
            }
            #expect(Double(total) / 48 < 3)
        }
    }
#endif
