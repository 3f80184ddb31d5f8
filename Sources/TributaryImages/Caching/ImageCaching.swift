import Foundation
import Tributary

/// What a processed image is cached and shared under: the data's key (its URL, or a custom
/// key) and the identifiers of the processors applied to it, in order.
public struct ImageCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The URL's absolute string, or the request's custom cache key.
    public var dataKey: String
    /// ``ImageProcessing/identifier`` of each processor, in order.
    public var processors: [String]

    /// Creates a key for data and the processors applied to it.
    ///
    /// - Parameters:
    ///   - dataKey: The URL's absolute string, or the request's custom cache key.
    ///   - processors: ``ImageProcessing/identifier`` of each processor, in order; empty for the
    ///     image as decoded.
    public init(dataKey: String, processors: [String] = []) {
        self.dataKey = dataKey
        self.processors = processors
    }

    public var description: String {
        processors.isEmpty ? dataKey : "\(dataKey) [\(processors.joined(separator: ", "))]"
    }
}

/// The ability to keep decoded images in memory.
public protocol ImageCaching: AnyObject, Sendable {
    /// The image for `key`, or nil; reading counts as a use.
    func image(for key: ImageCacheKey) -> Bitmap?
    /// Keeps `image` under `key`, replacing what was there.
    func store(_ image: Bitmap, for key: ImageCacheKey)
    /// Forgets the image for `key`.
    func removeImage(for key: ImageCacheKey)
    /// Forgets every image.
    func removeAll()
}

/// A memory cache of decoded images, least recently used first out, bounded by total cost
/// (decoded bytes) and by count. Lookups and insertions are O(1) and thread-safe.
///
/// An image costing more than ``entryCostRatio`` of ``costLimit`` is not kept: one huge image
/// would otherwise push out everything else.
///
/// ```swift
/// let cache = ImageCache(costLimit: 50 << 20, timeToLive: .seconds(300))
/// ```
public final class ImageCache: ImageCaching {
    /// The most decoded bytes kept.
    public let costLimit: Int
    /// The most images kept.
    public let countLimit: Int
    /// The largest share of ``costLimit`` one image may take: 10%.
    public let entryCostRatio: Double
    /// How long an image stays valid after it was stored; nil keeps it until evicted.
    public let timeToLive: Duration?

    private struct Entry {
        var image: Bitmap
        var expires: ContinuousClock.Instant?
    }

    private let entries = Protected(LRUList<ImageCacheKey, Entry>())
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - costLimit: The most decoded bytes kept; by default a quarter of physical memory,
    ///     at most 512 MiB.
    ///   - countLimit: The most images kept.
    ///   - entryCostRatio: The largest share of `costLimit` one image may take.
    ///   - timeToLive: How long an image stays valid after it was stored.
    ///   - now: The clock that decides expiry; tests pass their own.
    public init(
        costLimit: Int = ImageCache.defaultCostLimit,
        countLimit: Int = .max,
        entryCostRatio: Double = 0.1,
        timeToLive: Duration? = nil,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.costLimit = costLimit
        self.countLimit = countLimit
        self.entryCostRatio = entryCostRatio
        self.timeToLive = timeToLive
        self.now = now
    }

    /// A quarter of physical memory, at most 512 MiB.
    public static var defaultCostLimit: Int {
        Int(min(ProcessInfo.processInfo.physicalMemory / 4, 512 << 20))
    }

    /// The number of images kept.
    public var count: Int { entries.withLock { $0.count } }

    /// The decoded bytes kept.
    public var totalCost: Int { entries.withLock { $0.totalCost } }

    /// The keys from least to most recently used.
    public var keys: [ImageCacheKey] { entries.withLock { $0.keysFromOldest } }

    public func image(for key: ImageCacheKey) -> Bitmap? {
        let expires = timeToLive == nil ? nil : now()
        return entries.withLock { entries -> Bitmap? in
            guard let entry = entries.value(for: key) else { return nil }
            if let expires, let deadline = entry.expires, deadline <= expires {
                entries.remove(key)
                return nil
            }
            return entry.image
        }
    }

    public func store(_ image: Bitmap, for key: ImageCacheKey) {
        let cost = image.cost
        let expires = timeToLive.map { now() + $0 }
        // Evicted bitmaps are released after the lock is let go, not while others wait for it.
        var evicted: [Bitmap] = []
        entries.withLock { entries in
            guard Double(cost) <= Double(costLimit) * entryCostRatio else {
                entries.remove(key)
                return
            }
            entries.set(Entry(image: image, expires: expires), for: key, cost: cost)
            while entries.totalCost > costLimit || entries.count > countLimit,
                let oldest = entries.removeOldest()
            {
                evicted.append(oldest.value.image)
            }
        }
        withExtendedLifetime(evicted) {}
    }

    public func removeImage(for key: ImageCacheKey) {
        _ = entries.withLock { $0.remove(key) }
    }

    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
