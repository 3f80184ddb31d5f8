/// How an image's stored pixels turn to show it upright: the EXIF orientation of a photo,
/// with the values and names of the TIFF tag.
///
/// Cameras store pixels as the sensor read them and record how the camera was held;
/// ``ImageDecoder`` turns JPEGs and PNGs upright with ``Bitmap/oriented(_:)``, as browsers do.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// Shown as stored.
    case up = 1
    /// Shown mirrored left to right.
    case upMirrored = 2
    /// Shown turned half a turn.
    case down = 3
    /// Shown mirrored top to bottom.
    case downMirrored = 4
    /// Shown mirrored left to right, then turned a quarter counter-clockwise: transposed.
    case leftMirrored = 5
    /// Shown turned a quarter clockwise.
    case right = 6
    /// Shown mirrored left to right, then turned a quarter clockwise.
    case rightMirrored = 7
    /// Shown turned a quarter counter-clockwise.
    case left = 8

    /// Whether the upright image's width is the stored height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The size of the upright image whose stored pixels are `size`.
    public func upright(_ size: PixelSize) -> PixelSize {
        swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }

    /// The orientation an APP1 Exif segment's first image directory states, or nil when it
    /// states none or none that makes sense; `range` is the segment's payload.
    init?(exif bytes: ByteReader, in range: Range<Int>) {
        guard let tiff = Self.skippingExifHeader(bytes, range) else { return nil }
        self.init(tiff: bytes, in: tiff)
    }

    /// The orientation a PNG eXIf chunk's first image directory states; `range` is the
    /// chunk's data. The chunk holds the TIFF structure alone, but some writers put an Exif
    /// segment's header in front, which is passed over.
    init?(pngExif bytes: ByteReader, in range: Range<Int>) {
        self.init(tiff: bytes, in: Self.skippingExifHeader(bytes, range) ?? range)
    }

    /// What follows the "Exif\0\0" that starts `range`, or nil when it does not start so.
    private static func skippingExifHeader(_ bytes: ByteReader, _ range: Range<Int>) -> Range<Int>? {
        let header = Array("Exif\0\0".utf8)
        guard range.count >= header.count, bytes.matches(header, at: range.lowerBound) else { return nil }
        return (range.lowerBound + header.count)..<range.upperBound
    }

    /// The orientation the first image directory of the TIFF structure in `range` states.
    ///
    /// Every offset is checked against the range: a hostile one reads nothing outside it.
    private init?(tiff bytes: ByteReader, in range: Range<Int>) {
        let tiff = range.lowerBound
        guard tiff + 8 <= range.upperBound else { return nil }
        let littleEndian: Bool
        if bytes.matches([0x49, 0x49, 0x2A, 0x00], at: tiff) {
            littleEndian = true
        } else if bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: tiff) {
            littleEndian = false
        } else {
            return nil
        }
        func uint16(_ offset: Int) -> Int? {
            guard offset >= tiff, offset + 2 <= range.upperBound else { return nil }
            return (littleEndian ? bytes.uint16LE(at: offset) : bytes.uint16(at: offset)).map(Int.init)
        }
        func uint32(_ offset: Int) -> Int? {
            guard offset >= tiff, offset + 4 <= range.upperBound else { return nil }
            return (littleEndian ? bytes.uint32LE(at: offset) : bytes.uint32(at: offset)).map(Int.init)
        }
        guard let directoryOffset = uint32(tiff + 4), directoryOffset <= range.upperBound - tiff,
            let entries = uint16(tiff + directoryOffset)
        else { return nil }
        for index in 0..<entries {
            let entry = tiff + directoryOffset + 2 + index * 12
            guard let tag = uint16(entry), let type = uint16(entry + 2), let count = uint32(entry + 4) else {
                return nil
            }
            // Tag 0x0112, one SHORT (type 3), stored in the entry itself.
            if tag == 0x0112 {
                guard type == 3, count == 1, let value = uint16(entry + 8) else { return nil }
                self.init(rawValue: value)
                return
            }
        }
        return nil
    }
}

extension Bitmap {
    /// The upright image of pixels stored with `orientation`; `self` when it is ``ImageOrientation/up``.
    public func oriented(_ orientation: ImageOrientation) -> Bitmap {
        guard orientation != .up else { return self }
        let (width, height) = (self.width, self.height)
        let upright = orientation.upright(PixelSize(width: width, height: height))
        // The stored pixel that lands at column x, row y of the upright image is
        // origin + x * across + y * down: every orientation is such an affine walk.
        let last = (width: width - 1, height: height - 1)
        let (origin, across, down): (Int, Int, Int) =
            switch orientation {
            case .up: (0, 1, width)
            case .upMirrored: (last.width, -1, width)
            case .down: (last.height * width + last.width, -1, -width)
            case .downMirrored: (last.height * width, 1, -width)
            case .leftMirrored: (0, width, 1)
            case .right: (last.height * width, -width, 1)
            case .rightMirrored: (last.height * width + last.width, -width, -1)
            case .left: (last.width, width, -1)
            }
        return pixels.withUnsafeBytes { stored in
            Bitmap(width: upright.width, height: upright.height) { buffer in
                let target = UnsafeMutableRawBufferPointer(buffer)
                var offset = 0
                for y in 0..<upright.height {
                    var source = origin + y * down
                    for _ in 0..<upright.width {
                        let pixel = stored.loadUnaligned(fromByteOffset: source * 4, as: UInt32.self)
                        target.storeBytes(of: pixel, toByteOffset: offset, as: UInt32.self)
                        source += across
                        offset += 4
                    }
                }
            }
        }
    }
}
