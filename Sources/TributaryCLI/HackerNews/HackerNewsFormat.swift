import Foundation
import HackerNews
import TributaryHTTP

/// How Hacker News is shown in a terminal.
enum HackerNewsFormat {
    /// An item with what was fetched around it: a poll's options, the replies.
    struct ItemView: Sendable {
        var item: HNItem
        var poll: HNPoll?
        var thread: HNThread?
    }

    /// A numbered list: title and site, then points, author, age and comments, then the link and
    /// the discussion; then what was left out, and why.
    static func stories(_ page: StoryPage, now: Date) -> String {
        let leftOut = leftOut(page)
        guard !page.items.isEmpty else {
            guard !leftOut.isEmpty else { return "No stories (\(page.totalCount) in the list)." }
            let count = page.skippedCount + page.hiddenCount
            let opening =
                count == 1
                ? "The only story on page \(page.page) cannot be shown: "
                : "None of the \(count) stories on page \(page.page) can be shown: "
            return opening + leftOut.joined(separator: "; ") + "."
        }
        let first = NewsFormat.firstNumber(page: page.page, pageSize: page.pageSize)
        var lines: [String] = []
        for (offset, item) in page.items.enumerated() {
            let label = "\(first.addingReportingOverflow(offset).partialValue)."
            let indent = String(repeating: " ", count: label.count + 1)
            lines.append("\(label) \(headline(item))" + (item.site.map { " (\($0))" } ?? ""))
            lines.append(indent + byline(item, now: now))
            if let url = item.url { lines.append(indent + url.absoluteString) }
            lines.append(indent + "discuss: " + item.discussionURL.absoluteString)
        }
        let summary = ["\(page.items.count) of \(counted(page.totalCount, "story", "stories"))"] + leftOut
        return lines.joined(separator: "\n") + "\n\n" + summary.joined(separator: "; ") + "."
    }

    /// What a page left out, one phrase for each reason.
    private static func leftOut(_ page: StoryPage) -> [String] {
        var parts: [String] = []
        if page.missingCount > 0 {
            parts.append(
                "\(page.missingCount) missing (the API has no item for \(page.missingCount == 1 ? "it" : "them"))"
            )
        }
        if page.failedCount > 0 {
            parts.append(
                "\(page.failedCount) could not be loaded"
                    + (page.firstFailure.map { " (\(reason($0)))" } ?? "")
            )
        }
        if page.hiddenCount > 0 {
            parts.append(
                "\(page.hiddenCount) dead or deleted left out (--show-dead shows \(page.hiddenCount == 1 ? "it" : "them"))"
            )
        }
        return parts
    }

    /// An item, its text, a poll's options, and its replies indented by depth.
    static func item(_ view: ItemView, now: Date) -> String {
        let item = view.item
        var lines = [headline(item), byline(item, now: now)]
        if let url = item.url { lines.append(url.absoluteString) }
        lines.append("discuss: " + item.discussionURL.absoluteString)
        if item.kind == .pollopt, let poll = item.poll { lines.append("An option of poll \(poll).") }
        if let text = item.plainText { lines += ["", text] }
        if let poll = view.poll { lines += [""] + options(poll) }
        if let thread = view.thread { lines += [""] + replies(thread, now: now) }
        return lines.joined(separator: "\n")
    }

    /// A poll's options, each with its votes, most-voted first in the poll's own order.
    private static func options(_ poll: HNPoll) -> [String] {
        var lines = ["Options:"]
        let width = poll.options.map { "\($0.score ?? 0)".count }.max() ?? 1
        for option in poll.options {
            let score = "\(option.score ?? 0)"
            let votes = String(repeating: " ", count: width - score.count) + score
            let text = option.isDeleted ? "[deleted]" : option.plainText ?? "(no text)"
            lines.append(
                "  \(votes) \(option.score == 1 ? "point " : "points")  \(text)"
                    + (option.isDead ? " [dead]" : "")
            )
        }
        var total = "\(counted(poll.options.count, "option")), \(counted(poll.totalVotes, "point")) in all"
        if poll.unavailableCount > 0 { total += "; \(poll.unavailableCount) could not be loaded" }
        lines.append("  (\(total))")
        return lines
    }

