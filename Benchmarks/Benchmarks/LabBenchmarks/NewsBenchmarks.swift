import AsyncHTTPClient
import Benchmark
import BenchmarkSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWSClient
import NIOCore
import NewsAPI
import Synchronization
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryLab
import TributarySandbox

// The news reader against an in-process sandbox. Thumbnails: 2,000 warm-cache GETs of one
// /img address at concurrency 32, beside a Hummingbird route answering the same bytes from
// memory. Keystrokes: a search typed into the page's socket, timed to the state that shows its
// results, beside the view model's 300 ms pause plus one direct NewsClient search.

/// The sandbox, running until `stop()`.
final class RunningSandbox: Sendable {
    let url: URL
    private let stopping: AsyncStream<Void>.Continuation
    private let task: Task<Void, any Error>

    init() async throws {
        let (stop, stopping) = AsyncStream<Void>.makeStream()
        let (ready, readiness) = AsyncStream<URL>.makeStream()
        self.stopping = stopping
        task = Task {
            try await Sandbox.withRunning { url in
                readiness.yield(url)
                for await _ in stop {}
            }
        }
        var iterator = ready.makeAsyncIterator()
        guard let url = await iterator.next() else { throw CancellationError() }
        self.url = url
    }

    func stop() async {
        stopping.finish()
        _ = await task.result
    }
}

final class NewsRig: Rig {
    let sandbox: RunningSandbox
    let lab: RunningLab
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let newsClient: NewsClient
    let thumbnailURL: String
    let floorURL: String
    private let floor: LoopbackServer

    init() async throws {
        sandbox = try await RunningSandbox()
        let transport = AsyncHTTPClientTransport(borrowing: client)
        var news = try LabNews.reading(
            baseURL: sandbox.url,
            apiKey: Sandbox.demoKey,
            transport: transport,
            trusted: HTTPOrigin(sandbox.url).map { [$0] } ?? []
        )
        newsClient = news.client
        let page = try await news.client.articles(.topHeadlines(.init(country: "us")))
        guard let picture = page.articles.compactMap(\.urlToImage).first, let host = picture.host else {
            throw LabBenchmarkError("the sandbox's headlines have no pictures")
        }
        news.imageHosts = [host]
        lab = try await RunningLab(news: news)
        var components = URLComponents(url: lab.url.appending(path: "img"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            .init(name: "url", value: picture.absoluteString), .init(name: "w", value: "320"),
        ]
        thumbnailURL = components?.url?.absoluteString ?? ""
        let (floor, floorBase) = try await memoryCopy(
            of: thumbnailURL,
            at: "img",
            client: client,
            token: lab.token
        )
        self.floor = floor
        floorURL = floorBase.appending(path: "img").absoluteString + "?w=320"
    }

    func read(_ url: String) async throws {
        try await getConcurrently(url, client: client, token: lab.token)
    }

    func stop() async {
        await lab.stop()
        await sandbox.stop()
        try? await client.shutdown()
    }
}

/// A page's news socket, with the time each state arrived.
final class NewsPage: Sendable {
    private final class States: Sendable {
        let list = Mutex<[(ContinuousClock.Instant, String)]>([])
    }

    private let states = States()
    private let outgoing: AsyncStream<String>.Continuation
    private let connection: Task<Void, any Error>

    init(_ url: String, token: String) {
        let (messages, outgoing) = AsyncStream<String>.makeStream()
        self.outgoing = outgoing
        let states = states
        connection = Task {
            try await WebSocketClient.connect(
                url: url,
                configuration: .init(
                    maxFrameSize: 4 << 20,
                    additionalHeaders: [.authorization: "Bearer \(token)"]
                ),
                logger: quiet
            ) {
                inbound,
                outbound,
                _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { for await text in messages { try await outbound.write(.text(text)) } }
                    for try await message in inbound.messages(maxSize: 4 << 20) {
                        if case .text(let text) = message { states.list.withLock { $0.append((.now, text)) } }
                    }
                    group.cancelAll()
                }
            }
        }
    }

    func send(_ text: String) { outgoing.yield(text) }

    /// When the results of `query` arrived, once they have.
    func loaded(_ query: String) async throws -> ContinuousClock.Instant {
        let marker = #""searchText":"\#(query)""#
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let found = states.list.withLock({
                $0.first { $0.1.contains(#""state":"loaded""#) && $0.1.contains(marker) }
            }) {
                return found.0
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw LabBenchmarkError("no results for \(query) within 10 seconds")
    }

    func close() {
        outgoing.finish()
        connection.cancel()
    }
}

let keystrokeToResults = BenchmarkMetric.custom(
    "keystroke to results (ms)",
    polarity: .prefersSmaller,
    useScalingFactor: false
)

func newsBenchmarks() {
    for (name, route) in [("/img, warm", \NewsRig.thumbnailURL), ("memory route", \NewsRig.floorURL)] {
        benchmark(
            "LabThumbnails/\(name) (2,000 GETs, 32 at a time)",
            configuration: throughputConfiguration,
            on: NewsRig.self
        ) { benchmark, rig in
            benchmark.startMeasurement()
            try await rig.read(rig[keyPath: route])
            benchmark.stopMeasurement()
        }
    }
    let words = ["compiler", "privacy", "detector", "pipeline", "schedule", "benchmark", "browser", "cloud"]
    let typed = Mutex(0)
    /// A word and a number no earlier search had, so that no answer is a repeat.
    let nextQuery: @Sendable () -> String = {
        let count = typed.withLock { count in
            count += 1
            return count
        }
        return "\(words[count % words.count]) \(count)"
    }
    let searching: [(String, @Sendable (NewsRig, String) async throws -> Duration)] = [
        (
            "search typed into the page's socket",
            { rig, query in
                let page = NewsPage(
                    "ws://127.0.0.1:\(rig.lab.url.port ?? 0)/api/news/live",
                    token: rig.lab.token
                )
                defer { page.close() }
                page.send(#"{"type":"input","feed":{"kind":"search"},"searchText":""}"#)
                let typedAt = ContinuousClock.now
                page.send(#"{"type":"input","feed":{"kind":"search"},"searchText":"\#(query)"}"#)
                return try await page.loaded(query) - typedAt
            }
        ),
        (
            "the view model's pause, then NewsClient directly",
            { rig, query in
                let started = ContinuousClock.now
                try await Task.sleep(for: .milliseconds(300))
                _ = try await rig.newsClient.articles(.everything(.init(query: query)))
                return ContinuousClock.now - started
            }
        ),
    ]
    let configuration = Benchmark.Configuration(
        metrics: [keystrokeToResults],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(60),
        maxIterations: 40,
        thresholds: [:]
    )
    for (name, search) in searching {
        benchmark("LabKeystroke/\(name)", configuration: configuration, on: NewsRig.self) { benchmark, rig in
            let elapsed = try await search(rig, nextQuery())
            benchmark.measurement(
                keystrokeToResults,
                Int(
                    elapsed.components.seconds * 1_000 + elapsed.components.attoseconds
                        / 1_000_000_000_000_000
                )
            )
        }
    }
}
