public import Foundation
public import TributaryImages

/// The images the sandbox serves under `/images/`, generated from their path alone, so every
/// run serves the same bytes.
///
/// Article images (`/images/N.jpg`, `/images/N.png`) come in several sizes up to 4000×3000;
/// one JPEG in three is progressive; PNGs have an alpha gradient; a few numbers answer with a
/// corrupt or truncated file, and a few with 404. Named fixtures cover each case on purpose:
/// `large.jpg` (4000×3000), `progressive.jpg`, `alpha.png`, `rotated.jpg` (a photo stored a
/// quarter turn off, with the EXIF orientation that turns it upright), `corrupt.jpg`,
/// `truncated.jpg`, `truncated.png`, `missing.jpg`. Any image takes `?size=WxH` (up to
/// 4000×3000) to choose its size, and JPEGs take `?progressive=1`.
public struct SandboxImage: Sendable, Hashable {
    /// What the file holds.
    public enum Content: Sendable, Hashable {
        /// A JPEG, progressive or baseline.
        case jpeg(progressive: Bool)
        /// A baseline JPEG whose pixels are stored a quarter turn counter-clockwise, with the
        /// EXIF orientation `ImageOrientation.right` that turns them upright.
        case rotatedJPEG
        /// A PNG whose alpha is a gradient.
        case png
        /// A JPEG whose entropy-coded data is garbage after the headers.
        case corruptJPEG
        /// The first part of a valid file of this format.
        case truncated(ImageFormat)
        /// No file: the sandbox answers 404.
        case missing
    }

    /// What the file holds.
    public var content: Content
    /// The image's size in pixels.
    public var size: PixelSize
    /// Chooses the pattern's colours.
    public var seed: Int

    /// The sizes article images come in.
    public static let articleSizes = [
        PixelSize(width: 320, height: 240), PixelSize(width: 640, height: 360),
        PixelSize(width: 800, height: 600),
        PixelSize(width: 1200, height: 800), PixelSize(width: 1600, height: 1200),
    ]

    /// The largest image served.
    public static let largest = PixelSize(width: 4000, height: 3000)

    /// Creates an image.
    ///
    /// - Parameters:
    ///   - content: What the file holds.
    ///   - size: The image's size in pixels.
    ///   - seed: Chooses the pattern's colours.
    public init(content: Content, size: PixelSize, seed: Int) {
        self.content = content
        self.size = size
        self.seed = seed
    }

    /// The image at `/images/NAME` with `query`, or nil when there is no such image.
    public init?(name: String, query: [String: String] = [:]) {
        let parts = name.split(separator: ".")
        guard parts.count == 2, ["jpg", "jpeg", "png"].contains(parts[1]) else { return nil }
        let isPNG = parts[1] == "png"
        let stem = String(parts[0])
        var size = Self.articleSizes[2]
        switch stem {
        case "large": self.init(content: .jpeg(progressive: false), size: Self.largest, seed: 1)
        case "progressive": self.init(content: .jpeg(progressive: true), size: size, seed: 2)
        case "alpha": self.init(content: .png, size: size, seed: 3)
        case "rotated": self.init(content: .rotatedJPEG, size: size, seed: 7)
        case "corrupt": self.init(content: .corruptJPEG, size: size, seed: 4)
        case "truncated": self.init(content: .truncated(isPNG ? .png : .jpeg), size: size, seed: 5)
        case "missing": self.init(content: .missing, size: size, seed: 6)
        default:
            guard let number = Int(stem), number >= 0 else { return nil }
            size = number % 50 == 49 ? Self.largest : Self.articleSizes[number % Self.articleSizes.count]
            let content: Content =
                number % 97 == 41
                ? .missing
                : number % 89 == 17
                    ? .corruptJPEG
                    : number % 83 == 29
                        ? .truncated(isPNG ? .png : .jpeg)
                        : isPNG ? .png : .jpeg(progressive: number % 3 == 0)
            self.init(content: content, size: size, seed: number)
        }
        if let requested = query["size"].flatMap(Self.parseSize) { self.size = requested }
        if query["progressive"] == "1", case .jpeg = content { content = .jpeg(progressive: true) }
    }

    private static func parseSize(_ text: String) -> PixelSize? {
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...largest.width).contains(parts[0]),
            (1...largest.height).contains(parts[1])
        else {
            return nil
        }
        return PixelSize(width: parts[0], height: parts[1])
    }

    /// The pixels the file shows, upright: diagonal gradients, a grid, and, for PNGs, an alpha
    /// ramp.
    public var bitmap: Bitmap {
        let width = size.width
        let height = size.height
        let hasAlpha = content == .png || content == .truncated(.png)
        let tint = UInt8(truncatingIfNeeded: seed &* 67)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                let green = UInt8(y * 255 / max(height - 1, 1))
                let alpha: UInt8 = hasAlpha ? UInt8(64 + (y * 191) / max(height - 1, 1)) : 255
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    let line = (x % 64 < 4) || (y % 64 < 4)
                    buffer[offset] = line ? 255 : UInt8(x * 255 / max(width - 1, 1))
                    buffer[offset + 1] = line ? 255 : green
                    buffer[offset + 2] = line ? 255 : tint
                    buffer[offset + 3] = alpha
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The file's bytes, or nil for a missing image.
    public func data() throws -> Data? {
        switch content {
        case .missing:
            return nil
        case .jpeg(let progressive):
            return try bitmap.jpegData(quality: 85, progressive: progressive)
        case .rotatedJPEG:
            let stored = try bitmap.oriented(.left).jpegData(quality: 85)
            return stored.prefix(2) + Self.exifSegment(orientation: .right) + stored.dropFirst(2)
        case .png:
            return try bitmap.pngData()
        case .corruptJPEG:
            var data = try bitmap.jpegData(quality: 85)
            // Keep the headers (about 600 bytes), scramble the image data, keep the end marker.
            let start = min(700, data.count - 2)
            for index in start..<(data.count - 2) {
                data[index] = UInt8(truncatingIfNeeded: index &* 131) | 0x01
            }
            return data
        case .truncated(let format):
            let full = format == .png ? try bitmap.pngData() : try bitmap.jpegData(quality: 85)
            return full.prefix(full.count / 2)
        }
    }

    /// An APP1 segment with a big-endian Exif directory holding one entry: the orientation.
    private static func exifSegment(orientation: ImageOrientation) -> Data {
        let tiff: [UInt8] =
            [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1]
            + [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation.rawValue), 0, 0] + [0, 0, 0, 0]
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
    }
}
