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

        let configuration: Configuration
        private var jobs: [JobKey: Job] = [:]
        private var nextID = 0
        private var downloads: SlotQueue
        private var decodes: SlotQueue

        init(configuration: Configuration) {
            self.configuration = configuration
            downloads = SlotQueue(limit: configuration.maximumConcurrentDownloads)
            decodes = SlotQueue(limit: configuration.maximumConcurrentDecodes)
        }

        /// Runs `body` on the queue of `slot`, in place.
        private func withQueue<Result>(_ slot: Slot, _ body: (inout SlotQueue) -> Result) -> Result {
            switch slot {
            case .download: body(&downloads)
            case .decode: body(&decodes)
            }
        }

        /// The number of jobs in flight, for tests and diagnostics.
        var jobCount: Int { jobs.count }

        /// The number of callers waiting for a job, for tests and diagnostics.
        var callerCount: Int {
            jobs.values.reduce(0) { $0 + $1.subscribers.values.count(where: \.isCaller) }
        }

        /// The slots of a kind in use, for tests and diagnostics.
        func runningCount(for slot: Slot) -> Int { withQueue(slot) { $0.running } }

        /// The priorities of the jobs waiting for a slot, in no particular order, for tests and
        /// diagnostics.
        func waitingPriorities(for slot: Slot) -> [ImageRequest.Priority] {
            withQueue(slot) { $0.waitingPriorities }
        }

        // MARK: Subscribing

        /// Adds a caller to the job for `key`, starting it if nobody else waits for it.
        func subscribe(
            _ key: JobKey,
            request: ImageRequest,
            priority: @Sendable () -> ImageRequest.Priority,
            sink: @escaping @Sendable (JobEvent) -> Void
        ) -> Int {
            let id = makeID()
            let (job, isNew) = job(for: key, request: request)
            job.subscribers[id] = .caller(priority: priority())
            job.sinks.add(id, sink)
            // A new job starts only now, so that its task runs at its first caller's priority.
            if isNew { start(job) } else { priorityChanged(job) }
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

        /// The job for `key`, and whether it was made now; a new one is started by the caller
        /// once it has its first subscriber.
        private func job(for key: JobKey, request: ImageRequest) -> (job: Job, isNew: Bool) {
            if let job = jobs[key] { return (job, false) }
            let job = Job(id: makeID(), key: key, request: request)
            jobs[key] = job
            return (job, true)
        }

        /// Refiles a job waiting for a slot, and hands its priority down to what it depends on.
        private func priorityChanged(_ job: Job) {
            for slot in [Slot.download, .decode] {
                withQueue(slot) { $0.move(job: job.id, to: job.priority) }
            }
            // A task already under way keeps the priority it started with unless raised.
            if let task = job.task, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                task.escalatePriority(to: job.priority.taskPriority)
            }
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
                withQueue(slot) { $0.remove(job: job.id) }?.continuation.resume(throwing: CancellationError())
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
                let (dependency, isNew) = self.job(for: dependencyKey, request: job.request)
                let id = makeID()
                dependency.subscribers[id] = .job(key: job.key, id: job.id, priority: job.priority)
                dependency.sinks.add(id) { [sinks = job.sinks] event in
                    if case .progress(let progress) = event { sinks.progress(progress) }
                }
                job.dependency = (dependencyKey, id)
                if isNew { start(dependency) } else { priorityChanged(dependency) }
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
            let isFree = withQueue(slot) { queue in
                guard queue.running < queue.limit else { return false }
                queue.running += 1
                return true
            }
            if isFree { return }
            let order = makeID()
            try await withCheckedThrowingContinuation { continuation in
                withQueue(slot) {
                    $0.append(
                        Waiter(job: id, order: order, continuation: continuation),
                        priority: job.priority
                    )
                }
            }
        }

        func release(_ slot: Slot) {
            let next = withQueue(slot) { queue in
                queue.running -= 1
                guard let waiter = queue.popNext() else { return Waiter?.none }
                queue.running += 1
                return waiter
            }
            next?.continuation.resume()
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
