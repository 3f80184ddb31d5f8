public import Foundation

/// An image file format, recognised from the first bytes of its data.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// JPEG.
    case jpeg
    /// PNG.
    case png
    /// GIF.
    case gif
    /// WebP.
    case webp
    /// BMP, the Windows bitmap.
    case bmp
    /// HEIC: HEIF with a HEIC, HEVC or image-collection brand.
    case heic
    /// AVIF: HEIF with AV1 images.
    case avif

    /// Recognises the format from the data's signature, without decoding anything.
    ///
    /// ```swift
    /// ImageFormat(sniffing: Data([0xFF, 0xD8, 0xFF, 0xE0])) // .jpeg
    /// ```
    public init?(sniffing data: Data) {
        let bytes = ByteReader(data)
        if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) {
            self = .jpeg
        } else if bytes.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) {
            self = .png
        } else if bytes.matches(Array("GIF87a".utf8), at: 0) || bytes.matches(Array("GIF89a".utf8), at: 0) {
            self = .gif
        } else if bytes.matches(Array("RIFF".utf8), at: 0) && bytes.matches(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if bytes.matches(Array("BM".utf8), at: 0) && data.count >= 26 {
            self = .bmp
        } else if bytes.matches(Array("ftyp".utf8), at: 4), let brand = Self.isoBrand(bytes) {
            self = brand
        } else {
            return nil
        }
    }

    /// HEIF files name their flavour in the `ftyp` box: the major brand, then compatible ones.
    private static func isoBrand(_ bytes: ByteReader) -> ImageFormat? {
        guard let boxSize = bytes.uint32(at: 0) else { return nil }
        let end = min(Int(boxSize), bytes.count, 256)
        var brands: [String] = []
        var offset = 8
        while offset + 4 <= end {
            if offset != 12, let brand = bytes.ascii(at: offset, count: 4) { brands.append(brand) }
            offset += 4
        }
        if brands.contains(where: { ["avif", "avis"].contains($0) }) { return .avif }
        if brands.contains(where: {
            ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains($0)
        }) {
            return .heic
        }
        return nil
    }

    /// The usual MIME type.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .bmp: "image/bmp"
        case .heic: "image/heic"
        case .avif: "image/avif"
        }
    }

    public var description: String { rawValue.uppercased() }
}

/// What an image's header says, read without decoding its pixels.
public struct ImageHeader: Sendable, Hashable {
    /// The file format.
    public var format: ImageFormat
    /// Width in pixels, as the header states it.
    public var width: Int
    /// Height in pixels, as the header states it.
    public var height: Int
    /// How the stored pixels turn to show the image upright: the EXIF orientation of a JPEG's
    /// Exif segment or of a PNG's eXIf chunk ahead of its image data.
    public var orientation: ImageOrientation

    /// The size of the stored pixels: ``width`` by ``height``.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The size of the image shown upright: ``size``, swapped when the orientation turns the
    /// image a quarter.
    public var uprightSize: PixelSize { orientation.upright(size) }

    /// The number of pixels the header announces.
    public var pixelCount: Int {
        width.multipliedReportingOverflow(by: height).overflow ? .max : width * height
    }

