public import Foundation
import HTTPTypes
public import Tributary
public import TributaryHTTP

/// Talks to the official Hacker News API, or to any server that speaks it (the sandbox).
///
/// ```swift
/// let hn = HackerNewsClient(transport: URLSessionTransport())
/// let page = try await hn.stories(.top)            // 30 stories, in rank order
/// hn.comments(of: story).sink(...)                 // the reply tree, as it arrives
/// ```
///
/// A story list is ids, and each item is one more request: pages are fetched with at most
/// ``maximumConcurrentRequests`` requests at once, in list order, and the same item asked for
/// twice while its request is under way is fetched once. An item that is `null` or fails is
/// skipped and counted; it never fails the page, and dead or deleted stories are left out of a
/// list and counted, as the site does unless asked to show them. Everything else — transport,
/// status codes, retries, JSON errors — is `APIClient`'s.
public struct HackerNewsClient: Sendable {
    /// The official API's base URL.
    public static let officialBaseURL = URL(string: "https://hacker-news.firebaseio.com/v0")!

    /// The client that carries the exchanges.
    public var api: APIClient
    /// The most item requests in flight at once, for a page or a comment walk.
    public var maximumConcurrentRequests: Int
    private let requests = SharedItemRequests()

    /// Creates a client over a configured `APIClient`.
    public init(api: APIClient, maximumConcurrentRequests: Int = 8) {
        precondition(maximumConcurrentRequests > 0, "at least one request must be allowed")
        self.api = api
        self.maximumConcurrentRequests = maximumConcurrentRequests
    }

    /// Creates a client of the server at `baseURL`.
    public init(
        baseURL: URL = HackerNewsClient.officialBaseURL,
        transport: any HTTPTransporting,
        retryPolicy: RetryPolicy = .standard,
        maximumConcurrentRequests: Int = 8
    ) {
        self.init(
            api: APIClient(baseURL: baseURL, transport: transport, retryPolicy: retryPolicy),
            maximumConcurrentRequests: maximumConcurrentRequests
        )
    }

    /// The ids of a story list, in rank order.
    public func storyIDs(_ list: StoryList) async throws(APIError) -> [Int] {
        try await api.send(HackerNewsEndpoint.stories(list))
    }

    /// An item, or nil when there is none with `id`. A request for an item already under way
    /// waits for that one.
    public func item(_ id: Int) async throws(APIError) -> HNItem? {
        try await requests.item(id) { () async throws(APIError) in
            try await api.send(HackerNewsEndpoint.item(id))
        }
    }

    /// A user, or nil when there is none named `id`.
    public func user(_ id: String) async throws(APIError) -> HNUser? {
        try await api.send(HackerNewsEndpoint.user(id))
    }

    /// The items with `ids`, in their order, fetched at most ``maximumConcurrentRequests`` at a
    /// time; ids that give no item are left out and counted in `skipped`.
    public func items(_ ids: [Int]) async -> (items: [HNItem], skipped: Int) {
        let fetched = await fetch(ids)
        return (fetched.items, fetched.missing + fetched.failed)
    }

    /// A poll with its options, fetched in the poll's order; options that cannot be loaded are
    /// counted.
    public func poll(_ poll: HNItem) async -> HNPoll {
        let fetched = await fetch(poll.parts)
        return HNPoll(poll: poll, options: fetched.items, unavailableCount: fetched.missing + fetched.failed)
    }

    /// The items with `ids`, in their order, with how many were `null` and how many failed.
    private func fetch(
        _ ids: [Int]
    ) async -> (items: [HNItem], missing: Int, failed: Int, firstFailure: APIError?) {
        var found = [HNItem?](repeating: nil, count: ids.count)
        var missing = 0
        var failed = 0
        var firstFailure: APIError?
        await forEachItem(ids.indices.map { ($0, ids[$0]) }) { index, result in
            switch result {
            case .success(let item?): found[index] = item
            case .success(nil): missing += 1
            case .failure(let error):
                failed += 1
                firstFailure = firstFailure ?? error
            }
        }
        return (found.compactMap { $0 }, missing, failed, firstFailure)
    }

    /// A page of a story list: its ids, then each item, in rank order.
    ///
    /// - Parameters:
    ///   - list: The list.
    ///   - page: The page, from 1.
    ///   - pageSize: Items on a page, 1 to 100.
    ///   - includingDead: Whether dead and deleted items stay on the page, flagged, rather than
    ///     being left out and counted in ``StoryPage/hiddenCount``.
    public func stories(
        _ list: StoryList,
        page: Int = 1,
        pageSize: Int = 30,
        includingDead: Bool = false
    ) async throws(APIError) -> StoryPage {
        guard page >= 1, (1...100).contains(pageSize) else {
            throw APIError(
                .invalidRequest(reason: "pages are numbered from 1 and hold 1 to 100 items"),
                method: .get,
                url: list.path
            )
        }
        let ids = try await storyIDs(list)
        let start = min((page - 1).multipliedReportingOverflow(by: pageSize).partialValue, ids.count)
        let slice = Array(ids[max(0, start)..<min(max(0, start) + pageSize, ids.count)])
        let fetched = await fetch(slice)
        if Task.isCancelled { throw APIError(.cancelled, method: .get, url: list.path) }
        let shown = includingDead ? fetched.items : fetched.items.filter { !$0.isGone }
        return StoryPage(
            page: page,
            items: shown,
            missingCount: fetched.missing,
            failedCount: fetched.failed,
            hiddenCount: fetched.items.count - shown.count,
            totalCount: ids.count,
            pageSize: pageSize,
            firstFailure: fetched.firstFailure
        )
    }

