import HackerNews

extension HackerNewsFormat {
    /// A page of a story list as `hn … --json` prints it: the items in the API's own fields,
    /// and what was left out of the page, and why.
    struct StoriesJSON: Encodable {
        var page: Int
        var pageSize: Int
        var totalCount: Int
        var stories: [HNItem]
        /// Ids in the list that named no item.
        var missingCount: Int
        /// Items that could not be fetched.
        var failedCount: Int
        /// Dead and deleted stories left out.
        var hiddenCount: Int

        init(_ page: StoryPage) {
            self.page = page.page
            pageSize = page.pageSize
            totalCount = page.totalCount
            stories = page.items
            missingCount = page.missingCount
            failedCount = page.failedCount
            hiddenCount = page.hiddenCount
        }
    }

    /// An item as `hn item --json` prints it, with a poll's options and, with `--comments`,
    /// the replies in thread order, each with its depth below the item.
    struct ItemJSON: Encodable {
        struct Reply: Encodable {
            var depth: Int
            var item: HNItem
        }

        var item: HNItem
        var pollOptions: [HNItem]?
        var replies: [Reply]?

        init(_ view: ItemView) {
            item = view.item
            pollOptions = view.poll?.options
            replies = view.thread?.comments.map { Reply(depth: $0.depth, item: $0.item) }
        }
    }

    /// A user as `hn user --json` prints it, with their latest submissions.
    struct UserJSON: Encodable {
        var user: HNUser
        var submissions: [HNItem]
    }
}