    /// The replies, threaded and indented, then what did not load.
    private static func replies(_ thread: HNThread, now: Date) -> [String] {
        let comments = thread.comments
        var lines = [comments.isEmpty ? "No comments." : "\(counted(comments.count, "comment")):"]
        for comment in comments {
            let indent = String(repeating: "  ", count: comment.depth + 1)
            if comment.item.isDeleted {
                lines.append("\(indent)[deleted]")
                continue
            }
            let flag = comment.item.isDead ? " [dead]" : ""
            let age = comment.item.time.map { " · " + NewsFormat.age(of: $0, now: now) } ?? ""
            lines.append("\(indent)\(comment.item.author ?? "?")\(age)\(flag)")
            for paragraph in (comment.item.plainText ?? "").split(separator: "\n") where !paragraph.isEmpty {
                lines.append("\(indent)\(paragraph)")
            }
        }
        if thread.failedCount > 0 {
            let count = thread.failedCount == 1 ? "1 reply" : "\(thread.failedCount) replies"
            lines.append(
                "\(count) could not be loaded" + (thread.firstFailure.map { ": \(reason($0))" } ?? "") + "."
            )
        }
        if thread.missingCount > 0 {
            let count = thread.missingCount == 1 ? "1 reply is" : "\(thread.missingCount) replies are"
            lines.append(
                "\(count) missing (the API has no item for \(thread.missingCount == 1 ? "it" : "them"))."
            )
        }
        return lines
    }

    /// A user's karma, age and self-description, then their latest submissions.
    static func user(_ user: HNUser, submissions: [HNItem], now: Date) -> String {
        let joined = user.created.formatted(.iso8601.year().month().day())
        var lines = [
            user.id,
            "\(user.karma) karma · joined \(joined) (\(NewsFormat.age(of: user.created, now: now)))",
            user.profileURL.absoluteString,
        ]
        if let about = user.plainAbout { lines += ["", about] }
        lines.append("")
        let count = user.submitted.count
        lines.append(count == 0 ? "Nothing submitted." : "\(count) submission\(count == 1 ? "" : "s").")
        if !submissions.isEmpty {
            lines.append("Latest:")
            for item in submissions {
                let age = item.time.map { " · " + NewsFormat.age(of: $0, now: now) } ?? ""
                let what: String
                switch item.kind {
                case .comment:
                    what = "comment" + (item.parent.map { " on \($0)" } ?? "")
                case .pollopt:
                    what =
                        "option" + (item.poll.map { " of poll \($0)" } ?? "")
                        + (item.plainText.map { ": \($0)" } ?? "")
                default:
                    what = headline(item)
                }
                lines.append("  \(item.id)  \(what)\(age)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The title, flagged when the item is dead or deleted; an item with no title says what it
    /// is.
    private static func headline(_ item: HNItem) -> String {
        let name = item.title ?? "\(item.kind.rawValue.capitalized) \(item.id)"
        if item.isDeleted { return "[deleted] \(name)" }
        if item.isDead { return "[dead] \(name)" }
        return name
    }

    private static func byline(_ item: HNItem, now: Date) -> String {
        var parts: [String] = []
        if let score = item.score, item.kind != .job {
            parts.append(counted(score, "point"))
        }
        if let author = item.author { parts.append("by \(author)") }
        if let time = item.time { parts.append(NewsFormat.age(of: time, now: now)) }
        if let descendants = item.descendants {
            parts.append(counted(descendants, "comment"))
        }
        return parts.isEmpty ? "(no details)" : parts.joined(separator: " · ")
    }

    /// Why a request failed, in a few words: the server's own message when it sent one.
    static func reason(_ error: APIError) -> String {
        if let code = error.statusCode {
            return "HTTP \(code)" + (error.serverError.map { ": \($0.message)" } ?? "")
        }
        switch error.kind {
        case .transport, .addressNotAllowed: return "Hacker News cannot be reached"
        case .timedOut: return "Hacker News took too long to answer"
        case .undecodable, .bodyTooLarge: return "Hacker News sent something this tool cannot read"
        default: return error.description
        }
    }
}