    /// A publisher of the page ``stories(_:page:pageSize:includingDead:)`` returns, fetched when subscribed
    /// to and cancelled with the subscription.
    public func storiesPublisher(
        _ list: StoryList,
        page: Int = 1,
        pageSize: Int = 30,
        includingDead: Bool = false
    ) -> AnyPublisher<StoryPage, APIError> {
        AsyncOperationPublisher { () async throws(APIError) in
            try await stories(list, page: page, pageSize: pageSize, includingDead: includingDead)
        }
        .eraseToAnyPublisher()
    }

    /// The replies under `item`, breadth-first: every reply to it, then every reply to those,
    /// down to `maximumDepth` levels, published as each arrives, with at most
    /// ``maximumConcurrentRequests`` requests at once.
    ///
    /// Deleted and dead comments are published too, flagged, so that a thread keeps its shape.
    /// A comment that is `null` or fails is skipped; the walk fails only when replies were
    /// listed and not one of them could be fetched.
    public func comments(of item: HNItem, maximumDepth: Int = 10) -> AnyPublisher<HNComment, APIError> {
        precondition(maximumDepth > 0, "a walk needs at least one level")
        let client = self
        return AsyncEventsPublisher { send throws(APIError) in
            try await client.walkComments(of: item, maximumDepth: maximumDepth, send: send)
        }
        .eraseToAnyPublisher()
    }

    /// Every reply under `item`, in thread order: each comment followed by its replies.
    public func commentTree(of item: HNItem, maximumDepth: Int = 10) async throws(APIError) -> [HNComment] {
        var found: [HNComment] = []
        try await walkComments(of: item, maximumDepth: maximumDepth) { found.append($0) }
        return HNComment.threaded(found, under: item)
    }

    /// Every reply under `item` that loads, in thread order, with what did not load counted:
    /// unlike ``commentTree(of:maximumDepth:)`` it fails only when cancelled, so that a story
    /// whose replies cannot be read is still shown.
    public func thread(of item: HNItem, maximumDepth: Int = 10) async throws(APIError) -> HNThread {
        var found: [HNComment] = []
        let outcome = await walk(of: item, maximumDepth: maximumDepth) { found.append($0) }
        if Task.isCancelled { throw APIError(.cancelled, method: .get, url: "item/\(item.id).json") }
        return HNThread(
            comments: HNComment.threaded(found, under: item),
            missingCount: outcome.missing,
            failedCount: outcome.failed,
            firstFailure: outcome.firstFailure
        )
    }

    /// Walks the reply tree breadth-first, handing each comment to `send` as it arrives.
    func walkComments(
        of item: HNItem,
        maximumDepth: Int,
        send: (HNComment) -> Void
    ) async throws(APIError) {
        let outcome = await walk(of: item, maximumDepth: maximumDepth, send: send)
        if Task.isCancelled { throw APIError(.cancelled, method: .get, url: "item/\(item.id).json") }
        if outcome.fetched == 0, !item.kids.isEmpty, let firstFailure = outcome.firstFailure {
            throw firstFailure
        }
    }

    private func walk(
        of item: HNItem,
        maximumDepth: Int,
        send: (HNComment) -> Void
    ) async -> (fetched: Int, missing: Int, failed: Int, firstFailure: APIError?) {
        var level = item.kids.map { ($0, 0) }
        var fetched = 0
        var missing = 0
        var failed = 0
        var firstFailure: APIError?
        while !level.isEmpty, !Task.isCancelled {
            var next: [(Int, Int)] = []
            var children: [Int: [Int]] = [:]
            await forEachItem(level.map { ($0.1, $0.0) }) { depth, result in
                switch result {
                case .success(let comment?):
                    fetched += 1
                    send(HNComment(item: comment, depth: depth))
                    if depth + 1 < maximumDepth { children[comment.id] = comment.kids }
                case .success(nil):
                    missing += 1
                case .failure(let error):
                    failed += 1
                    firstFailure = firstFailure ?? error
                }
            }
            // The next level keeps the order of the replies within each thread.
            for (id, depth) in level {
                next += (children[id] ?? []).map { ($0, depth + 1) }
            }
            level = next
        }
        return (fetched, missing, failed, firstFailure)
    }

    /// Fetches the items of `work` with at most ``maximumConcurrentRequests`` requests at once,
    /// handing each one's tag and outcome (nil for a `null` item) to `receive` as it arrives, on
    /// the calling task.
    private func forEachItem<Tag: Sendable>(
        _ work: [(Tag, Int)],
        receive: (Tag, Result<HNItem?, APIError>) -> Void
    ) async {
        await withTaskGroup(of: (Tag, Result<HNItem?, APIError>).self) { group in
            var pending = work[...]
            func startNext() {
                guard let (tag, id) = pending.popFirst() else { return }
                group.addTask {
                    do throws(APIError) {
                        return (tag, .success(try await item(id)))
                    } catch {
                        return (tag, .failure(error))
                    }
                }
            }
            for _ in 0..<maximumConcurrentRequests { startNext() }
            for await (tag, result) in group {
                receive(tag, result)
                startNext()
            }
        }
    }
}

extension HNComment {
    /// `comments` in thread order under `root`: each comment followed by its replies, in the
    /// order their parents list them; comments whose parent is not among them are left out.
    public static func threaded(_ comments: [HNComment], under root: HNItem) -> [HNComment] {
        let byID = Dictionary(comments.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var ordered: [HNComment] = []
        ordered.reserveCapacity(comments.count)
        var stack = root.kids.reversed().compactMap { byID[$0] }
        while let comment = stack.popLast() {
            ordered.append(comment)
            stack += comment.item.kids.reversed().compactMap { byID[$0] }
        }
        return ordered
    }
}
