/// Why data could not be decoded into a ``Bitmap``, or a bitmap not encoded.
public enum ImageDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data starts with no image signature this library knows.
    case unrecognizedFormat
    /// The format was recognised, but there is no decoder for it on this platform.
    case unsupportedFormat(ImageFormat)
    /// The header announces more pixels than the decoder is allowed to allocate.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The data ends before the image does.
    case truncated
    /// The codec rejected the data; the codec's own message.
    case corrupt(String)
    /// The codec could not allocate the memory it needed.
    case outOfMemory

    /// Whether the data itself is at fault, rather than the decoder or its limits.
    var isBrokenData: Bool {
        switch self {
        case .unrecognizedFormat, .truncated, .corrupt: true
        case .unsupportedFormat, .tooManyPixels, .outOfMemory: false
        }
    }

    public var description: String {
        switch self {
        case .unrecognizedFormat:
            "The data is not an image in any known format."
        case .unsupportedFormat(let format):
            "\(format) images cannot be decoded on this platform."
        case .tooManyPixels(let width, let height, let limit):
            "The image is \(width)×\(height), more than the limit of \(limit) pixels."
        case .truncated:
            "The image data ends before the image does."
        case .corrupt(let message):
            "The image data is corrupt: \(message)."
        case .outOfMemory:
            "There was not enough memory to decode the image."
        }
    }
}
