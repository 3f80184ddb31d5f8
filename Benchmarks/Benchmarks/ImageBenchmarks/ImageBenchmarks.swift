import Benchmark
import BenchmarkSupport
import Foundation
import Hummingbird
import NIOCore
import Synchronization
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryImages

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The image pipeline against the obvious alternative for each job, in one run: a loopback
// server serves 100 distinct photo-like JPEGs of about 64 KB, and a 4000×3000 one.

/// A photo-like picture: smooth gradients with fine noise, so JPEG sizes are realistic.
func photo(width: Int, height: Int, seed: UInt64) -> Bitmap {
    var state = seed | 1
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int(state >> 59) - 16
            let offset = (y * width + x) * 4
            pixels[offset] = UInt8(clamping: x * 255 / width + noise)
            pixels[offset + 1] = UInt8(clamping: y * 255 / height + noise)
            pixels[offset + 2] = UInt8(clamping: Int(seed % 200) + noise)
        }
    }
    return Bitmap(width: width, height: height, pixels: pixels)
}

/// 100 JPEGs of about 64 KB each.
let smallJPEGs: [Data] = (0..<100).map {
    try! photo(width: 480, height: 360, seed: UInt64($0)).jpegData(quality: 90)
}
/// A 4000×3000 JPEG, baseline and progressive (the pixels are not kept, so that they do not
/// count towards any benchmark's peak memory).
let (largeJPEG, largeProgressiveJPEG): (Data, Data) = {
    let picture = photo(width: 4000, height: 3000, seed: 7)
    return (try! picture.jpegData(quality: 85), try! picture.jpegData(quality: 85, progressive: true))
}()

/// The server, started once for the whole run: `/img/N.jpg` is JPEG N modulo 100.
let imageServer = LoopbackServer {
    let router = Router()
    let bodies = smallJPEGs.map { ByteBuffer(bytes: $0) }
    router.get("img/:number") { _, context in
        let number = Int(context.parameters.get("number")?.split(separator: ".").first ?? "") ?? 0
        return Response(
            status: .ok,
            headers: [.contentType: "image/jpeg"],
            body: .init(byteBuffer: bodies[number % bodies.count])
        )
    }
    return router
}

private func configuration(
    _ metrics: [BenchmarkMetric] = [.wallClock, .throughput],
    units: BenchmarkTimeUnits = .milliseconds,
    scaling: BenchmarkScalingFactor = .one
) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: metrics,
        timeUnits: units,
        warmupIterations: 1,
        scalingFactor: scaling,
        maxDuration: .seconds(8),
        maxIterations: 200,
        thresholds: [:]
    )
}

/// Loads `/img/0.jpg` to `/img/999.jpg` all at once, under a query no earlier round used, and
/// sums what `load` returns for each.
private func coldLoads(
    _ benchmark: Benchmark,
    _ load: @escaping @Sendable (URL) async throws -> Int
) async throws -> Int {
    let base = await imageServer.start()
    let round = UUID().uuidString
    benchmark.startMeasurement()
    defer { benchmark.stopMeasurement() }
    return try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<1_000 {
            group.addTask {
                try await load(
                    base.appending(path: "img/\(index).jpg").appending(queryItems: [
                        .init(name: "r", value: round)
                    ])
                )
            }
        }
        return try await group.reduce(0, +)
    }
}

/// Fetches `/img/0.jpg` to `/img/999.jpg` one after another with `URLSession`, and sums what
/// `use` returns for each body.
private func sequentialLoads(_ benchmark: Benchmark, _ use: (Data) throws -> Int) async throws -> Int {
    let base = await imageServer.start()
    let session = URLSession(configuration: .ephemeral)
    benchmark.startMeasurement()
    defer { benchmark.stopMeasurement() }
    var total = 0
    for index in 0..<1_000 {
        let (data, _) = try await session.data(from: base.appending(path: "img/\(index).jpg"))
        total += try use(data)
    }
    return total
}

