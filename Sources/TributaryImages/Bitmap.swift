/// A decoded image: 8-bit RGBA pixels, not premultiplied, rows packed top to bottom.
///
/// The same type on every platform, so that processors, caches and tests see pixels the same
/// way whether ImageIO or libjpeg-turbo and libpng decoded them.
///
/// ```swift
/// var bitmap = Bitmap(width: 2, height: 1, fill: .init(red: 255, green: 0, blue: 0, alpha: 255))
/// bitmap[1, 0] = .init(red: 0, green: 0, blue: 255, alpha: 128)
/// ```
public struct Bitmap: Sendable, Hashable {
    /// One pixel's channels.
    public struct Pixel: Sendable, Hashable {
        /// Red, from 0 to 255.
        public var red: UInt8
        /// Green, from 0 to 255.
        public var green: UInt8
        /// Blue, from 0 to 255.
        public var blue: UInt8
        /// Opacity, from 0 (transparent) to 255 (opaque); the colours are not premultiplied by it.
        public var alpha: UInt8

        /// Creates a pixel, opaque unless `alpha` says otherwise.
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha for each pixel, row after row.
    public private(set) var pixels: [UInt8]

    /// Wraps pixels that are already laid out as RGBA rows.
    ///
    /// - Precondition: `pixels.count == width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && pixels.count == width * height * 4,
            "pixels do not fit the size"
        )
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A bitmap of one colour.
    public init(width: Int, height: Int, fill: Pixel) {
        let pattern = [fill.red, fill.green, fill.blue, fill.alpha]
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { pixels.append(contentsOf: pattern) }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// Creates a bitmap whose pixels `initialize` writes, given a buffer of `width * height * 4` bytes.
    init(
        width: Int,
        height: Int,
        initialize: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let count = width * height * 4
        let pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try initialize(buffer)
            initialized = count
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The number of bytes in one row.
    public var bytesPerRow: Int { width * 4 }

    /// What keeping the bitmap in memory costs, in bytes.
    public var cost: Int { pixels.count }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Pixel {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the bitmap")
            let offset = (y * width + x) * 4
            return Pixel(
                red: pixels[offset],
                green: pixels[offset + 1],
                blue: pixels[offset + 2],
                alpha: pixels[offset + 3]
            )
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the bitmap")
            let offset = (y * width + x) * 4
            pixels[offset] = newValue.red
            pixels[offset + 1] = newValue.green
            pixels[offset + 2] = newValue.blue
            pixels[offset + 3] = newValue.alpha
        }
    }

    /// Whether any pixel is not fully opaque.
    public var hasTransparency: Bool {
        stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] != 255 }
    }
}

extension Bitmap: CustomStringConvertible {
    public var description: String { "Bitmap(\(width)×\(height))" }
}
