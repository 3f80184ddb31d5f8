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

extension ImagePipeline {
    /// Owns every job in flight: who waits for it, what it waits for, and the download and
    /// decode slots.
    actor Coordinator {
        private final class Job {
            enum Subscriber {
                case caller(priority: ImageRequest.Priority)
                case job(key: JobKey, id: Int, priority: ImageRequest.Priority)

                var priority: ImageRequest.Priority {
                    switch self {
                    case .caller(let priority), .job(_, _, let priority): priority
                    }
                }

                var isCaller: Bool { if case .caller = self { true } else { false } }
            }

            let id: Int
            let key: JobKey
            let request: ImageRequest
            let sinks = JobSinks()
            var subscribers: [Int: Subscriber] = [:]
            var dependency: (key: JobKey, subscriber: Int)?
            var task: Task<Void, Never>?

            init(id: Int, key: JobKey, request: ImageRequest) {
                self.id = id
                self.key = key
                self.request = request
            }

            var priority: ImageRequest.Priority { subscribers.values.map(\.priority).max() ?? .veryLow }

            var hasCallers: Bool { subscribers.values.contains(where: \.isCaller) }

            /// The processors this job applies: a prefix of the request's.
            var processors: [any ImageProcessing] { Array(request.processors.prefix(key.processors.count)) }
        }

        enum Slot { case download, decode }

        private struct Waiter {
            let job: Int
            let order: Int
            let continuation: CheckedContinuation<Void, any Swift.Error>
        }

        /// Slots in use and the work waiting for one: by priority, then first come first served.
        private struct SlotQueue {
            let limit: Int
            var running = 0
            private var waiting: [ImageRequest.Priority: Deque<Waiter>] = [:]
            /// The priority each waiting job is filed under.
            private var filed: [Int: ImageRequest.Priority] = [:]

            init(limit: Int) {
                self.limit = limit
            }

            /// The priority of each job waiting for a slot.
            var waitingPriorities: [ImageRequest.Priority] { Array(filed.values) }

            mutating func append(_ waiter: Waiter, priority: ImageRequest.Priority) {
                waiting[priority, default: []].append(waiter)
                filed[waiter.job] = priority
            }

            /// The first waiter of the highest priority.
            mutating func popNext() -> Waiter? {
                for priority in ImageRequest.Priority.allCases.reversed() {
                    if let waiter = waiting[priority]?.popFirst() {
                        filed[waiter.job] = nil
                        return waiter
                    }
                }
                return nil
            }

            mutating func remove(job: Int) -> Waiter? {
                guard let priority = filed.removeValue(forKey: job),
                    let index = waiting[priority]?.firstIndex(where: { $0.job == job })
                else { return nil }
                return waiting[priority]?.remove(at: index)
            }

            /// Refiles a waiting job under a new priority, keeping its place by arrival.
            mutating func move(job: Int, to priority: ImageRequest.Priority) {
                guard filed[job] != priority, let waiter = remove(job: job) else { return }
                var bucket = waiting[priority, default: []]
                let index = bucket.firstIndex { $0.order > waiter.order } ?? bucket.endIndex
                bucket.insert(waiter, at: index)
                waiting[priority] = bucket
                filed[job] = priority
            }
        }

        let configuration: Configuration
        private var jobs: [JobKey: Job] = [:]
        private var nextID = 0
        private var queues: [Slot: SlotQueue]

        init(configuration: Configuration) {
            self.configuration = configuration
            queues = [
                .download: SlotQueue(limit: configuration.maximumConcurrentDownloads),
                .decode: SlotQueue(limit: configuration.maximumConcurrentDecodes),
            ]
        }

        /// The number of jobs in flight, for tests and diagnostics.
        var jobCount: Int { jobs.count }

        /// The number of callers waiting for a job, for tests and diagnostics.
        var callerCount: Int {
            jobs.values.reduce(0) { $0 + $1.subscribers.values.count(where: \.isCaller) }
        }

        /// The priorities of the jobs waiting for a slot, in no particular order, for tests and
        /// diagnostics.
        func waitingPriorities(for slot: Slot) -> [ImageRequest.Priority] { queues[slot]!.waitingPriorities }

        // MARK: Subscribing

        /// Adds a caller to the job for `key`, starting it if nobody else waits for it.
        func subscribe(
            _ key: JobKey,
            request: ImageRequest,
            priority: @Sendable () -> ImageRequest.Priority,
            sink: @escaping @Sendable (JobEvent) -> Void
        ) -> Int {
            let id = makeID()
            let job = job(for: key, request: request)
            job.subscribers[id] = .caller(priority: priority())
            job.sinks.add(id, sink)
            priorityChanged(job)
            return id
        }

        func unsubscribe(_ key: JobKey, subscriber: Int) {
            guard let job = jobs[key], job.subscribers.removeValue(forKey: subscriber) != nil else { return }
            job.sinks.remove(subscriber)
            if job.subscribers.isEmpty {
                cancel(job)
            } else {
                priorityChanged(job)
            }
        }

        /// Gives a caller the priority `priority` returns now.
        func setPriority(
            _ key: JobKey,
            subscriber: Int,
            priority: @Sendable () -> ImageRequest.Priority
        ) {
            guard let job = jobs[key], case .caller = job.subscribers[subscriber] else { return }
            job.subscribers[subscriber] = .caller(priority: priority())
            priorityChanged(job)
        }

        private func makeID() -> Int {
            nextID += 1
            return nextID
        }

        private func job(for key: JobKey, request: ImageRequest) -> Job {
            if let job = jobs[key] { return job }
            let job = Job(id: makeID(), key: key, request: request)
            jobs[key] = job
            start(job)
            return job
        }

        /// Refiles a job waiting for a slot, and hands its priority down to what it depends on.
        private func priorityChanged(_ job: Job) {
            for slot in [Slot.download, .decode] { queues[slot]!.move(job: job.id, to: job.priority) }
            guard let dependency = job.dependency, let upstream = jobs[dependency.key],
                case .job(let key, let id, let old) = upstream.subscribers[dependency.subscriber],
                old != job.priority
            else { return }
            upstream.subscribers[dependency.subscriber] = .job(key: key, id: id, priority: job.priority)
            priorityChanged(upstream)
        }

        private func cancel(_ job: Job) {
            jobs[job.key] = nil
            job.task?.cancel()
            for slot in [Slot.download, .decode] {
                queues[slot]!.remove(job: job.id)?.continuation.resume(throwing: CancellationError())
            }
            if let dependency = job.dependency {
                unsubscribe(dependency.key, subscriber: dependency.subscriber)
            }
        }

        // MARK: Running

        private func start(_ job: Job) {
            switch job.key.stage {
            case .data:
                let sinks = job.sinks
                job.task = detached(job) { coordinator, key, id, request in
                    await coordinator.loadData(key: key, job: id, request: request, sinks: sinks)
                }
            case .image:
                if job.key.cachePolicy != .reloadIgnoringCache,
                    let image = configuration.imageCache?.image(for: job.key.imageCacheKey)
                {
                    job.task = detached(job) { _, _, _, _ in .success(.image(image, .memoryCache, nil)) }
                    return
                }
                let dependencyKey =
                    job.key.processors.isEmpty
                        || (job.key.processors.count == 1 && Self.decodesScaled(job.processors[0]))
                    ? job.key.dataJob : job.key.withoutLastProcessor
                let dependency = self.job(for: dependencyKey, request: job.request)
                let id = makeID()
                dependency.subscribers[id] = .job(key: job.key, id: job.id, priority: job.priority)
                dependency.sinks.add(id) { [sinks = job.sinks] event in
                    if case .progress(let progress) = event { sinks.progress(progress) }
                }
                job.dependency = (dependencyKey, id)
                priorityChanged(dependency)
            }
        }

        /// Whether a processor can be fused with decoding, by decoding at a reduced scale.
        private static func decodesScaled(_ processor: any ImageProcessing) -> Bool {
            processor.minimumInputSize(for: PixelSize(width: 1 << 20, height: 1 << 20)) != nil
        }

        /// Runs `work` off the actor, and finishes the job with its result.
        private func detached(
            _ job: Job,
            _ work:
                @escaping @Sendable (Coordinator, JobKey, Int, ImageRequest) async -> Result<JobValue, Error>
        ) -> Task<Void, Never> {
            let (key, id, request) = (job.key, job.id, job.request)
            return Task.detached(priority: job.priority.taskPriority) { [self] in
                let result = await work(self, key, id, request)
                await finish(key, job: id, result)
            }
        }

        private func finish(_ key: JobKey, job id: Int, _ result: Result<JobValue, Error>) {
            guard let job = jobs[key], job.id == id else { return }
            jobs[key] = nil
            if case .success(.image(let image, let source, _)) = result, source != .memoryCache,
                job.hasCallers
            {
                configuration.imageCache?.store(image, for: key.imageCacheKey)
            }
            job.sinks.finish(result)
            for case .job(let dependentKey, let dependentID, _) in job.subscribers.values {
                dependencyFinished(dependentKey, job: dependentID, result)
            }
        }

        private func dependencyFinished(_ key: JobKey, job id: Int, _ result: Result<JobValue, Error>) {
            guard let job = jobs[key], job.id == id else { return }
            job.dependency = nil
            switch result {
            case .failure(let error):
                finish(key, job: id, .failure(error))
            case .success(let value):
                let processors = job.processors
                job.task = detached(job) { coordinator, key, id, request in
                    await coordinator.decode(
                        value,
                        processors: processors,
                        key: key,
                        job: id,
                        url: request.url
                    )
                }
            }
        }

        // MARK: Slots

        func acquire(_ slot: Slot, key: JobKey, job id: Int) async throws {
            guard !Task.isCancelled, let job = jobs[key], job.id == id else { throw CancellationError() }
            if queues[slot]!.running < queues[slot]!.limit {
                queues[slot]!.running += 1
                return
            }
            let order = makeID()
            try await withCheckedThrowingContinuation { continuation in
                queues[slot]!.append(
                    Waiter(job: id, order: order, continuation: continuation),
                    priority: job.priority
                )
            }
        }

        func release(_ slot: Slot) {
            queues[slot]!.running -= 1
            guard let waiter = queues[slot]!.popNext() else { return }
            queues[slot]!.running += 1
            waiter.continuation.resume()
        }

        // MARK: Work, off the actor

        nonisolated private func loadData(
            key: JobKey,
            job id: Int,
            request: ImageRequest,
            sinks: JobSinks
        ) async
            -> Result<JobValue, Error>
        {
            let failure = { (reason: Error.Reason) in
                Result<JobValue, Error>.failure(Error(stage: .loading, url: request.url, reason: reason))
            }
            if key.cachePolicy != .reloadIgnoringCache,
                let data = configuration.dataCache?.cachedData(for: key.dataKey)
            {
                return .success(.data(data, .diskCache))
            }
            if key.cachePolicy == .returnCacheDataDontLoad { return failure(.notCached) }
            do {
                try await acquire(.download, key: key, job: id)
            } catch {
                return failure(.cancelled)
            }
            let loaded: Result<Data, any Swift.Error>
            do {
                loaded = .success(
                    try await configuration.dataLoader.loadData(for: request) { received, expected in
                        sinks.progress(ImageProgress(completed: received, total: expected))
                    }
                )
            } catch {
                loaded = .failure(error)
            }
            await release(.download)
            switch loaded {
            case .success(let data) where data.isEmpty:
                return failure(.emptyData)
            case .success(let data):
                configuration.dataCache?.storeData(data, for: key.dataKey)
                return .success(.data(data, .network))
            case .failure(let error):
                return failure(Task.isCancelled ? .cancelled : .loadingFailed(error))
            }
        }

        nonisolated private func decode(
            _ input: JobValue,
            processors: [any ImageProcessing],
            key: JobKey,
            job id: Int,
            url: URL
        ) async -> Result<JobValue, Error> {
            do {
                try await acquire(.decode, key: key, job: id)
            } catch {
                return .failure(Error(stage: .decoding, url: url, reason: .cancelled))
            }
            // Decoding a large image keeps a thread busy for tens of milliseconds: that work runs
            // on threads of its own, never on the cooperative pool that every task shares.
            let decoder = configuration.decoder
            let result = await withCheckedContinuation { continuation in
                Self.decodingQueue.async {
                    continuation.resume(
                        returning: Self.decode(input, processors: processors, decoder: decoder, url: url)
                    )
                }
            }
            await release(.decode)
            // Data that is no image, or a broken one, is not kept to be served again: a captive
            // portal's page would otherwise fail every later load from the disk cache, without
            // the server being asked again.
            if case .data = input, case .failure(let error) = result,
                case .decodingFailed(let reason) = error.reason,
                reason.isBrokenData
            {
                configuration.dataCache?.removeData(for: key.dataKey)
            }
            return result
        }

        /// Where decoding and processing run; the decode slots bound how many at once.
        private static let decodingQueue = DispatchQueue(
            label: "TributaryImages.decoding",
            qos: .userInitiated,
            attributes: .concurrent
        )

        /// Decodes data (scaled when a single resize follows) or applies the last processor.
        private static func decode(
            _ input: JobValue,
            processors: [any ImageProcessing],
            decoder: any ImageDecoding,
            url: URL
        ) -> Result<JobValue, Error> {
            var image: Bitmap
            var pending: ArraySlice<any ImageProcessing>
            let source: ImageResponse.Source
            let original: ImageHeader?
            switch input {
            case .data(let data, let from):
                source = from
                pending = processors[...]
                original = try? ImageHeader(data: data)
                var minimumSize: PixelSize?
                if let first = processors.first, let header = original {
                    minimumSize = first.minimumInputSize(for: header.uprightSize)
                }
                do throws(ImageDecodingError) {
                    image = try decoder.decode(data, minimumSize: minimumSize)
                } catch {
                    return .failure(Error(stage: .decoding, url: url, reason: .decodingFailed(error)))
                }
            case .image(let bitmap, let from, let header):
                source = from
                original = header
                image = bitmap
                pending = processors.suffix(1)
            }
            for processor in pending {
                do {
                    image = try processor.process(image)
                } catch {
                    return .failure(
                        Error(
                            stage: .processing,
                            url: url,
                            reason: .processingFailed(processor: processor.identifier, error)
                        )
                    )
                }
            }
            return .success(.image(image, source, original))
        }
    }
}

extension ImageRequest.Priority {
    /// The priority of the task doing a job's work. Never `.background`: a request may be
    /// raised while it runs, but its task keeps the priority it started with, and background
    /// threads can be starved for as long as anything else runs.
    var taskPriority: TaskPriority {
        switch self {
        case .veryLow, .low: .utility
        case .normal: .medium
        case .high, .veryHigh: .high
        }
    }
}
