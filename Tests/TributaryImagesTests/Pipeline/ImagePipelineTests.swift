import Foundation
import HTTPTypes
import Testing
import Tributary
import TributaryHTTP
import TributaryTestSupport

@testable import TributaryImages

@Suite(.timeLimit(.minutes(5)))
struct ImagePipelineTests {
    func pipeline(
        imageCache: (any ImageCaching)? = ImageCache(),
        dataCache: (any DataCaching)? = nil,
        downloads: Int = 6
    ) -> ImagePipeline {
        ImagePipeline(
            configuration: .init(
                imageCache: imageCache,
                dataCache: dataCache,
                maximumConcurrentDownloads: downloads
            )
        )
    }

    @Test func aThousandLoadsOfAHundredURLsMakeAHundredDownloads() async throws {
        try await ImageServer.run { base, log in
            let pipeline = pipeline(imageCache: nil)
            let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<1_000 {
                    group.addTask {
                        let url = base.appending(path: "img/\(index % 100).jpg")
                        return try await pipeline.image(for: url).width
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(sizes.count == 1_000 && sizes.allSatisfy { $0 == 64 })
            #expect(log.total == 100)
            #expect(log.count("/img/7.jpg") == 1)
        }
    }

    @Test func decodedPixelsMatchWhatWasEncoded() async throws {
        try await ImageServer.run { base, _ in
            let image = try await pipeline().image(for: base.appending(path: "img/42.jpg"))
            #expect(image.meanDifference(from: ImageServer.bitmap(42)) < 6)
            #expect(image[10, 10].red > 30 && image[10, 10].red < 55 && image[10, 10].blue > 185)
        }
    }

    @Test func twoThumbnailsOfOneURLShareItsDownload() async throws {
        try await ImageServer.run { base, log in
            let pipeline = pipeline()
            let url = base.appending(path: "slow/1.jpg")
            async let small = pipeline.image(
                for: ImageRequest(url: url, processors: [ImageProcessors.Resize(maximumPixelSize: 16)])
            )
            async let crop = pipeline.image(
                for: ImageRequest(
                    url: url,
                    processors: [ImageProcessors.Crop(x: 0, y: 0, width: 8, height: 8)]
                )
            )
            // The download goes on until both callers wait for it.
            try await waitUntil { await pipeline.coordinator.callerCount == 2 }
            log.held.open()
            let (a, b) = try await (small, crop)
            #expect(a.width == 16 && a.height == 12)
            #expect(b.width == 8 && b.height == 8)
            #expect(log.count("/slow/1.jpg") == 1)
        }
    }

    @Test func cancellingOneOfTwoCallersKeepsTheDownload() async throws {
        try await ImageServer.run { base, log in
            let pipeline = pipeline()
            let url = base.appending(path: "slow/2.jpg")
            let first = Task { try await pipeline.image(for: url) }
            let second = Task { try await pipeline.image(for: url) }
            try await waitUntil {
                await pipeline.coordinator.callerCount == 2 && log.count("/slow/2.jpg") == 1
            }
            first.cancel()
            await #expect(throws: ImagePipeline.Error.self) { try await first.value }
            log.held.open()
            let image = try await second.value
            #expect(image.width == 64)
            #expect(log.count("/slow/2.jpg") == 1)
            #expect(!log.wasAborted("/slow/2.jpg"))
        }
    }

    @Test func cancellingEveryCallerStopsTheDownload() async throws {
        try await ImageServer.run { base, log in
            let pipeline = pipeline()
            let url = base.appending(path: "slow/3.jpg")
            let first = Task { try await pipeline.image(for: url) }
            let second = Task {
                try await pipeline.image(
                    for: ImageRequest(url: url, processors: [ImageProcessors.Resize(maximumPixelSize: 8)])
                )
            }
            try await waitUntil {
                await pipeline.coordinator.callerCount == 2 && log.count("/slow/3.jpg") == 1
            }
            first.cancel()
            second.cancel()
            let error = await #expect(throws: ImagePipeline.Error.self) { try await second.value }
            #expect(error?.isCancellation == true)
            // The server notices the client hung up: the cancellation reached the transport.
            try await waitUntil { log.wasAborted("/slow/3.jpg") }
            #expect(log.wasAborted("/slow/3.jpg"))
            #expect(await pipeline.coordinator.jobCount == 0)
        }
    }

    @Test func memoryAndDiskCachesAnswerRepeats() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "PipelineDisk-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ImageServer.run { base, log in
            let disk = try DataCache(directory: directory)
            let first = pipeline(dataCache: disk)
            let request = ImageRequest(url: base.appending(path: "img/5.jpg"))
            #expect(try await first.response(for: request).source == .network)
            #expect(try await first.response(for: request).source == .memoryCache)
            let second = pipeline(dataCache: disk)
            #expect(try await second.response(for: request).source == .diskCache)
            #expect(log.count("/img/5.jpg") == 1)
            let reload = ImageRequest(url: request.url, cachePolicy: .reloadIgnoringCache)
            #expect(try await second.response(for: reload).source == .network)
            #expect(log.count("/img/5.jpg") == 2)
        }
    }

