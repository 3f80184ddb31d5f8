public import TributaryHTTP

/// One page of a story list: the items in the list's order, with what could not be shown
/// counted rather than failing the page.
public struct StoryPage: Sendable, Hashable {
    /// The page, from 1.
    public var page: Int
    /// The items on this page, in the list's order: stories, jobs and polls.
    public var items: [HNItem]
    /// How many ids on this page the API answered `null` for: items that are missing.
    public var missingCount: Int
    /// How many ids on this page could not be fetched or did not decode.
    public var failedCount: Int
    /// How many dead or deleted items were left out, as the site leaves them out by default.
    public var hiddenCount: Int
    /// How many ids the whole list has.
    public var totalCount: Int
    /// How many ids a page holds.
    public var pageSize: Int
    /// Why the first item that failed did, when one did.
    public var firstFailure: APIError?

    /// Creates a page.
    public init(
        page: Int,
        items: [HNItem],
        missingCount: Int = 0,
        failedCount: Int = 0,
        hiddenCount: Int = 0,
        totalCount: Int,
        pageSize: Int,
        firstFailure: APIError? = nil
    ) {
        self.page = page
        self.items = items
        self.missingCount = missingCount
        self.failedCount = failedCount
        self.hiddenCount = hiddenCount
        self.totalCount = totalCount
        self.pageSize = pageSize
        self.firstFailure = firstFailure
    }

    /// How many ids on this page gave no item: missing, or failed.
    public var skippedCount: Int { missingCount + failedCount }

    /// Whether the list goes on past this page.
    public var hasMore: Bool { page * pageSize < totalCount }

    /// Two pages are equal when they show and count the same items; the first failure's
    /// details, which carry no identity of their own, are not compared.
    public static func == (lhs: StoryPage, rhs: StoryPage) -> Bool {
        (lhs.page, lhs.items, lhs.missingCount, lhs.failedCount, lhs.hiddenCount)
            == (rhs.page, rhs.items, rhs.missingCount, rhs.failedCount, rhs.hiddenCount)
            && (lhs.totalCount, lhs.pageSize) == (rhs.totalCount, rhs.pageSize)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(page)
        hasher.combine(items)
        hasher.combine(totalCount)
    }
}

/// What a walk through a story's replies found: the comments that loaded, in thread order, and
/// what did not.
public struct HNThread: Sendable {
    /// The comments that loaded, each followed by its replies.
    public var comments: [HNComment]
    /// How many replies the API answered `null` for.
    public var missingCount: Int
    /// How many replies could not be fetched or did not decode; their own replies are not
    /// reached either.
    public var failedCount: Int
    /// Why the first reply that failed did, when one did.
    public var firstFailure: APIError?

    /// Creates a thread.
    public init(
        comments: [HNComment],
        missingCount: Int = 0,
        failedCount: Int = 0,
        firstFailure: APIError? = nil
    ) {
        self.comments = comments
        self.missingCount = missingCount
        self.failedCount = failedCount
        self.firstFailure = firstFailure
    }
}

/// A poll and its options, in the poll's order.
public struct HNPoll: Sendable, Hashable {
    /// The poll.
    public var poll: HNItem
    /// The options that loaded, in the poll's order; each one's ``HNItem/score`` is its votes.
    public var options: [HNItem]
    /// How many options could not be loaded.
    public var unavailableCount: Int

    /// Creates a poll.
    public init(poll: HNItem, options: [HNItem], unavailableCount: Int = 0) {
        self.poll = poll
        self.options = options
        self.unavailableCount = unavailableCount
    }

    /// The votes of every option that loaded.
    public var totalVotes: Int { options.reduce(0) { $0 + max(0, $1.score ?? 0) } }
}

/// A comment found in a story's reply tree, with how deep it sits.
public struct HNComment: Sendable, Hashable, Identifiable {
    /// The comment.
    public var item: HNItem
    /// 0 for a direct reply to the story, 1 for a reply to that, and so on.
    public var depth: Int

    /// Creates a comment at a depth.
    ///
    /// - Parameters:
    ///   - item: The comment.
    ///   - depth: 0 for a direct reply to the story, 1 for a reply to that, and so on.
    public init(item: HNItem, depth: Int) {
        self.item = item
        self.depth = depth
    }

    public var id: Int { item.id }
}
