import DequeModule
import Foundation
import Tributary

/// What a job is shared under: the stage, the data it starts from, the processors applied so far.
struct JobKey: Hashable, Sendable {
    enum Stage: Hashable, Sendable {
        /// The original data, from the disk cache or the network.
        case data
        /// The decoded image with `processors` applied.
        case image
    }

    var stage: Stage
    var dataKey: String
    var processors: [String]
    var cachePolicy: ImageRequest.CachePolicy

    init(request: ImageRequest, stage: Stage) {
        self.stage = stage
        dataKey = request.dataKey
        processors = stage == .data ? [] : request.processorIdentifiers
        cachePolicy = request.cachePolicy
    }

    private init(stage: Stage, dataKey: String, processors: [String], cachePolicy: ImageRequest.CachePolicy) {
        self.stage = stage
        self.dataKey = dataKey
        self.processors = processors
        self.cachePolicy = cachePolicy
    }

    var dataJob: JobKey { JobKey(stage: .data, dataKey: dataKey, processors: [], cachePolicy: cachePolicy) }

    var withoutLastProcessor: JobKey {
        JobKey(stage: .image, dataKey: dataKey, processors: processors.dropLast(), cachePolicy: cachePolicy)
    }

    var imageCacheKey: ImageCacheKey { ImageCacheKey(dataKey: dataKey, processors: processors) }
}

/// What a job produces.
enum JobValue: Sendable {
    case data(Data, ImageResponse.Source)
    /// The image, where its data came from, and the original's header.
    case image(Bitmap, ImageResponse.Source, ImageHeader?)
}

/// What a job tells those waiting for it.
enum JobEvent: Sendable {
    case progress(ImageProgress)
    case finished(Result<JobValue, ImagePipeline.Error>)
}

/// The callbacks of a job's subscribers, callable from any thread: progress comes straight
/// from the transport, without a hop to the coordinator.
final class JobSinks: Sendable {
    private struct State {
        var sinks: [Int: @Sendable (JobEvent) -> Void] = [:]
        var lastProgress: ImageProgress?
    }

    private let state = Protected(State())

    func add(_ id: Int, _ sink: @escaping @Sendable (JobEvent) -> Void) {
        let last = state.withLock { state in
            state.sinks[id] = sink
            return state.lastProgress
        }
        if let last { sink(.progress(last)) }
    }

    func remove(_ id: Int) {
        _ = state.withLock { $0.sinks.removeValue(forKey: id) }
    }

    func progress(_ progress: ImageProgress) {
        let sinks = state.withLock { state in
            state.lastProgress = progress
            return Array(state.sinks.values)
        }
        for sink in sinks { sink(.progress(progress)) }
    }

    func finish(_ result: Result<JobValue, ImagePipeline.Error>) {
        let sinks = state.withLock { state in
            defer { state.sinks = [:] }
            return Array(state.sinks.values)
        }
        for sink in sinks { sink(.finished(result)) }
    }
}
