#if canImport(CoreGraphics)
    public import CoreGraphics
    import Foundation

    extension Bitmap {
        /// The pixels as an sRGB `CGImage`, to show with SwiftUI's `Image(decorative:scale:)` or
        /// `UIImage(cgImage:)`; nil only when CoreGraphics cannot allocate it.
        ///
        /// ```swift
        /// if let image = loader.image?.cgImage {
        ///     Image(decorative: image, scale: displayScale)
        /// }
        /// ```
        public var cgImage: CGImage? {
            guard let provider = CGDataProvider(data: Data(pixels) as CFData),
                let space = CGColorSpace(name: CGColorSpace.sRGB)
            else { return nil }
            return CGImage(
                width: width,
                height: height,
                bitsPerComponent: 8,
                bitsPerPixel: 32,
                bytesPerRow: bytesPerRow,
                space: space,
                bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue),
                provider: provider,
                decode: nil,
                shouldInterpolate: true,
                intent: .defaultIntent
            )
        }
    }
#endif