    @Test func customCacheKeysShareAcrossChangingURLs() async throws {
        try await ImageServer.run { base, log in
            let pipeline = pipeline()
            let signed = { (token: Int) in
                ImageRequest(
                    url: base.appending(path: "img/9.jpg").appending(queryItems: [
                        .init(name: "token", value: "\(token)")
                    ]),
                    cacheKey: "img-9"
                )
            }
            _ = try await pipeline.image(for: signed(1))
            let again = try await pipeline.response(for: signed(2))
            #expect(again.source == .memoryCache)
            #expect(log.total == 1)
        }
    }

    @Test func cacheOnlyRequestsFailWithoutLoading() async throws {
        try await ImageServer.run { base, log in
            let request = ImageRequest(
                url: base.appending(path: "img/1.jpg"),
                cachePolicy: .returnCacheDataDontLoad
            )
            let error = await #expect(throws: ImagePipeline.Error.self) {
                try await pipeline().image(for: request)
            }
            guard case .notCached = error?.reason else {
                Issue.record("expected notCached, got \(String(describing: error))"); return
            }
            #expect(log.total == 0)
        }
    }

    @Test func failuresCarryStageURLAndCause() async throws {
        try await ImageServer.run { base, _ in
            let pipeline = pipeline()
            let missing = base.appending(path: "missing.jpg")
            let notFound = await #expect(throws: ImagePipeline.Error.self) {
                try await pipeline.image(for: missing)
            }
            #expect(notFound?.stage == .loading && notFound?.url == missing)
            let api = notFound?.underlyingError as? APIError
            #expect(api?.status?.code == 404)
            #expect(api?.serverError?.message == "No such image.")

            let corrupt = base.appending(path: "corrupt.jpg")
            let undecodable = await #expect(throws: ImagePipeline.Error.self) {
                try await pipeline.image(for: corrupt)
            }
            #expect(undecodable?.stage == .decoding)
            guard case .decodingFailed(.unrecognizedFormat) = undecodable?.reason else {
                Issue.record("expected unrecognizedFormat, got \(String(describing: undecodable))")
                return
            }
            let crop = ImageRequest(
                url: base.appending(path: "img/1.jpg"),
                processors: [ImageProcessors.Crop(x: 500, y: 0, width: 5, height: 5)]
            )
            let unprocessable = await #expect(throws: ImagePipeline.Error.self) {
                try await pipeline.image(for: crop)
            }
            #expect(unprocessable?.stage == .processing)
        }
    }

    /// By default six downloads run at once; the rest wait in the queue, and start as places
    /// free up.
    @Test func sixDownloadsRunAtOnceAndTheRestWait() async throws {
        try await ImageServer.run { base, log in
            let pipeline = ImagePipeline(configuration: .init(imageCache: nil))
            let tasks = (0..<10).map {
                pipeline.imageTask(with: ImageRequest(url: base.appending(path: "held/\($0).jpg")))
            }
            try await waitUntil {
                let waiting = await pipeline.coordinator.waitingPriorities(for: .download)
                return log.total == 6 && waiting.count == 4
            }
            // Held responses keep their places: the six slots are taken, so nothing more starts.
            #expect(await pipeline.coordinator.runningCount(for: .download) == 6)
            #expect(log.total == 6)
            log.held.open()
            for task in tasks { _ = try await task.response }
            #expect(Set(log.arrivals) == Set((0..<10).map { "/held/\($0).jpg" }))
        }
    }

    /// Downloads that finish together decode no more than the decode limit at once; the rest
    /// wait for a free place.
    @Test func decodesRunNoMoreThanTheirLimitAtOnce() async throws {
        try await ImageServer.run { base, _ in
            let decoder = HeldDecoder()
            let pipeline = ImagePipeline(
                configuration: .init(imageCache: nil, decoder: decoder, maximumConcurrentDecodes: 2)
            )
            let tasks = (0..<8).map {
                pipeline.imageTask(with: ImageRequest(url: base.appending(path: "img/\(30 + $0).jpg")))
            }
            try await waitUntil {
                let waiting = await pipeline.coordinator.waitingPriorities(for: .decode)
                return decoder.counts.running == 2 && waiting.count == 6
            }
            // Held decodes keep their places: both slots are taken, so no third one starts.
            #expect(await pipeline.coordinator.runningCount(for: .decode) == 2)
            #expect(decoder.counts.running == 2)
            decoder.release.open()
            for task in tasks { #expect(try await task.response.image.width == 64) }
            #expect(decoder.counts.started == 8 && decoder.counts.mostAtOnce == 2)
        }
    }

    /// A download runs at the priority of the request that asked for it, not at the lowest
    /// one, as it did when its job started before its first caller was counted.
    @Test(arguments: [
        (ImageRequest.Priority.veryHigh, TaskPriority.high), (.normal, .medium), (.low, .utility),
    ])
    func aDownloadRunsAtItsRequestsPriority(
        priority: ImageRequest.Priority,
        expected: TaskPriority
    ) async throws {
        let loader = PriorityRecordingLoader()
        let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, imageCache: nil))
        let url = URL(string: "http://images.example/1.jpg")!
        _ = try await pipeline.image(for: ImageRequest(url: url, priority: priority))
        #expect(loader.started.current == [expected])
    }

    /// Raising a request whose download is already under way raises the task doing it.
    @Test func raisingARequestReachesTheTaskOfItsDownload() async throws {
        let loader = PriorityRecordingLoader()
        let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, imageCache: nil))
        let task = pipeline.imageTask(
            with: ImageRequest(url: URL(string: "http://images.example/held/1.jpg")!, priority: .low)
        )
        try await waitUntil { loader.started.current.count == 1 }
        #expect(loader.started.current == [.utility])
        task.priority = .veryHigh
        try await waitUntil { task.prioritiesInFlight == 0 }
        loader.release.open()
        _ = try await task.response
        #expect(loader.resumed.current == [.high])
    }

    /// With one download slot held, three waiting downloads start by priority — one of them
    /// raised while it waits — as the server sees them arrive.
    @Test func waitingWorkStartsInPriorityOrder() async throws {
        try await ImageServer.run { base, log in
            let pipeline = pipeline(downloads: 1)
            let blocker = pipeline.imageTask(with: ImageRequest(url: base.appending(path: "held/10.jpg")))
            try await waitUntil { log.count("/held/10.jpg") == 1 }
            let tasks = [("low", ImageRequest.Priority.low), ("normal", .normal), ("raised", .veryLow)].map {
                pipeline.imageTask(
                    with: ImageRequest(url: base.appending(path: "img/\($0).jpg"), priority: $1)
                )
            }
            try await waitUntil { await pipeline.coordinator.waitingPriorities(for: .download).count == 3 }
            tasks[2].priority = .veryHigh
            try await waitUntil {
                await pipeline.coordinator.waitingPriorities(for: .download).contains(.veryHigh)
            }
            log.held.open()
            _ = try await blocker.response
            for task in tasks { _ = try await task.response }
            #expect(log.arrivals == ["/held/10.jpg", "/img/raised.jpg", "/img/normal.jpg", "/img/low.jpg"])
        }
    }

    /// Changes made in quick succession, the first while the task is still subscribing, leave
    /// the waiting work at the priority set last.
    @Test func thePrioritySetLastHolds() async throws {
        try await ImageServer.run { base, log in
            let pipeline = pipeline(downloads: 1)
            let blocker = pipeline.imageTask(with: ImageRequest(url: base.appending(path: "held/13.jpg")))
            try await waitUntil { log.count("/held/13.jpg") == 1 }
            let task = pipeline.imageTask(with: ImageRequest(url: base.appending(path: "img/14.jpg")))
            task.priority = .high
            try await waitUntil { await pipeline.coordinator.waitingPriorities(for: .download) == [.high] }
            for last in [ImageRequest.Priority.veryLow, .normal, .veryLow, .normal, .veryLow] {
                for round in 0..<200 { task.priority = round.isMultiple(of: 2) ? .low : .veryHigh }
                task.priority = last
                try await waitUntil { await pipeline.coordinator.waitingPriorities(for: .download) == [last] }
                // Whatever was still on its way arrives, and changes nothing.
                try await waitUntil { task.prioritiesInFlight == 0 }
                #expect(await pipeline.coordinator.waitingPriorities(for: .download) == [last])
            }
            log.held.open()
            _ = try await blocker.response
            #expect(try await task.response.image.width == 64)
        }
    }

    /// Data that turns out to be no image is not kept in the disk cache: the next load asks the
    /// server again. An image is kept and served from the disk.
    @Test func dataThatIsNoImageIsNotKept() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "pipeline-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ImageServer.run { base, log in
            let dataCache = try DataCache(directory: directory)
            let pipeline = pipeline(imageCache: nil, dataCache: dataCache)
            for _ in 0..<2 {
                await #expect(throws: ImagePipeline.Error.self) {
                    try await pipeline.image(for: base.appending(path: "corrupt.jpg"))
                }
                #expect(
                    try await pipeline.response(for: ImageRequest(url: base.appending(path: "img/15.jpg")))
                        .image.width == 64
                )
            }
            dataCache.flush()
            #expect(log.count("/corrupt.jpg") == 2 && log.count("/img/15.jpg") == 1)
            #expect(!dataCache.containsData(for: base.appending(path: "corrupt.jpg").absoluteString))
            #expect(dataCache.containsData(for: base.appending(path: "img/15.jpg").absoluteString))
        }
    }

    @Test func publisherLoadsWhenSubscribedAndCancelsWithTheSubscription() async throws {
        try await ImageServer.run { base, log in
            let pipeline = pipeline()
            // Made first and never subscribed to: had it loaded, its request would reach the
            // server before the one subscribed to after it is answered.
            let unasked = pipeline.publisher(for: ImageRequest(url: base.appending(path: "img/13.jpg")))
            let publisher = pipeline.publisher(for: ImageRequest(url: base.appending(path: "img/11.jpg")))
            let recorder = Recorder<ImageResponse, Int, TestError>(demand: .unlimited) { $0.image.width }
            publisher.mapError { _ in TestError.boom }.subscribe(recorder)
            try await waitUntil { recorder.events.count >= 3 }
            #expect(recorder.events == [.subscription, .value(64), .finished])
            #expect(
                log.total == 1 && log.count("/img/13.jpg") == 0,
                "nothing is loaded before a subscriber asks"
            )
            withExtendedLifetime(unasked) {}

            let slow = pipeline.publisher(for: ImageRequest(url: base.appending(path: "slow/12.jpg")))
            let subscription = slow.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            try await waitUntil { log.count("/slow/12.jpg") == 1 }
            subscription.cancel()
            try await waitUntil { log.wasAborted("/slow/12.jpg") }
            #expect(log.wasAborted("/slow/12.jpg"))
        }
    }

    @Test func progressIsReportedUpToTheWholeImage() async throws {
        try await ImageServer.run { base, log in
            let task = pipeline().imageTask(with: ImageRequest(url: base.appending(path: "slow/4.jpg")))
            let reports = Locked<[ImageProgress]>([])
            let collecting = Task {
                for await report in task.progress { reports.withLock { $0.append(report) } }
            }
            // The server trickles the image until it is told to send the rest.
            try await waitUntil { reports.withLock { $0.count } > 10 }
            log.held.open()
            _ = try await task.response
            await collecting.value
            let progress = reports.withLock { $0 }
            let total = ImageServer.jpeg(4).count
            #expect(progress.count > 10)
            #expect(progress.last == ImageProgress(completed: total, total: total))
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        }
    }
}

