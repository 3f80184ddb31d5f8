public import Foundation
public import Observation
public import Tributary

/// Loads one image for a view: set ``url`` and observe ``state``.
///
/// Setting a new URL cancels the load for the old one, and a result for the old URL that
/// arrives late is dropped, so a recycled cell never shows the previous row's image. A
/// memory-cache hit is applied at once, without a loading state in between. State changes
/// happen on the main actor. Changing ``priority`` moves the load in flight up or down the
/// pipeline's queues, and a loader that goes away stops its load.
///
/// ```swift
/// @StateObject private var loader = ImageLoader(processors: [ImageProcessors.Resize(maximumPixelSize: 120)])
/// // …
/// .onAppear { loader.url = article.imageURL }
/// ```
@MainActor
@Observable
public final class ImageLoader {
    /// Idle, loading the URL, loaded, or failed: never two at once.
    public private(set) var state: Loadable<URL, Bitmap, ImagePipeline.Error> = .idle

    /// The image to show; setting it starts loading, and nil clears the state.
    public var url: URL? {
        didSet { if url != oldValue { load() } }
    }

    /// Applied to each image loaded.
    public var processors: [any ImageProcessing]
    /// How soon the load is served: new loads start with it, and the one in flight takes it
    /// on, as when a cell scrolls into view.
    public var priority: ImageRequest.Priority {
        didSet { inFlight.withLock { $0 }?.imageTask.priority = priority }
    }

    @ObservationIgnored private let pipeline: ImagePipeline

    private struct Load: Sendable {
        /// Waits for the image and applies it.
        let task: Task<Void, Never>
        let imageTask: ImageTask

        func cancel() {
            task.cancel()
            imageTask.cancel()
        }
    }

    /// The load in flight. A constant, Sendable box: `deinit`, which runs on no particular
    /// actor, cancels the load through it.
    @ObservationIgnored private let inFlight = Protected<Load?>(nil)

    /// Creates an idle loader; nothing loads until ``url`` is set.
    ///
    /// - Parameters:
    ///   - pipeline: The pipeline images are loaded through.
    ///   - processors: Applied to each image loaded.
    ///   - priority: How soon loads are served.
    public init(
        pipeline: ImagePipeline = .shared,
        processors: [any ImageProcessing] = [],
        priority: ImageRequest.Priority = .normal
    ) {
        self.pipeline = pipeline
        self.processors = processors
        self.priority = priority
    }

    deinit {
        inFlight.withLock { $0 }?.cancel()
    }

    /// The loaded image, if any.
    public var image: Bitmap? { state.value }
    /// The URL being fetched, while loading.
    public var loadingURL: URL? { state.request }
    /// Why the last load failed, if it did.
    public var failure: ImagePipeline.Error? { state.failure }
    /// Whether a load is in flight.
    public var isLoading: Bool { state.isLoading }

    /// Loads ``url`` again, as after a failure; an image the memory cache still holds is taken
    /// from it, and anything else is loaded through the disk cache and the network.
    public func reload() {
        load()
    }

    /// Stops loading and returns to idle.
    public func cancel() {
        cancelLoad()
        if state.isLoading { state = .idle }
    }

    private func cancelLoad() {
        inFlight.withLock { load in
            defer { load = nil }
            return load
        }?.cancel()
    }

    private func load() {
        cancelLoad()
        guard let url else {
            state = .idle
            return
        }
        let request = ImageRequest(url: url, processors: processors, priority: priority)
        if let image = pipeline.cachedImage(for: request) {
            state = .loaded(image)
            return
        }
        state = .loading(url)
        let imageTask = pipeline.imageTask(with: request)
        let task = Task { [weak self] in
            let result: Result<Bitmap, ImagePipeline.Error>
            do throws(ImagePipeline.Error) {
                result = .success(try await imageTask.response.image)
            } catch {
                result = .failure(error)
            }
            guard let self, !Task.isCancelled else { return }
            _ = state.complete(result, for: url)
            inFlight.withLock { if $0?.imageTask === imageTask { $0 = nil } }
        }
        inFlight.withLock { $0 = Load(task: task, imageTask: imageTask) }
    }
}
