import Foundation
import Testing
import Tributary
import TributaryTestSupport

@testable import TributaryImages

@MainActor
@Suite(.timeLimit(.minutes(5)))
struct ImageLoaderTests {
    @Test func loadsOnTheMainQueue() async throws {
        try await ImageServer.run { base, _ in
            let loader = ImageLoader(pipeline: ImagePipeline())
            var changes: [String] = []
            let watching = Observed { loader.state }.dropFirst().sink { state in
                changes.append(String("\(state)".prefix { $0 != " " }))
            }
            let queues = ChangeQueues { _ = loader.state }
            let url = base.appending(path: "img/3.jpg")
            loader.url = url
            #expect(loader.isLoading && loader.loadingURL == url && loader.image == nil)
            try await waitUntil { loader.image != nil }
            #expect(loader.image?.width == 64)
            #expect(!loader.isLoading && loader.failure == nil)
            try await waitUntil { changes.count == 2 }
            #expect(changes == ["loading", "loaded"])
            #expect(queues.onMain == [true, true])
            watching.cancel()
        }
    }

    @Test func aNewURLDropsTheOldOnesLateResult() async throws {
        try await ImageServer.run { base, log in
            let pipeline = ImagePipeline()
            let loader = ImageLoader(pipeline: pipeline)
            var images: [Bitmap] = []
            let watching = Observed { loader.state }.compactMap(\.value).sink { images.append($0) }
            loader.url = base.appending(path: "slow/1.jpg")
            try await waitUntil { log.count("/slow/1.jpg") == 1 }
            loader.url = base.appending(path: "img/200.jpg")
            try await waitUntil { loader.image != nil }
            // The old load was cancelled on the wire, and nothing of it arrives afterwards: once
            // its job is gone, and what the main queue held has run, there is still one image.
            try await waitUntil { log.wasAborted("/slow/1.jpg") }
            try await waitUntil { await pipeline.coordinator.jobCount == 0 }
            await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() }
            }
            #expect(images.count == 1)
            #expect((190...210).contains(Int(images.first?[5, 5].red ?? 0)))
            #expect(log.wasAborted("/slow/1.jpg"))
            watching.cancel()
        }
    }

    /// A loader raised while it waits for a download slot is served before work it queued
    /// behind.
    @Test func raisingThePriorityMovesTheLoadAhead() async throws {
        try await ImageServer.run { base, log in
            let pipeline = ImagePipeline(configuration: .init(maximumConcurrentDownloads: 1))
            let blocker = pipeline.imageTask(with: ImageRequest(url: base.appending(path: "held/40.jpg")))
            try await waitUntil { log.count("/held/40.jpg") == 1 }
            let loader = ImageLoader(pipeline: pipeline, priority: .low)
            loader.url = base.appending(path: "img/41.jpg")
            let other = pipeline.imageTask(with: ImageRequest(url: base.appending(path: "img/42.jpg")))
            func waiting() async -> [ImageRequest.Priority] {
                await pipeline.coordinator.waitingPriorities(for: .download).sorted()
            }
            try await waitUntil { await waiting() == [.low, .normal] }
            loader.priority = .high
            try await waitUntil { await waiting() == [.normal, .high] }
            log.held.open()
            try await waitUntil { loader.image != nil }
            _ = try await other.response
            _ = try await blocker.response
            #expect(log.arrivals == ["/held/40.jpg", "/img/41.jpg", "/img/42.jpg"])
        }
    }

    @Test func aLoaderThatGoesAwayStopsItsLoad() async throws {
        try await ImageServer.run { base, log in
            var loader: ImageLoader? = ImageLoader(pipeline: ImagePipeline())
            loader?.url = base.appending(path: "slow/43.jpg")
            try await waitUntil { log.count("/slow/43.jpg") == 1 }
            #expect(loader?.isLoading == true)
            loader = nil
            try await waitUntil { log.wasAborted("/slow/43.jpg") }
        }
    }

    @Test func failureIsDistinctFromLoading() async throws {
        try await ImageServer.run { base, _ in
            let loader = ImageLoader(pipeline: ImagePipeline())
            loader.url = base.appending(path: "missing.jpg")
            #expect(loader.isLoading && loader.failure == nil)
            try await waitUntil { !loader.isLoading }
            #expect(loader.failure?.stage == .loading)
            #expect(loader.image == nil && loader.loadingURL == nil)
            loader.url = nil
            #expect(loader.state.isIdle)
        }
    }

    /// Reloading after a failure asks the server again; reloading a loaded image takes it from
    /// the memory cache.
    @Test func reloadRetriesAFailureAndReusesALoadedImage() async throws {
        try await ImageServer.run { base, log in
            let loader = ImageLoader(pipeline: ImagePipeline())
            loader.url = base.appending(path: "missing.jpg")
            try await waitUntil { loader.failure != nil }
            loader.reload()
            #expect(loader.isLoading && loader.failure == nil)
            try await waitUntil { loader.failure != nil }
            #expect(log.count("/missing.jpg") == 2)

            loader.url = base.appending(path: "img/5.jpg")
            try await waitUntil { loader.image != nil }
            loader.reload()
            #expect(loader.image?.width == 64 && !loader.isLoading)
            #expect(log.count("/img/5.jpg") == 1)
        }
    }

    @Test func aCachedImageAppearsWithoutALoadingState() async throws {
        try await ImageServer.run { base, _ in
            let pipeline = ImagePipeline()
            let url = base.appending(path: "img/4.jpg")
            _ = try await pipeline.image(for: url)
            let loader = ImageLoader(pipeline: pipeline)
            loader.url = url
            #expect(loader.image?.width == 64)
        }
    }
}

