import Foundation
public import TributaryHTTP

/// The lists of stories Hacker News ranks: each up to 500 ids (200 for Ask, Show and jobs).
public enum StoryList: String, Sendable, Hashable, CaseIterable {
    /// The front page's stories, as ranked there.
    case top
    /// The newest stories.
    case new
    /// The best stories of late, by votes.
    case best
    /// Stories on Ask HN.
    case ask
    /// Stories on Show HN.
    case show
    /// Job postings.
    case job

    /// The endpoint's path, such as `topstories.json`.
    public var path: String { "\(rawValue)stories.json" }
}

/// The requests of the official Hacker News API (`https://hacker-news.firebaseio.com/v0`).
///
/// ```swift
/// let ids = try await client.api.send(HackerNewsEndpoint.stories(.top))
/// ```
public enum HackerNewsEndpoint {
    /// The ids of a story list, in ranked order.
    public static func stories(_ list: StoryList) -> Request<[Int]> {
        Request(.path(list.path))
    }

    /// An item; nil when the API answers `null`, as it does for an id that has no item.
    public static func item(_ id: Int) -> Request<HNItem?> {
        Request(.path("item/\(id).json"))
    }

    /// A user; nil for a name that has no account.
    public static func user(_ id: String) -> Request<HNUser?> {
        let name = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
        return Request(.path("user/\(name).json"))
    }

    /// The largest item id so far.
    public static var maxItem: Request<Int> { Request(.path("maxitem.json")) }

    /// The items and profiles that changed lately.
    public static var updates: Request<HNUpdates> { Request(.path("updates.json")) }
}
