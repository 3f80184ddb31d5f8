import Foundation
import HackerNews
import Hummingbird
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributarySandbox
import TributaryTestSupport

/// One dataset for the suites, dated up to a fixed day.
let hackerNews = HNDataset(seed: 1, day: Date(timeIntervalSince1970: 1_768_478_400))

/// Runs a sandbox and gives `body` a Hacker News client of it that does not retry.
func withHackerNews<Result: Sendable>(
    maximumConcurrentRequests: Int = 8,
    _ body: @Sendable (HackerNewsClient, Sandbox) async throws -> Result
) async throws -> Result {
    let sandbox = Sandbox()
    return try await sandbox.withRunning { url in
        try await AsyncHTTPClientTransport.withTransport { transport in
            let client = HackerNewsClient(
                baseURL: url.deletingLastPathComponent().appending(path: "hn/v0"),
                transport: transport,
                retryPolicy: .never,
                maximumConcurrentRequests: maximumConcurrentRequests
            )
            return try await body(client, sandbox)
        }
    }
}

/// A server that answers as Hacker News from ``hackerNews``, slowly, counting the requests it
/// has at once and each path's hits; paths in `failing` answer 401 with Firebase's
/// `{"error" : "Permission denied"}`, as the API does for an item nobody may read.
final class CountingServer: Sendable {
    private struct Counts {
        var inFlight = 0
        var mostInFlight = 0
        var hits: [String: Int] = [:]
    }

    private let counts = Locked(Counts())
    let failing: Set<String>
    let delay: Duration

    init(failing: Set<String> = [], delay: Duration = .milliseconds(20)) {
        self.failing = failing
        self.delay = delay
    }

    /// The most requests it had under way at once.
    var mostInFlight: Int { counts.withLock { $0.mostInFlight } }

    func hits(_ path: String) -> Int { counts.withLock { $0.hits[path, default: 0] } }

    var totalHits: Int { counts.withLock { $0.hits.values.reduce(0, +) } }

    func run<Result: Sendable>(
        maximumConcurrentRequests: Int = 8,
        _ body: @Sendable (HackerNewsClient) async throws -> Result
    ) async throws -> Result {
        let router = Router()
        router.get("v0/**") { [self] _, context in
            let path = context.parameters.getCatchAll().joined(separator: "/")
            counts.withLock {
                $0.inFlight += 1
                $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
                $0.hits[path, default: 0] += 1
            }
            try? await Task.sleep(for: delay)
            counts.withLock { $0.inFlight -= 1 }
            if failing.contains(path) {
                return Response(
                    status: .unauthorized,
                    headers: [.contentType: "application/json; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"error" : "Permission denied"}"#))
                )
            }
            let body = hackerNews.answer(path) ?? Data("null".utf8)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body))
            )
        }
        return try await withLoopbackServer(router) { url in
            try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(
                    HackerNewsClient(
                        baseURL: url.appending(path: "v0"),
                        transport: transport,
                        retryPolicy: .never,
                        maximumConcurrentRequests: maximumConcurrentRequests
                    )
                )
            }
        }
    }
}

extension HNDataset {
    /// What the dataset answers for `path`, decoded.
    func decoded<Value: Decodable>(_ path: String, as: Value.Type = Value.self) throws -> Value {
        try JSONDecoder().decode(Value.self, from: answer(path) ?? Data())
    }

    /// A story with replies at least `depth` levels deep.
    func story(withRepliesDeeperThan depth: Int) throws -> HNItem {
        for id in try decoded("topstories.json", as: [Int].self) {
            guard let story = try decoded("item/\(id).json", as: HNItem?.self) else { continue }
            if try self.depth(of: story) > depth { return story }
        }
        throw CocoaError(.featureUnsupported)
    }

    func depth(of item: HNItem) throws -> Int {
        try item.kids.map { id in
            try decoded("item/\(id).json", as: HNItem?.self).map { try 1 + depth(of: $0) } ?? 0
        }.max() ?? 0
    }

    /// Every reply under `item` down to `maximumDepth` levels, with its depth.
    func replies(under item: HNItem, maximumDepth: Int) throws -> [Int: Int] {
        var found: [Int: Int] = [:]
        var level = item.kids
        var depth = 0
        while !level.isEmpty, depth < maximumDepth {
            var next: [Int] = []
            for id in level {
                guard let reply = try decoded("item/\(id).json", as: HNItem?.self) else { continue }
                found[id] = depth
                next += reply.kids
            }
            level = next
            depth += 1
        }
        return found
    }
}