let benchmarks: @Sendable () -> Void = {
    let transport = AsyncHTTPClientTransport(configuration: AsyncHTTPClientTransport.defaultConfiguration)
    let thumbnail = ImageProcessors.Resize(maximumPixelSize: 256)

    // MARK: Memory-cache hit

    let cached = ImagePipeline()
    let cachedRequest = ImageRequest(url: URL(string: "http://127.0.0.1:1/cached.jpg")!)
    let cachedImage = photo(width: 64, height: 64, seed: 1)
    cached.configuration.imageCache?.store(cachedImage, for: cachedRequest.imageKey)
    Benchmark(
        "MemoryCacheHit/ImagePipeline.image(for:)",
        configuration: configuration(units: .nanoseconds, scaling: .kilo)
    ) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await cached.image(for: cachedRequest)) }
    }
    Benchmark(
        "MemoryCacheHit/ImageCache.image(for:)",
        configuration: configuration(units: .nanoseconds, scaling: .kilo)
    ) {
        benchmark in
        let cache = cached.configuration.imageCache!
        for _ in benchmark.scaledIterations { blackHole(cache.image(for: cachedRequest.imageKey)) }
    }

    // MARK: 1,000 cold loads

    // The whole load, then each half of it on its own: the download alone, and the decoding
    // alone (which no schedule can spread over more cores than the machine has). CPU time beside
    // wall time shows how busy the cores are.
    let coldConfiguration = configuration([.wallClock, .cpuTotal, .throughput])
    let coldPipeline = ImagePipeline(
        configuration: .init(dataLoader: DataLoader(transport: transport), imageCache: nil)
    )
    Benchmark("ColdLoads1000/ImagePipeline", configuration: coldConfiguration) { benchmark in
        let pixels = try await coldLoads(benchmark) { try await coldPipeline.image(for: $0).width }
        precondition(pixels == 480_000, "every image decoded")
    }
    Benchmark("ColdLoads1000/URLSession sequential fetch+decode", configuration: coldConfiguration) {
        benchmark in
        let pixels = try await sequentialLoads(benchmark) {
            try ImageDecoder().decode($0, minimumSize: nil).width
        }
        precondition(pixels == 480_000, "every image decoded")
    }
    Benchmark("ColdLoads1000 download only/ImagePipeline.data(for:)", configuration: coldConfiguration) {
        benchmark in
        let bytes = try await coldLoads(benchmark) {
            try await coldPipeline.data(for: ImageRequest(url: $0)).count
        }
        precondition(bytes == smallJPEGs.reduce(0) { $0 + $1.count } * 10, "every image fetched")
    }
    Benchmark("ColdLoads1000 download only/URLSession sequential fetch", configuration: coldConfiguration) {
        benchmark in
        let bytes = try await sequentialLoads(benchmark) { $0.count }
        precondition(bytes == smallJPEGs.reduce(0) { $0 + $1.count } * 10, "every image fetched")
    }
    // The decoding split over as many threads as the machine has cores: the least time the
    // 1,000 decodes can take here, however the pipeline schedules them and its downloads.
    for threads in [1, ProcessInfo.processInfo.activeProcessorCount] {
        Benchmark(
            "ColdLoads1000 decode only/ImageDecoder on \(threads) thread\(threads == 1 ? "" : "s")",
            configuration: coldConfiguration
        ) { _ in
            let pixels = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                var sum = 0
                for index in stride(from: thread, to: 1_000, by: threads) {
                    sum += (try? ImageDecoder().decode(smallJPEGs[index % 100], minimumSize: nil).width) ?? 0
                }
                pixels.withLock { $0 += sum }
            }
            precondition(pixels.withLock { $0 } == 480_000, "every image decoded")
        }
    }

    // MARK: Thumbnails of a 4000×3000 JPEG

    for (name, data) in [
        ("Thumbnail4000x3000", largeJPEG), ("Thumbnail4000x3000 progressive", largeProgressiveJPEG),
    ] {
        Benchmark("\(name)/DCT-scaled decode + resize", configuration: configuration()) { benchmark in
            for _ in benchmark.scaledIterations {
                let source = PixelSize(width: 4000, height: 3000)
                let decoded = try ImageDecoder().decode(
                    data,
                    minimumSize: thumbnail.minimumInputSize(for: source)
                )
                blackHole(try thumbnail.process(decoded))
            }
        }
        Benchmark("\(name)/full decode + resize", configuration: configuration()) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try thumbnail.process(try ImageDecoder().decode(data, minimumSize: nil)))
            }
        }
    }

    // MARK: Disk-cache hit

    let directory = FileManager.default.temporaryDirectory.appending(path: "tributary-bench-disk-cache")
    try? FileManager.default.removeItem(at: directory)
    let disk = try! DataCache(directory: directory)
    disk.storeData(smallJPEGs[0], for: "https://example.com/photo.jpg")
    disk.flush()
    let plainFile = directory.appending(path: "plain.jpg")
    try! smallJPEGs[0].write(to: plainFile)
    Benchmark(
        "DiskCacheHit/DataCache.cachedData(for:)",
        configuration: configuration(units: .nanoseconds, scaling: .kilo)
    ) {
        benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(disk.cachedData(for: "https://example.com/photo.jpg"))
        }
    }
    Benchmark(
        "DiskCacheHit/Data(contentsOf:) of the same bytes",
        configuration: configuration(units: .nanoseconds, scaling: .kilo)
    ) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(try Data(contentsOf: plainFile)) }
    }

    // MARK: Peak memory over 2,000 distinct images

    for (name, limit) in [("50 MB memory cache", 50 << 20), ("unbounded memory cache", Int.max)] {
        Benchmark(
            "Load2000Distinct/\(name)",
            configuration: configuration([.wallClock, .peakMemoryResident], units: .milliseconds)
        ) { benchmark in
            let base = await imageServer.start()
            let cache = ImageCache(costLimit: limit, entryCostRatio: 1)
            let pipeline = ImagePipeline(
                configuration: .init(dataLoader: DataLoader(transport: transport), imageCache: cache)
            )
            let round = UUID().uuidString
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<2_000 {
                    if index >= 32 { try await group.next() }
                    group.addTask {
                        let url = base.appending(path: "img/\(index).jpg").appending(queryItems: [
                            .init(name: "r", value: round)
                        ])
                        blackHole(try await pipeline.image(for: url))
                    }
                }
                try await group.waitForAll()
            }
            blackHole(cache.totalCost)
        }
    }
}
