import Foundation
import Testing
import TributaryImages

/// Photos stored turned or mirrored, with an EXIF orientation, come out upright.
struct OrientationTests {
    /// A 3×2 bitmap whose pixels are a, b, c over d, e, f (their red channels 1 to 6).
    static let letters: Bitmap = {
        var bitmap = Bitmap(width: 3, height: 2, fill: .init(red: 0, green: 0, blue: 0))
        for index in 0..<6 {
            bitmap[index % 3, index / 3] = .init(red: UInt8(index + 1), green: 0, blue: 0)
        }
        return bitmap
    }()

    /// Each orientation's upright image of `letters`, row by row, as the EXIF specification
    /// draws them.
    static let upright: [(ImageOrientation, [String])] = [
        (.up, ["abc", "def"]),
        (.upMirrored, ["cba", "fed"]),
        (.down, ["fed", "cba"]),
        (.downMirrored, ["def", "abc"]),
        (.leftMirrored, ["ad", "be", "cf"]),
        (.right, ["da", "eb", "fc"]),
        (.rightMirrored, ["fc", "eb", "da"]),
        (.left, ["cf", "be", "ad"]),
    ]

    @Test(arguments: upright)
    func orientedTurnsAndMirrorsExactly(orientation: ImageOrientation, rows: [String]) {
        let turned = Self.letters.oriented(orientation)
        let letters = (0..<turned.height).map { y in
            String((0..<turned.width).map { x in Character(UnicodeScalar(96 + turned[x, y].red)) })
        }
        #expect(letters == rows)
        #expect(
            orientation.upright(PixelSize(width: 3, height: 2))
                == PixelSize(width: turned.width, height: turned.height)
        )
    }

    @Test(arguments: ImageOrientation.allCases, [false, true])
    func theHeaderReadsTheOrientationInEitherByteOrder(
        orientation: ImageOrientation,
        littleEndian: Bool
    ) throws {
        let data = try Self.jpeg(width: 40, height: 24, orientation: orientation, littleEndian: littleEndian)
        let header = try ImageHeader(data: data)
        #expect(header.orientation == orientation)
        #expect(header.width == 40 && header.height == 24)
        #expect(
            header.uprightSize
                == (orientation.swapsDimensions
                    ? PixelSize(width: 24, height: 40) : PixelSize(width: 40, height: 24))
        )
    }

    /// The decoded image is exactly the stored one turned: the same decoder reads the same
    /// pixels, and only the Exif segment differs.
    @Test(arguments: ImageOrientation.allCases)
    func decodingTurnsTheImageUpright(orientation: ImageOrientation) throws {
        let stored = try Bitmap(decoding: Self.jpeg(width: 40, height: 24, orientation: nil))
        let decoded = try Bitmap(decoding: Self.jpeg(width: 40, height: 24, orientation: orientation))
        #expect(decoded == stored.oriented(orientation))
    }

    /// A thumbnail's minimum size is the upright image's: a photo stored 800×600 and shown
    /// 600×800 needs only its 1/8 scale for a 75×100 thumbnail.
    @Test func thumbnailsScaleTheUprightImage() throws {
        let data = try Self.jpeg(width: 800, height: 600, orientation: .right)
        let decoded = try ImageDecoder().decode(data, minimumSize: PixelSize(width: 75, height: 100))
        #expect(decoded.width == 75 && decoded.height == 100)
        let fitted = try ImageProcessors.Resize(maximumPixelSize: 80).process(decoded)
        #expect(fitted.width == 60 && fitted.height == 80)
    }

    /// Exif segments that lie — offsets out of the segment, absurd entry counts, wrong types,
    /// values out of range, a segment cut short — state no orientation, and the image decodes
    /// as stored.
    @Test(arguments: [
        OrientationTests.tiff(littleEndian: false, directoryOffset: 0xFFFF_FFF0),
        OrientationTests.tiff(littleEndian: true, entries: 0xFFFF),
        OrientationTests.tiff(littleEndian: false, type: 4),
        OrientationTests.tiff(littleEndian: true, value: 0),
        OrientationTests.tiff(littleEndian: false, value: 9),
        Array(OrientationTests.tiff(littleEndian: true, value: 6).prefix(20)),
        Array("Exif\0\0MX".utf8),
        Array("Exif".utf8),
    ])
    func lyingExifStatesNoOrientation(payload: [UInt8]) throws {
        let data = try Self.insertingSegment(payload, into: Bitmap.pattern(width: 40, height: 24).jpegData())
        let header = try ImageHeader(data: data)
        #expect(header.orientation == .up)
        let decoded = try Bitmap(decoding: data)
        #expect(decoded.width == 40 && decoded.height == 24)
    }

    // MARK: PNG

    /// A PNG's eXIf chunk holds the TIFF structure alone; in either byte order, and behind the
    /// Exif header some writers put in front, it turns the decoded image exactly as a JPEG's.
    @Test(arguments: ImageOrientation.allCases, [false, true])
    func pngsTurnUprightByTheirExifChunk(orientation: ImageOrientation, littleEndian: Bool) throws {
        for exifHeader in [false, true] {
            let payload = Self.tiff(
                littleEndian: littleEndian,
                value: orientation.rawValue,
                exifHeader: exifHeader
            )
            let data = Self.png(exif: payload)
            let header = try ImageHeader(data: data)
            #expect(header.orientation == orientation)
            #expect(header.uprightSize == orientation.upright(PixelSize(width: 5, height: 3)))
            #expect(try Bitmap(decoding: data) == Bitmap(decoding: Self.png(exif: nil)).oriented(orientation))
        }
    }

    /// An eXIf chunk behind the image data is not looked for, and lying ones state nothing;
    /// either way the PNG decodes as stored.
    @Test(arguments: [
        (OrientationTests.tiff(littleEndian: false, value: 6), true),
        (OrientationTests.tiff(littleEndian: true, directoryOffset: 0xFFFF_FFF0, exifHeader: false), false),
        (OrientationTests.tiff(littleEndian: false, entries: 0xFFFF, exifHeader: false), false),
        (OrientationTests.tiff(littleEndian: true, value: 9, exifHeader: false), false),
        (Array(OrientationTests.tiff(littleEndian: true, value: 6, exifHeader: false).prefix(12)), false),
        (Array("Exif\0\0".utf8), false),
        (Array("MM".utf8), false),
    ])
    func pngExifThatCannotBeUsedStatesNoOrientation(payload: [UInt8], afterImageData: Bool) throws {
        let data = Self.png(exif: payload, afterImageData: afterImageData)
        #expect(try ImageHeader(data: data).orientation == .up)
        #expect(try Bitmap(decoding: data) == Bitmap(decoding: Self.png(exif: nil)))
    }

    /// An eXIf chunk that fails its CRC states nothing, as libpng discards it: neither one whose
    /// orientation changed after the checksum was taken nor one whose checksum is damaged.
    @Test(arguments: [true, false])
    func pngExifFailingItsChecksumStatesNoOrientation(changingTheValue: Bool) throws {
        let payload = Self.tiff(littleEndian: false, value: 6, exifHeader: false)
        var data = Self.png(exif: payload)
        let chunkType = try #require(data.firstRange(of: Data("eXIf".utf8)))
        let checksum = (chunkType.upperBound + payload.count)..<(chunkType.upperBound + payload.count + 4)
        if changingTheValue {
            let changed = Self.png(exif: Self.tiff(littleEndian: false, value: 8, exifHeader: false))
            #expect(try ImageHeader(data: changed).orientation == .left)
            data =
                changed.prefix(checksum.lowerBound) + data[checksum]
                + changed.suffix(from: checksum.upperBound)
        } else {
            data[checksum.lowerBound] ^= 0x01
        }
        #expect(try ImageHeader(data: data).orientation == .up)
        #expect(try Bitmap(decoding: data) == Bitmap(decoding: Self.png(exif: nil)))
    }

    /// A 5×3 RGB PNG whose pixels all differ, with an eXIf chunk carrying `exif`.
    static func png(exif: [UInt8]?, afterImageData: Bool = false) -> Data {
        var png = RawPNG(width: 5, height: 3, colorType: .rgb, bitDepth: 8)
        png.exif = exif
        png.exifAfterImageData = afterImageData
        return png.data { x, y in [x * 50, y * 100, 255 - x * 10 - y * 20] }
    }

    // MARK: Files

    static func jpeg(
        width: Int,
        height: Int,
        orientation: ImageOrientation?,
        littleEndian: Bool = false
    ) throws -> Data {
        let plain = try Bitmap.pattern(width: width, height: height, lines: false).jpegData(quality: 90)
        guard let orientation else { return plain }
        return insertingSegment(tiff(littleEndian: littleEndian, value: orientation.rawValue), into: plain)
    }

    /// The JPEG with an APP1 segment carrying `payload` right after its start marker.
    static func insertingSegment(_ payload: [UInt8], into jpeg: Data) -> Data {
        let length = payload.count + 2
        return jpeg.prefix(2) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
            + jpeg.dropFirst(2)
    }

    /// A TIFF structure whose first directory has a Make entry, then the orientation entry:
    /// behind "Exif\0\0" as a JPEG's APP1 segment holds it, or alone as a PNG's eXIf chunk does.
    static func tiff(
        littleEndian: Bool,
        directoryOffset: UInt32 = 8,
        entries: UInt16 = 2,
        type: UInt16 = 3,
        value: Int = 1,
        exifHeader: Bool = true
    ) -> [UInt8] {
        func u16(_ value: UInt16) -> [UInt8] {
            littleEndian
                ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        func u32(_ value: UInt32) -> [UInt8] {
            let bytes = [
                UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
                UInt8(value & 0xFF),
            ]
            return littleEndian ? bytes.reversed() : bytes
        }
        var tiff: [UInt8] = littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        tiff += u32(directoryOffset) + u16(entries)
        // Make: ASCII, 4 bytes, held in the entry.
        tiff += u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)
        // Orientation: one SHORT, held in the entry's first two bytes.
        tiff += u16(0x0112) + u16(type) + u32(1) + u16(UInt16(value)) + [0, 0]
        tiff += u32(0)
        return exifHeader ? Array("Exif\0\0".utf8) + tiff : tiff
    }
}
