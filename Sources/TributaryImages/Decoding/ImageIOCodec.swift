#if canImport(ImageIO) && !canImport(CImageCodecs)
    import CoreGraphics
    import Foundation
    import ImageIO

    /// Decoding and encoding with ImageIO, where it exists.
    enum ImageIOCodec {
        static func decode(_ data: Data) throws(ImageDecodingError) -> Bitmap {
            guard let source = CGImageSourceCreateWithData(data as CFData, nil),
                let image = CGImageSourceCreateImageAtIndex(
                    source,
                    0,
                    [kCGImageSourceShouldCacheImmediately: true] as CFDictionary
                )
            else { throw .corrupt("ImageIO could not decode the data") }
            let width = image.width
            let height = image.height
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
                guard
                    let context = CGContext(
                        data: buffer.baseAddress,
                        width: width,
                        height: height,
                        bitsPerComponent: 8,
                        bytesPerRow: width * 4,
                        space: CGColorSpace(name: CGColorSpace.sRGB)!,
                        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue
                    )
                else { return false }
                context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
                return true
            }
            guard drawn else { throw .outOfMemory }
            // CoreGraphics draws premultiplied; a Bitmap is not.
            for offset in stride(from: 0, to: pixels.count, by: 4)
            where pixels[offset + 3] != 0 && pixels[offset + 3] != 255 {
                let alpha = Int(pixels[offset + 3])
                for channel in 0..<3 {
                    pixels[offset + channel] = UInt8(
                        min(255, (Int(pixels[offset + channel]) * 255 + alpha / 2) / alpha)
                    )
                }
            }
            return Bitmap(width: width, height: height, pixels: pixels)
        }

        static func encode(_ bitmap: Bitmap, type: String, quality: Double) throws(ImageDecodingError) -> Data
        {
            let output = NSMutableData()
            guard let image = bitmap.cgImage,
                let destination = CGImageDestinationCreateWithData(output, type as CFString, 1, nil)
            else { throw .outOfMemory }
            CGImageDestinationAddImage(
                destination,
                image,
                [kCGImageDestinationLossyCompressionQuality: quality] as CFDictionary
            )
            guard CGImageDestinationFinalize(destination) else {
                throw .corrupt("ImageIO could not encode the bitmap")
            }
            return output as Data
        }
    }
#endif