@Suite(.timeLimit(.minutes(5)))
struct ImagePrefetcherTests {
    @Test func prefetchedImagesAreInTheMemoryCache() async throws {
        try await ImageServer.run { base, log in
            let pipeline = ImagePipeline()
            let prefetcher = ImagePrefetcher(pipeline: pipeline, maximumConcurrentRequests: 2)
            let requests = (0..<10).map { ImageRequest(url: base.appending(path: "img/\($0).jpg")) }
            prefetcher.startPrefetching(with: requests + requests)
            try await waitUntil { prefetcher.pendingCount == 0 }
            #expect(requests.allSatisfy { pipeline.cachedImage(for: $0) != nil })
            #expect(log.total == 10)
            prefetcher.startPrefetching(with: requests)
            #expect(prefetcher.pendingCount == 0)
        }
    }

    /// Scrolling past a row and back stops its prefetch and queues it again: the new prefetch
    /// counts against the limit until it ends, whenever the stopped one ends; so does one queued
    /// again after all prefetching stopped.
    @Test(arguments: [false, true])
    func aPrefetchQueuedAgainOutlivesTheStoppedOne(stoppingAll: Bool) async throws {
        try await ImageServer.run { base, log in
            let ended = Locked<[ImageCacheKey]>([])
            let prefetcher = ImagePrefetcher(
                pipeline: ImagePipeline(),
                destination: .diskCache,
                priority: .low,
                maximumConcurrentRequests: 1,
                onFinished: { key in ended.withLock { $0.append(key) } }
            )
            let row = ImageRequest(url: base.appending(path: "slow/30.jpg"))
            let next = ImageRequest(url: base.appending(path: "img/31.jpg"))
            prefetcher.startPrefetching(with: [row])
            try await waitUntil { log.count("/slow/30.jpg") == 1 }
            if stoppingAll {
                prefetcher.stopPrefetching()
            } else {
                prefetcher.stopPrefetching(with: [row])
            }
            prefetcher.startPrefetching(with: [row, next])
            // The stopped prefetch ends meanwhile; the new one still holds the only place.
            try await waitUntil { ended.current == [row.imageKey] }
            #expect(prefetcher.pendingCount == 2)
            #expect(log.count("/img/31.jpg") == 0)
            log.held.open()
            try await waitUntil { prefetcher.pendingCount == 0 }
            #expect(log.count("/img/31.jpg") == 1)
        }
    }

    /// The image cache is the app's own code, which may call back into the prefetcher: it is
    /// asked outside the prefetcher's lock (inside it, this deadlocked).
    @Test func asksTheImageCacheOutsideItsLock() async throws {
        final class CallingBack: ImageCaching {
            let cache = ImageCache()
            let prefetcher = Locked<ImagePrefetcher?>(nil)
            let seen = Locked<[Int]>([])
            func image(for key: ImageCacheKey) -> Bitmap? {
                if let pending = prefetcher.current?.pendingCount { seen.withLock { $0.append(pending) } }
                return cache.image(for: key)
            }
            func store(_ image: Bitmap, for key: ImageCacheKey) { cache.store(image, for: key) }
            func removeImage(for key: ImageCacheKey) { cache.removeImage(for: key) }
            func removeAll() { cache.removeAll() }
        }
        try await ImageServer.run { base, _ in
            let cache = CallingBack()
            let pipeline = ImagePipeline(configuration: .init(imageCache: cache))
            let prefetcher = ImagePrefetcher(pipeline: pipeline)
            cache.prefetcher.withLock { $0 = prefetcher }
            let requests = (50..<53).map { ImageRequest(url: base.appending(path: "img/\($0).jpg")) }
            prefetcher.startPrefetching(with: requests)
            try await waitUntil { prefetcher.pendingCount == 0 }
            #expect(requests.allSatisfy { cache.cache.image(for: $0.imageKey) != nil })
            #expect(cache.seen.current.count >= 3)
        }
    }

    @Test func stoppingCancelsTheDownloads() async throws {
        try await ImageServer.run { base, log in
            let prefetcher = ImagePrefetcher(pipeline: ImagePipeline(), destination: .diskCache)
            let requests = (20..<24).map { ImageRequest(url: base.appending(path: "slow/\($0).jpg")) }
            prefetcher.startPrefetching(with: requests)
            try await waitUntil { log.count("/slow/20.jpg") > 0 }
            prefetcher.stopPrefetching()
            #expect(prefetcher.pendingCount == 0)
            // Whatever had reached the server is abandoned; nothing else starts.
            let paths = requests.map(\.url.path)
            func settled() -> Bool { paths.allSatisfy { log.count($0) == 0 || log.wasAborted($0) } }
            try await waitUntil { settled() }
            #expect(settled())
            #expect(log.count("/slow/20.jpg") == 1 && log.wasAborted("/slow/20.jpg"))
            #expect(log.count("/slow/22.jpg") == 0 && log.count("/slow/23.jpg") == 0)
        }
    }
}
