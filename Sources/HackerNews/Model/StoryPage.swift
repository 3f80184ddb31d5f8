/// One page of a story list: the items in the list's order, with what could not be shown
/// counted rather than failing the page.
public struct StoryPage: Sendable, Hashable {
    /// The page, from 1.
    public var page: Int
    /// The items on this page, in the list's order: stories, jobs and polls.
    public var items: [HNItem]
    /// How many ids on this page gave no item: `null`, a failed request, or an item that did
    /// not decode.
    public var skippedCount: Int
    /// How many ids the whole list has.
    public var totalCount: Int
    /// How many ids a page holds.
    public var pageSize: Int

    public init(page: Int, items: [HNItem], skippedCount: Int, totalCount: Int, pageSize: Int) {
        self.page = page
        self.items = items
        self.skippedCount = skippedCount
        self.totalCount = totalCount
        self.pageSize = pageSize
    }

    /// Whether the list goes on past this page.
    public var hasMore: Bool { page * pageSize < totalCount }
}

/// A comment found in a story's reply tree, with how deep it sits.
public struct HNComment: Sendable, Hashable, Identifiable {
    /// The comment.
    public var item: HNItem
    /// 0 for a direct reply to the story, 1 for a reply to that, and so on.
    public var depth: Int

    public init(item: HNItem, depth: Int) {
        self.item = item
        self.depth = depth
    }

    public var id: Int { item.id }
}
