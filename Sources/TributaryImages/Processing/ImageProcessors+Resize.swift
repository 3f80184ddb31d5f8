extension ImageProcessors {
    /// Scales an image to fit in, or to fill, a target size, resampling with a Catmull-Rom
    /// filter over premultiplied colour, so edges stay sharp and transparent areas leave no
    /// dark fringes.
    ///
    /// ```swift
    /// let thumbnail = ImageProcessors.Resize(size: PixelSize(width: 256, height: 256), contentMode: .fill, crop: true)
    /// ```
    public struct Resize: ImageProcessing, Hashable {
        /// How the image relates to the target size.
        public enum ContentMode: String, Sendable, Hashable {
            /// The whole image fits inside the size; one side may be shorter.
            case fit
            /// The image covers the size; one side may be longer, unless cropped.
            case fill
        }

        /// The target size.
        public var size: PixelSize
        /// Whether the image fits inside ``size`` or covers it.
        public var contentMode: ContentMode
        /// With ``ContentMode/fill``, cut the overflow so the result is exactly ``size``, centred.
        public var crop: Bool
        /// Whether an image smaller than the size is scaled up; by default it is left as it is.
        /// With ``ContentMode/fill`` and no ``crop``, a long, thin image scaled up stays long
        /// and thin, reaching far past the size; ``crop`` bounds the result to the size.
        public var upscale: Bool
        /// The most pixels a result may have: 64 megapixels, as many as a decoder accepts by
        /// default. A resize that would make more, such as a 1×4000 image filling 256×256
        /// scaled up and not cropped (256×1,024,000), throws ``ImageProcessingError`` instead.
        public var pixelLimit: Int

        /// Creates a resize to `size`.
        ///
        /// - Parameters:
        ///   - size: The target size; both sides positive.
        ///   - contentMode: Whether the image fits inside the size or covers it.
        ///   - crop: With ``ContentMode/fill``, whether to cut the overflow so the result is
        ///     exactly the size, centred.
        ///   - upscale: Whether an image smaller than the size is scaled up.
        ///   - pixelLimit: The most pixels a result may have.
        public init(
            size: PixelSize,
            contentMode: ContentMode = .fit,
            crop: Bool = false,
            upscale: Bool = false,
            pixelLimit: Int = 64_000_000
        ) {
            precondition(size.width > 0 && size.height > 0, "a resize needs a positive size")
            self.size = size
            self.contentMode = contentMode
            self.crop = crop
            self.upscale = upscale
            self.pixelLimit = pixelLimit
        }

        /// Fits the image in a square of `maximumPixelSize` on each side.
        public init(maximumPixelSize: Int) {
            self.init(size: PixelSize(width: maximumPixelSize, height: maximumPixelSize))
        }

        public var identifier: String {
            "resize(\(size.width)x\(size.height),\(contentMode.rawValue)\(crop ? ",crop" : "")\(upscale ? ",upscale" : ""))"
        }

        /// The size the image is scaled to, before any crop.
        public func scaledSize(for source: PixelSize) -> PixelSize {
            let widthRatio = Double(size.width) / Double(source.width)
            let heightRatio = Double(size.height) / Double(source.height)
            var scale = contentMode == .fit ? min(widthRatio, heightRatio) : max(widthRatio, heightRatio)
            if !upscale { scale = min(scale, 1) }
            // Far past any pixel limit, yet clear of Int's range however large the size is.
            func side(_ length: Int) -> Int {
                Int(min((Double(length) * scale).rounded(), Double(1 << 40)))
            }
            return PixelSize(width: max(1, side(source.width)), height: max(1, side(source.height)))
        }

        public func minimumInputSize(for source: PixelSize) -> PixelSize? {
            scaledSize(for: source)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let source = PixelSize(width: bitmap.width, height: bitmap.height)
            guard source.width > 0, source.height > 0 else {
                throw ImageProcessingError("The image has no pixels.")
            }
            let scaled = scaledSize(for: source)
            // The part of the scaled image kept: all of it, or with a cropped fill its centre.
            // Only that part is resampled: a long, thin image filled and scaled up would
            // otherwise be scaled whole, however far it reaches past the size.
            let kept =
                crop && contentMode == .fill
                ? PixelSize(width: min(size.width, scaled.width), height: min(size.height, scaled.height))
                : scaled
            guard kept.width <= pixelLimit / kept.height else {
                throw ImageProcessingError(
                    "Resizing the \(source.width)×\(source.height) image with \(identifier) would make "
                        + "\(kept.width)×\(kept.height) pixels, more than the limit of \(pixelLimit)."
                )
            }
            let x = (scaled.width - kept.width) / 2
            let y = (scaled.height - kept.height) / 2
            guard scaled != source else {
                return kept == source
                    ? bitmap : bitmap.cropped(x: x, y: y, width: kept.width, height: kept.height)
            }
            return Resampler.resize(
                bitmap,
                to: scaled,
                columns: x..<(x + kept.width),
                rows: y..<(y + kept.height)
            )
        }
    }
}
