public import CombineSchedulers
public import Foundation
public import Observation
public import Tributary
import TributaryHTTP

/// The state of a story's comments screen: the reply tree flattened in thread order, each
/// comment with its depth, and threads that can be collapsed.
///
/// Comments arrive breadth-first from ``HackerNewsClient/comments(of:maximumDepth:)``; they
/// are gathered in batches (at most every `batchInterval`, or every 50 comments) so that a
/// screen redraws a few times rather than once per comment, and kept in thread order: each
/// comment followed by its replies.
///
/// ```swift
/// let model = CommentsViewModel(story: story, client: hn)
/// model.toggle(model.visibleComments[0].id)   // collapses the first thread
/// ```
@MainActor
@Observable
public final class CommentsViewModel {
    /// The story whose replies are shown.
    public let story: HNItem
    /// Every comment fetched so far, in thread order. Output.
    public private(set) var comments: [HNComment] = []
    /// The ids of the comments whose replies are hidden. Input through ``toggle(_:)``.
    public private(set) var collapsed: Set<Int> = []
    /// Whether the walk is still fetching. Output.
    public private(set) var isLoading = true
    /// A message for an alert after a failure. Output.
    public var errorMessage: String?

    /// The comments to show: every comment but the replies under a collapsed one.
    public var visibleComments: [HNComment] {
        var shown: [HNComment] = []
        var hiddenBelow: Int?
        for comment in comments {
            if let depth = hiddenBelow {
                if comment.depth > depth { continue }
                hiddenBelow = nil
            }
            shown.append(comment)
            if collapsed.contains(comment.id) { hiddenBelow = comment.depth }
        }
        return shown
    }

    /// How many replies are under `id`, at any depth, among those fetched.
    public func replyCount(under id: Int) -> Int {
        guard let index = comments.firstIndex(where: { $0.id == id }) else { return 0 }
        let depth = comments[index].depth
        return comments[(index + 1)...].prefix { $0.depth > depth }.count
    }

    @ObservationIgnored private var found: [HNComment] = []
    @ObservationIgnored private var subscriptions: Set<AnyCancellable> = []

    /// Creates the model and starts fetching the replies.
    ///
    /// - Parameters:
    ///   - story: The story or comment whose replies to show.
    ///   - client: Where the comments come from.
    ///   - scheduler: Where outputs change; the main queue by default.
    ///   - maximumDepth: How many levels of replies to fetch.
    ///   - batchInterval: The longest a fetched comment waits before it is shown.
    public init(
        story: HNItem,
        client: HackerNewsClient,
        scheduler: AnySchedulerOf<DispatchQueue> = .main,
        maximumDepth: Int = 10,
        batchInterval: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(100)
    ) {
        self.story = story
        isLoading = !story.kids.isEmpty
        client.comments(of: story, maximumDepth: maximumDepth)
            .collect(.byTimeOrCount(scheduler, batchInterval, 50))
            .receive(on: scheduler)
            .sink(
                receiveCompletion: { [weak self] completion in
                    self?.isLoading = false
                    if case .failure(let error) = completion, !(error.isCancellation) {
                        self?.errorMessage = StoriesViewModel.message(for: error)
                    }
                },
                receiveValue: { [weak self] batch in self?.add(batch) }
            )
            .store(in: &subscriptions)
    }

    /// Collapses the thread under `id`, or expands it again.
    public func toggle(_ id: Int) {
        if collapsed.contains(id) {
            collapsed.remove(id)
        } else {
            collapsed.insert(id)
        }
    }

    private func add(_ batch: [HNComment]) {
        found += batch
        comments = HNComment.threaded(found, under: story)
    }
}

extension APIError {
    /// Whether the request was cancelled, which a screen shows nothing for.
    var isCancellation: Bool {
        if case .cancelled = kind { return true }
        return false
    }
}