/// Decodes with ``ImageDecoder`` once ``release`` opens, counting the decodes that run at once.
/// Serves one JPEG for every URL, noting the priority of the task each load runs in; loads of
/// `held` paths wait for ``release`` and note their priority again afterwards.
private final class PriorityRecordingLoader: DataLoading {
    let started = Locked<[TaskPriority]>([])
    let resumed = Locked<[TaskPriority]>([])
    let release = Gate()

    func loadData(
        for request: ImageRequest,
        progress: @escaping @Sendable (Int, Int?) -> Void
    ) async throws -> Data {
        started.withLock { $0.append(Task.currentPriority) }
        if request.url.path.contains("held") {
            await release.wait()
            resumed.withLock { $0.append(Task.currentPriority) }
        }
        return ImageServer.jpeg(1)
    }
}

private final class HeldDecoder: ImageDecoding {
    struct Counts {
        var started = 0
        var running = 0
        var mostAtOnce = 0
    }

    let release = Gate()
    private let state = Locked(Counts())

    var counts: Counts { state.withLock { $0 } }

    func decode(_ data: Data, minimumSize: PixelSize?) throws(ImageDecodingError) -> Bitmap {
        state.withLock {
            $0.started += 1
            $0.running += 1
            $0.mostAtOnce = max($0.mostAtOnce, $0.running)
        }
        defer { state.withLock { $0.running -= 1 } }
        release.waitBlocking()
        return try ImageDecoder().decode(data, minimumSize: minimumSize)
    }
}
