import Tributary

/// One image being loaded: its progress, its priority (which can change while it runs), and
/// its response.
///
/// ```swift
/// let task = pipeline.imageTask(with: request)
/// Task { for await progress in task.progress { bar.update(progress.fraction) } }
/// task.priority = .high            // it scrolled into view
/// let response = try await task.response
/// ```
public final class ImageTask: Sendable {
    /// What is being loaded.
    public let request: ImageRequest

    private struct State {
        var priority: ImageRequest.Priority
        var subscription: (id: Int, key: JobKey)?
        /// Whether the priority was set after the task started.
        var priorityChanged = false
        var progress: [AsyncStream<ImageProgress>.Continuation] = []
        var finished = false
        var work: Task<Result<ImageResponse, ImagePipeline.Error>, Never>?
        /// Priority changes sent to the coordinator that have not reached it yet.
        var prioritiesInFlight = 0
    }

    private let pipeline: ImagePipeline
    private let state: Protected<State>

    init(pipeline: ImagePipeline, request: ImageRequest) {
        self.request = request
        self.pipeline = pipeline
        state = Protected(State(priority: request.priority))
        // The work refers to the task until it ends, for progress and priority.
        let work = Task { [self] () async -> Result<ImageResponse, ImagePipeline.Error> in
            defer { finishProgress() }
            do throws(ImagePipeline.Error) {
                return .success(try await pipeline.response(for: request, handle: self))
            } catch {
                return .failure(error)
            }
        }
        state.withLock { $0.work = work }
    }

    /// How soon the task is served while it waits for a download or decode slot.
    public var priority: ImageRequest.Priority {
        get { state.withLock { $0.priority } }
        set {
            let subscription = state.withLock { state in
                state.priority = newValue
                state.priorityChanged = true
                return state.subscription
            }
            if let subscription { applyPriority(to: subscription) }
        }
    }

    /// Has the coordinator take the priority the task has when the call arrives, so that calls
    /// arriving out of order still leave the one set last.
    private func applyPriority(to subscription: (id: Int, key: JobKey)) {
        state.withLock { $0.prioritiesInFlight += 1 }
        Task { [self] in
            await pipeline.coordinator.setPriority(subscription.key, subscriber: subscription.id) { priority }
            state.withLock { $0.prioritiesInFlight -= 1 }
        }
    }

    /// The priority changes on their way to the coordinator, for tests and diagnostics.
    var prioritiesInFlight: Int { state.withLock { $0.prioritiesInFlight } }

    /// Bytes received, as they arrive; ends when the task does.
    public var progress: AsyncStream<ImageProgress> {
        let (stream, continuation) = AsyncStream<ImageProgress>.makeStream(
            bufferingPolicy: .bufferingNewest(16)
        )
        let finished = state.withLock { state in
            if !state.finished { state.progress.append(continuation) }
            return state.finished
        }
        if finished { continuation.finish() }
        return stream
    }

    /// The loaded image, or why there is none.
    public var response: ImageResponse {
        get async throws(ImagePipeline.Error) {
            let work = state.withLock { $0.work }!
            return try await work.value.get()
        }
    }

    /// Stops waiting for the image; the work stops when nobody else waits for it.
    public func cancel() {
        state.withLock { $0.work }?.cancel()
    }

    func attach(subscriber: Int, key: JobKey) {
        let changed = state.withLock { state in
            state.subscription = (subscriber, key)
            return state.priorityChanged
        }
        // A priority set while the task subscribed may have come after the coordinator read it.
        if changed { applyPriority(to: (subscriber, key)) }
    }

    func report(_ progress: ImageProgress) {
        for continuation in state.withLock({ $0.progress }) { continuation.yield(progress) }
    }

    private func finishProgress() {
        let continuations = state.withLock { state in
            state.finished = true
            defer { state.progress = [] }
            return state.progress
        }
        for continuation in continuations { continuation.finish() }
    }
}

extension ImagePipeline {
    func response(for request: ImageRequest, handle: ImageTask?) async throws(Error) -> ImageResponse {
        if let image = cachedImage(for: request) {
            return ImageResponse(image: image, request: request, source: .memoryCache, original: nil)
        }
        let value = try await run(request, stage: .image, handle: handle)
        guard case .image(let image, let source, let original) = value else {
            preconditionFailure("an image job produced data")
        }
        return ImageResponse(image: image, request: request, source: source, original: original)
    }
}
