import TributaryImages

extension Bitmap {
    /// The mean absolute difference per channel, for lossy codecs.
    func meanDifference(from other: Bitmap, includingAlpha: Bool = false) -> Double {
        precondition(width == other.width && height == other.height, "sizes differ")
        var total = 0
        var count = 0
        for index in pixels.indices where includingAlpha || index % 4 != 3 {
            total += abs(Int(pixels[index]) - Int(other.pixels[index]))
            count += 1
        }
        return count == 0 ? 0 : Double(total) / Double(count)
    }

    /// A gradient with a grid, like real photos in having edges and smooth areas.
    static func pattern(width: Int, height: Int, alpha: Bool = false, lines: Bool = true) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height, fill: .init(red: 0, green: 0, blue: 0))
        for y in 0..<height {
            for x in 0..<width {
                let line = lines && (x % 16 == 0 || y % 16 == 0)
                bitmap[x, y] = .init(
                    red: line ? 255 : UInt8(x * 255 / max(width - 1, 1)),
                    green: line ? 255 : UInt8(y * 255 / max(height - 1, 1)),
                    blue: 128,
                    alpha: alpha ? UInt8(x * 255 / max(width - 1, 1)) : 255
                )
            }
        }
        return bitmap
    }
}
