import DequeModule
import Tributary

/// Loads images ahead of need, such as the rows just below the visible ones, at low priority
/// and a few at a time, so that prefetching never competes with what is on screen.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(pipeline: pipeline)
/// prefetcher.startPrefetching(with: upcoming.map { ImageRequest(url: $0) })
/// prefetcher.stopPrefetching(with: scrolledPast.map { ImageRequest(url: $0) })
/// ```
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images end up.
    public enum Destination: Sendable {
        /// Decoded and processed, in the memory cache (and the data in the disk cache).
        case memoryCache
        /// Only the original data, in the disk cache.
        case diskCache
    }

    /// Where prefetched images end up.
    public let destination: Destination
    /// The priority prefetches run at.
    public let priority: ImageRequest.Priority
    /// The most prefetches in flight at once.
    public let maximumConcurrentRequests: Int

    private struct State {
        var waiting: [ImageCacheKey: ImageRequest] = [:]
        /// Waiting keys in the order they were queued; a key stopped while waiting stays
        /// behind and is passed over.
        var order: Deque<ImageCacheKey> = []
        /// Each prefetch in flight, with the number it was started under: a prefetch stopped
        /// and queued again runs as a new one, which the old one's end must leave alone. Its
        /// task is nil from when it is picked until its task exists.
        var running: [ImageCacheKey: (id: Int, task: Task<Void, Never>?)] = [:]
        var lastID = 0
    }

    private let pipeline: ImagePipeline
    private let state = Protected(State())

    /// Told of each prefetch that ends, stopped or not, for tests and diagnostics.
    private let onFinished: @Sendable (ImageCacheKey) -> Void

    /// Creates a prefetcher with nothing queued.
    ///
    /// - Parameters:
    ///   - pipeline: The pipeline images are prefetched through.
    ///   - destination: Where prefetched images end up.
    ///   - priority: The priority prefetches run at, whatever their requests say.
    ///   - maximumConcurrentRequests: The most prefetches in flight at once; at least 1.
    public convenience init(
        pipeline: ImagePipeline = .shared,
        destination: Destination = .memoryCache,
        priority: ImageRequest.Priority = .low,
        maximumConcurrentRequests: Int = 2
    ) {
        self.init(
            pipeline: pipeline,
            destination: destination,
            priority: priority,
            maximumConcurrentRequests: maximumConcurrentRequests,
            onFinished: { _ in }
        )
    }

    init(
        pipeline: ImagePipeline,
        destination: Destination,
        priority: ImageRequest.Priority,
        maximumConcurrentRequests: Int,
        onFinished: @escaping @Sendable (ImageCacheKey) -> Void
    ) {
        precondition(maximumConcurrentRequests > 0, "at least one request must be allowed")
        self.pipeline = pipeline
        self.destination = destination
        self.priority = priority
        self.maximumConcurrentRequests = maximumConcurrentRequests
        self.onFinished = onFinished
    }

    /// The requests waiting or in flight.
    public var pendingCount: Int { state.withLock { $0.waiting.count + $0.running.count } }

    /// Queues `requests` for prefetching; those already queued or cached are skipped.
    public func startPrefetching(with requests: [ImageRequest]) {
        // The image cache may be the app's own code: it is asked before the lock is taken.
        let uncached = requests.filter { request in
            destination == .diskCache || pipeline.cachedImage(for: request) == nil
        }
        state.withLock { state in
            for var request in uncached {
                let key = request.imageKey
                guard state.waiting[key] == nil, state.running[key] == nil else { continue }
                request.priority = priority
                state.waiting[key] = request
                state.order.append(key)
            }
        }
        startNext()
    }

    /// Cancels the prefetching of `requests`, waiting or in flight.
    public func stopPrefetching(with requests: [ImageRequest]) {
        let cancelled = state.withLock { state in
            requests.compactMap { request -> Task<Void, Never>? in
                let key = request.imageKey
                state.waiting[key] = nil
                return state.running.removeValue(forKey: key)?.task
            }
        }
        cancelled.forEach { $0.cancel() }
        startNext()
    }

    /// Cancels all prefetching.
    public func stopPrefetching() {
        let cancelled = state.withLock { state in
            defer {
                state.waiting = [:]
                state.order = []
                state.running = [:]
            }
            return state.running.values.compactMap(\.task)
        }
        cancelled.forEach { $0.cancel() }
    }

    /// Picks what may start under the lock, and makes the tasks outside it, so that the lock is
    /// never held across code that is not the prefetcher's.
    private func startNext() {
        let picked = state.withLock { state in
            var picked: [(key: ImageCacheKey, id: Int, request: ImageRequest)] = []
            while state.running.count < maximumConcurrentRequests, !state.order.isEmpty {
                let key = state.order.removeFirst()
                guard let request = state.waiting.removeValue(forKey: key) else { continue }
                state.lastID += 1
                state.running[key] = (state.lastID, nil)
                picked.append((key, state.lastID, request))
            }
            return picked
        }
        for (key, id, request) in picked {
            let task = Task { [self] in
                switch destination {
                case .memoryCache: _ = try? await pipeline.response(for: request)
                case .diskCache: _ = try? await pipeline.data(for: request)
                }
                finished(key, id: id)
            }
            let isStopped = state.withLock { state in
                guard state.running[key]?.id == id else { return true }
                state.running[key]?.task = task
                return false
            }
            if isStopped { task.cancel() }
        }
    }

    private func finished(_ key: ImageCacheKey, id: Int) {
        state.withLock { state in
            if state.running[key]?.id == id { state.running[key] = nil }
        }
        startNext()
        onFinished(key)
    }
}
