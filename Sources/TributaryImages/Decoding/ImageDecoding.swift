public import Foundation

/// A width and height in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)×\(height)" }
}

/// The ability to turn image data into a ``Bitmap``.
public protocol ImageDecoding: Sendable {
    /// Decodes `data`.
    ///
    /// - Parameters:
    ///   - data: The encoded image.
    ///   - minimumSize: When set, the caller only needs a bitmap at least this large in both
    ///     dimensions of the upright image (it is about to make a thumbnail); a decoder may
    ///     return a smaller bitmap than the image, never one smaller than this.
    func decode(_ data: Data, minimumSize: PixelSize?) throws(ImageDecodingError) -> Bitmap
}

/// Decodes JPEG and PNG: with libjpeg-turbo and libpng where ImageIO is absent, with ImageIO on
/// Apple platforms.
///
/// The header is read first and an image over ``pixelLimit`` is refused before anything is
/// allocated for it. A JPEG asked for with a `minimumSize` is decoded with libjpeg-turbo's DCT
/// scaling, at the smallest of the scales 1/8, 2/8 … 8/8 that is still large enough, which
/// makes thumbnails of large photos several times cheaper than a full decode. At 1/8 a baseline
/// JPEG is read from its DC coefficients alone (and the few that 4:2:0 chroma needs), passing
/// over the rest unstored.
///
/// A JPEG whose EXIF orientation says it is stored turned or mirrored comes out upright, as
/// browsers show it; ``ImageHeader/orientation`` says how it was stored.
///
/// ```swift
/// let decoder = ImageDecoder()
/// let thumbnailSource = try decoder.decode(data, minimumSize: PixelSize(width: 256, height: 256))
/// ```
public struct ImageDecoder: ImageDecoding {
    /// The most pixels (width × height, as the header states) an image may have: 64 megapixels.
    public var pixelLimit: Int
    /// The most scans a progressive JPEG may have before it counts as corrupt.
    public var maximumProgressiveScans: Int

    /// Creates a decoder with limits on what it accepts.
    ///
    /// - Parameters:
    ///   - pixelLimit: The most pixels (width × height, as the header states) an image may have.
    ///   - maximumProgressiveScans: The most scans a progressive JPEG may have before it counts
    ///     as corrupt.
    public init(pixelLimit: Int = 64_000_000, maximumProgressiveScans: Int = 1_000) {
        self.pixelLimit = pixelLimit
        self.maximumProgressiveScans = maximumProgressiveScans
    }

    public func decode(_ data: Data, minimumSize: PixelSize? = nil) throws(ImageDecodingError) -> Bitmap {
        let header = try ImageHeader(data: data)
        guard header.pixelCount <= pixelLimit else {
            throw .tooManyPixels(width: header.width, height: header.height, limit: pixelLimit)
        }
        switch header.format {
        case .jpeg:
            // The minimum size is the upright image's; the scale applies to the stored one.
            let stored = minimumSize.map { header.orientation.upright($0) }
            let eighths = stored.map { Self.jpegScale(for: header, minimumSize: $0) } ?? 8
            return try JPEGCodec.decode(data, eighths: eighths, maximumScans: maximumProgressiveScans)
                .oriented(header.orientation)
        case .png:
            return try PNGCodec.decode(data, size: header.size).oriented(header.orientation)
        default:
            #if canImport(ImageIO) && !canImport(CImageCodecs)
                return try ImageIOCodec.decode(data)
            #else
                throw .unsupportedFormat(header.format)
            #endif
        }
    }

    /// The smallest scale, in eighths, at which both decoded dimensions still reach `minimumSize`.
    static func jpegScale(for header: ImageHeader, minimumSize: PixelSize) -> Int {
        func scaled(_ length: Int, _ eighths: Int) -> Int { (length * eighths + 7) / 8 }
        return (1...8).first { eighths in
            scaled(header.width, eighths) >= min(minimumSize.width, header.width)
                && scaled(header.height, eighths) >= min(minimumSize.height, header.height)
        } ?? 8
    }
}

extension Bitmap {
    /// Decodes JPEG or PNG data with the default ``ImageDecoder``.
    public init(decoding data: Data) throws(ImageDecodingError) {
        self = try ImageDecoder().decode(data)
    }

    /// Encodes the bitmap as a JPEG; transparency is dropped.
    ///
    /// - Parameters:
    ///   - quality: 1 (smallest) to 100 (best).
    ///   - progressive: Whether to write a progressive JPEG, which renders coarse-to-fine.
    public func jpegData(quality: Int = 85, progressive: Bool = false) throws(ImageDecodingError) -> Data {
        try JPEGCodec.encode(self, quality: min(max(quality, 1), 100), progressive: progressive)
    }

    /// Encodes the bitmap as an RGBA PNG.
    public func pngData() throws(ImageDecodingError) -> Data {
        try PNGCodec.encode(self)
    }
}