    /// Creates a header from known values.
    public init(format: ImageFormat, width: Int, height: Int, orientation: ImageOrientation = .up) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
    }

    /// Reads the format and pixel size from the first bytes of `data`.
    ///
    /// - Throws: ``ImageDecodingError/unrecognizedFormat`` when no known signature matches,
    ///   ``ImageDecodingError/truncated`` when the data ends inside the header, and
    ///   ``ImageDecodingError/corrupt(_:)`` when the header states no usable size.
    public init(data: Data) throws(ImageDecodingError) {
        guard let format = ImageFormat(sniffing: data) else { throw .unrecognizedFormat }
        let bytes = ByteReader(data)
        let size: (width: Int, height: Int)?
        var orientation: ImageOrientation?
        switch format {
        case .jpeg: size = try Self.jpegSize(bytes, orientation: &orientation)
        case .png:
            size = bytes.uint32(at: 16).flatMap { w in bytes.uint32(at: 20).map { (Int(w), Int($0)) } }
            orientation = Self.pngOrientation(bytes)
        case .gif:
            size = bytes.uint16LE(at: 6).flatMap { w in bytes.uint16LE(at: 8).map { (Int(w), Int($0)) } }
        case .webp: size = Self.webpSize(bytes)
        case .bmp: size = Self.bmpSize(bytes)
        case .heic, .avif: size = Self.heifSize(bytes)
        }
        guard let size else { throw .truncated }
        guard size.width > 0, size.height > 0 else {
            throw .corrupt("the \(format) header states a size of \(size.width)×\(size.height)")
        }
        self.init(format: format, width: size.width, height: size.height, orientation: orientation ?? .up)
    }

    /// Walks the JPEG markers to the first start-of-frame segment, taking the orientation
    /// from the first Exif segment that states one.
    private static func jpegSize(
        _ bytes: ByteReader,
        orientation: inout ImageOrientation?
    ) throws(ImageDecodingError) -> (Int, Int)? {
        var offset = 2
        while offset < bytes.count {
            guard bytes[offset] == 0xFF else { throw .corrupt("JPEG marker expected at byte \(offset)") }
            while offset < bytes.count && bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { return nil }
            let marker = bytes[offset]
            offset += 1
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 || marker == 0xDA {
                throw .corrupt("JPEG has no frame header before its image data")
            }
            guard let length = bytes.uint16(at: offset), length >= 2 else { return nil }
            if marker == 0xE1, orientation == nil {
                orientation = ImageOrientation(
                    exif: bytes,
                    in: (offset + 2)..<min(offset + Int(length), bytes.count)
                )
            }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard let height = bytes.uint16(at: offset + 3), let width = bytes.uint16(at: offset + 5)
                else {
                    return nil
                }
                return (Int(width), Int(height))
            }
            offset += Int(length)
        }
        return nil
    }

    /// Walks the PNG chunks after the header up to the image data, taking the orientation from
    /// an eXIf chunk. The PNG specification places eXIf before the image data and lets decoders
    /// ignore one after it, which is not looked for. An eXIf chunk that fails its CRC states
    /// nothing, as libpng discards an ancillary chunk that does.
    private static func pngOrientation(_ bytes: ByteReader) -> ImageOrientation? {
        var offset = 8
        while let length = bytes.uint32(at: offset), let type = bytes.ascii(at: offset + 4, count: 4) {
            let data = offset + 8
            switch type {
            case "eXIf":
                let end = data + Int(length)
                guard let crc = bytes.uint32(at: end), crc == CRC32.checksum(bytes.slice(offset + 4..<end))
                else { return nil }
                return ImageOrientation(pngExif: bytes, in: data..<end)
            case "IDAT", "IEND": return nil
            default: offset = data + Int(length) + 4
            }
        }
        return nil
    }

    private static func webpSize(_ bytes: ByteReader) -> (Int, Int)? {
        switch bytes.ascii(at: 12, count: 4) {
        case "VP8 ":
            guard bytes.matches([0x9D, 0x01, 0x2A], at: 23), let w = bytes.uint16LE(at: 26),
                let h = bytes.uint16LE(at: 28)
            else { return nil }
            return (Int(w & 0x3FFF), Int(h & 0x3FFF))
        case "VP8L":
            guard bytes.count >= 25, bytes[20] == 0x2F else { return nil }
            let bits =
                UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard bytes.count >= 30 else { return nil }
            let w = Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16
            let h = Int(bytes[27]) | Int(bytes[28]) << 8 | Int(bytes[29]) << 16
            return (w + 1, h + 1)
        default:
            return nil
        }
    }

    private static func bmpSize(_ bytes: ByteReader) -> (Int, Int)? {
        guard let headerSize = bytes.uint32LE(at: 14) else { return nil }
        if headerSize == 12 {
            guard let w = bytes.uint16LE(at: 18), let h = bytes.uint16LE(at: 20) else { return nil }
            return (Int(w), Int(h))
        }
        guard let w = bytes.uint32LE(at: 18), let h = bytes.uint32LE(at: 22) else { return nil }
        // A negative height means the rows are stored top-down.
        return (Int(Int32(bitPattern: w)), abs(Int(Int32(bitPattern: h))))
    }

    /// HEIF states each image's size in an `ispe` property; the primary image is the largest.
    private static func heifSize(_ bytes: ByteReader) -> (Int, Int)? {
        let marker = Array("ispe".utf8)
        var best: (width: UInt32, height: UInt32)?
        var offset = 4
        let end = min(bytes.count, 1 << 20)
        // Two 32-bit sides multiply to at most 64 bits: compared as UInt64, they cannot overflow.
        func area(_ size: (width: UInt32, height: UInt32)) -> UInt64 {
            UInt64(size.width) * UInt64(size.height)
        }
        while offset + 16 <= end {
            if bytes.matches(marker, at: offset), let w = bytes.uint32(at: offset + 8),
                let h = bytes.uint32(at: offset + 12)
            {
                if best.map({ area($0) < area((w, h)) }) ?? true { best = (w, h) }
                offset += 16
            } else {
                offset += 1
            }
        }
        return best.map { (Int($0.width), Int($0.height)) }
    }
}

/// Bounds-checked reads of big- and little-endian integers.
struct ByteReader {
    let data: Data
    let start: Int

    init(_ data: Data) {
        self.data = data
        start = data.startIndex
    }

    var count: Int { data.count }

    subscript(offset: Int) -> UInt8 { data[start + offset] }

    func matches(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + bytes.count <= count else { return false }
        for (index, byte) in bytes.enumerated() where self[offset + index] != byte { return false }
        return true
    }

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= count else { return nil }
        return UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        return (0..<4).reduce(0) { $0 << 8 | UInt32(self[offset + $1]) }
    }

    func uint16LE(at offset: Int) -> UInt16? { uint16(at: offset).map { $0.byteSwapped } }

    func uint32LE(at offset: Int) -> UInt32? { uint32(at: offset).map { $0.byteSwapped } }

    func ascii(at offset: Int, count length: Int) -> String? {
        guard offset >= 0, offset + length <= count else { return nil }
        return String(decoding: slice(offset..<(offset + length)), as: UTF8.self)
    }

    /// The bytes in `range`, which must lie within the data.
    func slice(_ range: Range<Int>) -> Data { data[(start + range.lowerBound)..<(start + range.upperBound)] }
}
