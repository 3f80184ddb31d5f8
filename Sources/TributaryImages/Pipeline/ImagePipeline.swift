public import Foundation
import Tributary

#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// Loads, decodes, processes and caches images.
///
/// A request goes through up to three stages — fetch the data (disk cache, then network),
/// decode it, apply each processor — and identical work is shared at every stage: a thousand
/// requests for a hundred URLs make a hundred downloads, and two thumbnails of one URL share
/// its download. Shared work is cancelled only when the last caller waiting for it goes away,
/// and the cancellation reaches the transport. Downloads and decodes run a bounded number at
/// a time; waiting work is started in priority order, and a request's priority can change
/// while it waits.
///
/// Coordination happens on an actor; decoding and processing run off it, on the global
/// executor. A memory-cache hit never leaves the caller's task.
///
/// ```swift
/// let pipeline = ImagePipeline(configuration: .init(dataCache: try DataCache(name: "images")))
/// let thumbnail = try await pipeline.image(for: ImageRequest(
///     url: url, processors: [ImageProcessors.Resize(maximumPixelSize: 256)]))
/// ```
public final class ImagePipeline: Sendable {
    /// What the pipeline loads with, caches in, decodes with, and how much it does at once.
    public let configuration: Configuration
    let coordinator: Coordinator

    /// Creates a pipeline with nothing loaded or cached yet.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        coordinator = Coordinator(configuration: configuration)
    }

    /// The image for `request`: from memory, disk or network, decoded and processed.
    ///
    /// Cancelling the calling task stops waiting at once, and stops the work when nobody else
    /// waits for it.
    public func image(for request: ImageRequest) async throws(Error) -> Bitmap {
        try await response(for: request).image
    }

    /// The image at `url`, unprocessed.
    public func image(for url: URL) async throws(Error) -> Bitmap {
        try await image(for: ImageRequest(url: url))
    }

    /// The image for `request` with where it came from.
    public func response(for request: ImageRequest) async throws(Error) -> ImageResponse {
        try await response(for: request, handle: nil)
    }

    /// The original data for `request`, from the disk cache or the network; processors are ignored.
    public func data(for request: ImageRequest) async throws(Error) -> Data {
        let value = try await run(request, stage: .data, handle: nil)
        guard case .data(let data, _) = value else { preconditionFailure("a data job produced an image") }
        return data
    }

    /// Starts loading `request` and returns a handle to follow its progress, change its
    /// priority, cancel it, and await its response.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        ImageTask(pipeline: self, request: request)
    }

    /// A publisher that loads `request` when subscribed to; cancelling the subscription
    /// cancels the load.
    public func publisher(for request: ImageRequest) -> AnyPublisher<ImageResponse, Error> {
        AsyncOperationPublisher { () async throws(Error) -> ImageResponse in
            try await self.response(for: request)
        }
        .eraseToAnyPublisher()
    }

    /// The image for `request` if the memory cache has it.
    public func cachedImage(for request: ImageRequest) -> Bitmap? {
        guard request.cachePolicy != .reloadIgnoringCache else { return nil }
        return configuration.imageCache?.image(for: request.imageKey)
    }

    /// Subscribes to the shared job for `request` and waits for its result.
    func run(_ request: ImageRequest, stage: JobKey.Stage, handle: ImageTask?) async throws(Error) -> JobValue
    {
        let key = JobKey(request: request, stage: stage)
        let (events, continuation) = AsyncStream<JobEvent>.makeStream()
        // Progress arrives with every piece of the body. Only an ImageTask has anyone to pass it
        // on to: any other caller would be woken for each piece with nothing to do.
        let forwardsProgress = handle != nil
        let sink: @Sendable (JobEvent) -> Void = { event in
            if case .progress = event, !forwardsProgress { return }
            continuation.yield(event)
        }
        let subscriber = await coordinator.subscribe(
            key,
            request: request,
            priority: { handle?.priority ?? request.priority },
            sink: sink
        )
        handle?.attach(subscriber: subscriber, key: key)
        let result = await withTaskCancellationHandler {
            for await event in events {
                switch event {
                case .progress(let progress): handle?.report(progress)
                case .finished(let result): return result
                }
            }
            return .failure(Error(stage: .loading, url: request.url, reason: .cancelled))
        } onCancel: {
            continuation.finish()
            Task { await self.coordinator.unsubscribe(key, subscriber: subscriber) }
        }
        return try result.get()
    }
}

extension ImagePipeline {
    /// A pipeline with the default configuration, shared by the whole process.
    public static let shared = ImagePipeline()
}
