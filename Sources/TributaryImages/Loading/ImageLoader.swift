public import Foundation
public import Tributary

#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// Loads one image for a view: set ``url`` and observe ``state``.
///
/// Setting a new URL cancels the load for the old one, and a result for the old URL that
/// arrives late is dropped, so a recycled cell never shows the previous row's image. A
/// memory-cache hit is applied at once, without a loading state in between. State changes
/// happen on the main actor.
///
/// ```swift
/// @StateObject private var loader = ImageLoader(processors: [ImageProcessors.Resize(maximumPixelSize: 120)])
/// // …
/// .onAppear { loader.url = article.imageURL }
/// ```
@MainActor
public final class ImageLoader: ObservableObject {
    /// Idle, loading the URL, loaded, or failed: never two at once.
    @Published public private(set) var state: Loadable<URL, Bitmap, ImagePipeline.Error> = .idle

    /// The image to show; setting it starts loading, and nil clears the state.
    public var url: URL? {
        didSet { if url != oldValue { load() } }
    }

    /// Applied to each image loaded.
    public var processors: [any ImageProcessing]
    /// The priority new loads start with.
    public var priority: ImageRequest.Priority

    private let pipeline: ImagePipeline
    private var task: Task<Void, Never>?

    public init(
        pipeline: ImagePipeline = .shared,
        processors: [any ImageProcessing] = [],
        priority: ImageRequest.Priority = .normal
    ) {
        self.pipeline = pipeline
        self.processors = processors
        self.priority = priority
    }

    /// The loaded image, if any.
    public var image: Bitmap? { state.value }
    /// The URL being fetched, while loading.
    public var loadingURL: URL? { state.request }
    /// Why the last load failed, if it did.
    public var failure: ImagePipeline.Error? { state.failure }
    /// Whether a load is in flight.
    public var isLoading: Bool { state.isLoading }

    /// Loads ``url`` again, even if it is loaded or failed.
    public func reload() {
        load()
    }

    /// Stops loading and returns to idle.
    public func cancel() {
        task?.cancel()
        task = nil
        if state.isLoading { state = .idle }
    }

    private func load() {
        task?.cancel()
        task = nil
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
        let pipeline = pipeline
        task = Task { [weak self] in
            let result: Result<Bitmap, ImagePipeline.Error>
            do throws(ImagePipeline.Error) {
                result = .success(try await pipeline.image(for: request))
            } catch {
                result = .failure(error)
            }
            guard let self, !Task.isCancelled else { return }
            _ = state.complete(result, for: url)
        }
    }
}
