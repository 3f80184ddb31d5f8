import Foundation

#if canImport(CImageCodecs)
    import CImageCodecs

    /// JPEG decoding and encoding with libjpeg-turbo.
    enum JPEGCodec {
        /// Decodes at `eighths`/8 of the full size; with `libjpegOnly`, never with the DC decoder
        /// (to hold the two against each other).
        static func decode(
            _ data: Data,
            eighths: Int,
            maximumScans: Int,
            libjpegOnly: Bool = false
        ) throws(ImageDecodingError) -> Bitmap {
            let decode = libjpegOnly ? tic_jpeg_decode_libjpeg_rgba : tic_jpeg_decode_rgba
            var error = tic_error()
            var header = tic_jpeg_header()
            let read = data.withUnsafeBytes {
                tic_jpeg_read_header($0.baseAddress, $0.count, Int32(eighths), &header, &error)
            }
            guard read != 0 else { throw ImageDecodingError(error) }
            let width = Int(header.scaled_width)
            let height = Int(header.scaled_height)
            return try Bitmap.decoded(width: width, height: height) { pixels, error in
                data.withUnsafeBytes { bytes in
                    decode(
                        bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        bytes.count,
                        Int32(eighths),
                        pixels,
                        Int32(width),
                        Int32(height),
                        Int32(maximumScans),
                        &error
                    )
                }
            }
        }

        /// How a JPEG is written, beyond quality and progression.
        struct Layout {
            /// MCUs between restart markers; 0 for none.
            var restartInterval = 0
            /// One grey component instead of YCbCr.
            var grayscale = false
            /// The luma sampling factors: (2, 2) is 4:2:0, (2, 1) 4:2:2, (1, 1) 4:4:4.
            var lumaSampling = (horizontal: 2, vertical: 2)
        }

        static func encode(
            _ bitmap: Bitmap,
            quality: Int,
            progressive: Bool,
            layout: Layout = Layout()
        ) throws(ImageDecodingError) -> Data {
            let options = tic_jpeg_options(
                quality: Int32(quality),
                progressive: progressive ? 1 : 0,
                restart_interval: Int32(layout.restartInterval),
                grayscale: layout.grayscale ? 1 : 0,
                luma_h: Int32(layout.lumaSampling.horizontal),
                luma_v: Int32(layout.lumaSampling.vertical)
            )
            return try encoded { output, size, error in
                tic_jpeg_encode_rgba(
                    bitmap.pixels,
                    Int32(bitmap.width),
                    Int32(bitmap.height),
                    options,
                    &output,
                    &size,
                    &error
                )
            }
        }
    }

    /// PNG decoding and encoding with libpng.
    enum PNGCodec {
        /// Decodes into `size`, which the header states; libpng holds the data to it.
        static func decode(_ data: Data, size: PixelSize) throws(ImageDecodingError) -> Bitmap {
            // The format allows at most 2^31 - 1 pixels either way.
            guard let width = Int32(exactly: size.width), let height = Int32(exactly: size.height) else {
                throw .corrupt("the PNG header states a size of \(size)")
            }
            return try Bitmap.decoded(width: size.width, height: size.height) { pixels, error in
                data.withUnsafeBytes {
                    tic_png_decode_rgba($0.baseAddress, $0.count, pixels, width, height, &error)
                }
            }
        }

        static func encode(_ bitmap: Bitmap) throws(ImageDecodingError) -> Data {
            try encoded { output, size, error in
                tic_png_encode_rgba(
                    bitmap.pixels,
                    Int32(bitmap.width),
                    Int32(bitmap.height),
                    &output,
                    &size,
                    &error
                )
            }
        }
    }

    extension Bitmap {
        /// Allocates `width` × `height` pixels and lets a codec fill them.
        fileprivate static func decoded(
            width: Int,
            height: Int,
            _ decode: (UnsafeMutablePointer<UInt8>, inout tic_error) -> Int32
        ) throws(ImageDecodingError) -> Bitmap {
            var error = tic_error()
            var succeeded = false
            let bitmap = Bitmap(width: width, height: height) { buffer in
                guard let base = buffer.baseAddress else { return }
                succeeded = decode(base, &error) != 0
                // A failed decode may leave rows unwritten; they must not stay uninitialized.
                if !succeeded { buffer.update(repeating: 0) }
            }
            guard succeeded || width * height == 0 else { throw ImageDecodingError(error) }
            return bitmap
        }
    }

    /// Runs a codec that allocates its output with malloc, and copies that output into `Data`.
    private func encoded(
        _ encode: (inout UnsafeMutablePointer<UInt8>?, inout Int, inout tic_error) -> Int32
    ) throws(ImageDecodingError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = tic_error()
        guard encode(&output, &size, &error) != 0, let output else { throw ImageDecodingError(error) }
        defer { tic_free(output) }
        return Data(bytes: output, count: size)
    }

    extension ImageDecodingError {
        init(_ error: tic_error) {
            var copy = error
            let message = withUnsafeBytes(of: &copy.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            switch error.status {
            case TIC_TRUNCATED: self = .truncated
            case TIC_OUT_OF_MEMORY: self = .outOfMemory
            default: self = .corrupt(message.isEmpty ? "the codec failed" : message)
            }
        }
    }

#elseif canImport(ImageIO)

    enum JPEGCodec {
        static func decode(_ data: Data, eighths: Int, maximumScans: Int) throws(ImageDecodingError) -> Bitmap
        {
            try ImageIOCodec.decode(data)
        }

        static func encode(
            _ bitmap: Bitmap,
            quality: Int,
            progressive: Bool
        ) throws(ImageDecodingError) -> Data {
            try ImageIOCodec.encode(bitmap, type: "public.jpeg", quality: Double(quality) / 100)
        }
    }

    enum PNGCodec {
        static func decode(_ data: Data, size _: PixelSize) throws(ImageDecodingError) -> Bitmap {
            try ImageIOCodec.decode(data)
        }

        static func encode(_ bitmap: Bitmap) throws(ImageDecodingError) -> Data {
            try ImageIOCodec.encode(bitmap, type: "public.png", quality: 1)
        }
    }

#endif
