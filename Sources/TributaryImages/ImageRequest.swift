public import Foundation

/// What to load: a URL, the processors to apply, how urgent it is and how to use the caches.
///
/// ```swift
/// let request = ImageRequest(
///     url: article.imageURL,
///     processors: [ImageProcessors.Resize(size: PixelSize(width: 256, height: 256), contentMode: .fill, crop: true)],
///     priority: .high
/// )
/// ```
public struct ImageRequest: Sendable {
    /// How soon the request should be served when downloads or decodes have to wait their turn.
    public enum Priority: Int, Sendable, Comparable, CaseIterable {
        /// The lowest priority.
        case veryLow
        /// Below normal.
        case low
        /// The default.
        case normal
        /// Above normal.
        case high
        /// The highest priority.
        case veryHigh

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How the request uses the memory and disk caches.
    public enum CachePolicy: Sendable, Hashable {
        /// Serve from the caches when possible, load otherwise, and store what was loaded.
        case useCache
        /// Load from the network even when cached, and store the result.
        case reloadIgnoringCache
        /// Serve only from the caches; fail with ``ImagePipeline/Error/Reason/notCached`` otherwise.
        case returnCacheDataDontLoad
    }

    /// Where the image data is.
    public var url: URL
    /// Applied to the decoded image, in order.
    public var processors: [any ImageProcessing] {
        didSet { processorIdentifiers = processors.map(\.identifier) }
    }
    /// How soon the request is served when downloads or decodes have to wait their turn.
    public var priority: Priority
    /// How the request uses the memory and disk caches.
    public var cachePolicy: CachePolicy
    /// Identifies the data in place of the URL, for URLs that change while the image does not,
    /// such as signed URLs with an expiring query.
    public var cacheKey: String?

    private(set) var processorIdentifiers: [String]

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: Where the image data is.
    ///   - processors: Applied to the decoded image, in order.
    ///   - priority: How soon the request is served when downloads or decodes have to wait.
    ///   - cachePolicy: How the request uses the memory and disk caches.
    ///   - cacheKey: Identifies the data in place of the URL, for URLs that change while the
    ///     image does not.
    public init(
        url: URL,
        processors: [any ImageProcessing] = [],
        priority: Priority = .normal,
        cachePolicy: CachePolicy = .useCache,
        cacheKey: String? = nil
    ) {
        self.url = url
        self.processors = processors
        self.priority = priority
        self.cachePolicy = cachePolicy
        self.cacheKey = cacheKey
        processorIdentifiers = processors.map(\.identifier)
    }

    /// What the original data is cached and shared under.
    public var dataKey: String { cacheKey ?? url.absoluteString }

    /// What the processed image is cached and shared under.
    public var imageKey: ImageCacheKey { ImageCacheKey(dataKey: dataKey, processors: processorIdentifiers) }
}

/// A loaded image and where it came from.
public struct ImageResponse: Sendable {
    /// Where a response was found.
    public enum Source: Sendable, Hashable {
        /// The memory cache held the processed image.
        case memoryCache
        /// The disk cache held the data, which was decoded and processed.
        case diskCache
        /// The data loader fetched the data, which was decoded and processed.
        case network
    }

    /// The decoded, processed image.
    public var image: Bitmap
    /// The request it answers.
    public var request: ImageRequest
    /// Where the image was found.
    public var source: Source
    /// The original's format and full size, as its header stated; nil for a memory-cache hit.
    public var original: ImageHeader?
}

/// How much of an image's data has arrived.
public struct ImageProgress: Sendable, Hashable {
    /// Bytes received so far.
    public var completed: Int
    /// The length the server announced, if it did.
    public var total: Int?

    /// Creates a progress report.
    ///
    /// - Parameters:
    ///   - completed: Bytes received so far.
    ///   - total: The length the server announced, or nil when it did not.
    public init(completed: Int, total: Int?) {
        self.completed = completed
        self.total = total
    }

    /// Between 0 and 1, when the total is known.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, Double(completed) / Double(total))
    }
}
