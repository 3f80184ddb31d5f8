/// The ability to transform a decoded image: resize, crop, anything else.
///
/// A processor's ``identifier`` is part of the key the result is cached and shared under, so
/// two processors with the same identifier must produce the same pixels.
public protocol ImageProcessing: Sendable {
    /// Identifies the processor and its parameters, such as `"resize(256x256,fill,crop)"`.
    var identifier: String { get }

    /// Transforms `bitmap`.
    func process(_ bitmap: Bitmap) throws -> Bitmap

    /// The smallest input that gives the same result as the full-size image, when the processor
    /// does not need every pixel of a `source`-sized image. Decoders use it to decode large
    /// JPEGs at a reduced scale.
    func minimumInputSize(for source: PixelSize) -> PixelSize?
}

extension ImageProcessing {
    public func minimumInputSize(for source: PixelSize) -> PixelSize? { nil }
}

/// The processors that ship with the library.
public enum ImageProcessors {}

/// Why a processor refused an image.
public struct ImageProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in one sentence.
    public var reason: String

    /// Creates an error that says, in one sentence, what went wrong.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
