import Foundation

@testable import TributaryImages

/// PNG files written byte by byte, in every colour type, bit depth and interlacing the format
/// has, with known pixels: the encoder behind `Bitmap.pngData()` writes only 8-bit RGBA.
///
/// The image data is a zlib stream of stored (uncompressed) deflate blocks, which any
/// inflater reads, so no compressor is needed.
struct RawPNG {
    enum ColorType: UInt8, CaseIterable, Sendable {
        case grey = 0
        case rgb = 2
        case palette = 3
        case greyAlpha = 4
        case rgba = 6

        var channels: Int {
            switch self {
            case .grey, .palette: 1
            case .greyAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }

        /// The bit depths the format allows for this colour type.
        var bitDepths: [Int] {
            switch self {
            case .grey: [1, 2, 4, 8, 16]
            case .palette: [1, 2, 4, 8]
            case .rgb, .greyAlpha, .rgba: [8, 16]
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    var interlaced = false
    /// The PLTE entries, for `.palette`.
    var palette: [(red: UInt8, green: UInt8, blue: UInt8)] = []
    /// The tRNS alphas of the first palette entries, for `.palette`.
    var paletteAlphas: [UInt8] = []
    /// Whether to write an sRGB chunk.
    var sRGB = false
    /// The gAMA chunk's value (the gamma times 100,000), if any.
    var gamma: UInt32?
    /// Changes the filtered scanlines before they are compressed: damage that the chunk CRCs
    /// and the zlib checksum do not catch, for the decoder itself to meet.
    var damage: ((inout Data) -> Void)?
    /// The data of an eXIf chunk, written ahead of the image data or, with
    /// `exifAfterImageData`, behind it.
    var exif: [UInt8]?
    var exifAfterImageData = false

    /// The file, with each pixel's samples (one per channel; a palette index for `.palette`)
    /// taken from `samples`.
    func data(samples: (_ x: Int, _ y: Int) -> [Int]) -> Data {
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0])
        Self.appendChunk("IHDR", header, to: &file)
        if sRGB {
            Self.appendChunk("sRGB", Data([0]), to: &file)
        }
        if let gamma {
            var body = Data()
            body.appendBigEndian(gamma)
            Self.appendChunk("gAMA", body, to: &file)
        }
        if colorType == .palette {
            Self.appendChunk("PLTE", Data(palette.flatMap { [$0.red, $0.green, $0.blue] }), to: &file)
            if !paletteAlphas.isEmpty {
                Self.appendChunk("tRNS", Data(paletteAlphas), to: &file)
            }
        }
        if let exif, !exifAfterImageData {
            Self.appendChunk("eXIf", Data(exif), to: &file)
        }
        var lines = scanlines(samples)
        damage?(&lines)
        Self.appendChunk("IDAT", Self.zlibStored(lines), to: &file)
        if let exif, exifAfterImageData {
            Self.appendChunk("eXIf", Data(exif), to: &file)
        }
        Self.appendChunk("IEND", Data(), to: &file)
        return file
    }

    /// The filtered scanlines (filter type 0) of the whole image, or of each Adam7 pass in turn.
    private func scanlines(_ samples: (Int, Int) -> [Int]) -> Data {
        let passes: [(x: Int, y: Int, dx: Int, dy: Int)] =
            interlaced
            ? [
                (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
                (0, 1, 1, 2),
            ]
            : [(0, 0, 1, 1)]
        var bytes = Data()
        for pass in passes {
            let columns = Array(stride(from: pass.x, to: width, by: pass.dx))
            let rows = Array(stride(from: pass.y, to: height, by: pass.dy))
            // A pass with no pixels has no scanlines at all, not even filter bytes.
            guard !columns.isEmpty, !rows.isEmpty else { continue }
            for y in rows {
                bytes.append(0)
                var bits = BitWriter()
                for x in columns {
                    for sample in samples(x, y) {
                        bits.write(sample, width: bitDepth)
                    }
                }
                bytes.append(contentsOf: bits.finish())
            }
        }
        return bytes
    }

    private static func appendChunk(_ type: String, _ body: Data, to file: inout Data) {
        file.appendBigEndian(UInt32(body.count))
        let typed = Data(type.utf8) + body
        file.append(typed)
        file.appendBigEndian(CRC32.checksum(typed))
    }

    /// A zlib stream of stored deflate blocks.
    private static func zlibStored(_ bytes: Data) -> Data {
        var stream = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isLast = offset + length == bytes.count
            stream.append(isLast ? 1 : 0)
            stream.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
            stream.append(contentsOf: [UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
            stream.append(bytes[bytes.startIndex + offset..<bytes.startIndex + offset + length])
            offset += length
        } while offset < bytes.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        stream.appendBigEndian(b << 16 | a)
        return stream
    }
}

/// Packs samples of 1 to 16 bits, most significant bit first, into whole bytes.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var pending: UInt32 = 0
    private var pendingBits = 0

    mutating func write(_ value: Int, width: Int) {
        pending = pending << UInt32(width) | UInt32(value & (1 << width - 1))
        pendingBits += width
        while pendingBits >= 8 {
            pendingBits -= 8
            bytes.append(UInt8(truncatingIfNeeded: pending >> UInt32(pendingBits)))
        }
    }

    /// The bytes, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        if pendingBits > 0 {
            bytes.append(UInt8(truncatingIfNeeded: pending << UInt32(8 - pendingBits)))
        }
        pendingBits = 0
        pending = 0
        return bytes
    }
}

extension Data {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
        ])
    }
}
