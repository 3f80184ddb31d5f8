extension ImageProcessors {
    /// Cuts a rectangle out of an image; the part of it outside the image is ignored.
    public struct Crop: ImageProcessing, Hashable {
        /// The rectangle's left edge, in pixels from the image's left.
        public var x: Int
        /// The rectangle's top edge, in pixels from the image's top.
        public var y: Int
        /// The rectangle's width in pixels.
        public var width: Int
        /// The rectangle's height in pixels.
        public var height: Int

        /// Creates a crop to the rectangle at `x`, `y` of `width` by `height` pixels.
        ///
        /// - Precondition: `width` and `height` are positive.
        public init(x: Int, y: Int, width: Int, height: Int) {
            precondition(width > 0 && height > 0, "a crop needs a positive size")
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public var identifier: String { "crop(\(x),\(y),\(width)x\(height))" }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let left = max(x, 0)
            let top = max(y, 0)
            let right = min(x + width, bitmap.width)
            let bottom = min(y + height, bitmap.height)
            guard left < right, top < bottom else {
                throw ImageProcessingError(
                    "The crop \(identifier) lies outside the \(bitmap.width)×\(bitmap.height) image."
                )
            }
            return bitmap.cropped(x: left, y: top, width: right - left, height: bottom - top)
        }
    }
}

extension Bitmap {
    /// The pixels of a rectangle that lies inside the bitmap.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
        precondition(
            x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height,
            "crop outside the bitmap"
        )
        return Bitmap(width: width, height: height) { target in
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<height {
                    let from = ((y + row) * self.width + x) * 4
                    let into = row * width * 4
                    for index in 0..<(width * 4) { target[into + index] = source[from + index] }
                }
            }
        }
    }
}
