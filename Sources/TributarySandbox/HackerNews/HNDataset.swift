public import Foundation

/// The Hacker News a sandbox serves: story lists, stories with reply trees of realistic depth,
/// jobs, polls and users, generated from a seed and dated up to the day it is made for.
///
/// The same seed and day always give the same items. Like the real service, some list entries
/// point to items that are `null`; some comments, and some of the newest stories, are deleted
/// or dead (a dead story may have lost its title); polls list their options in `parts`, each
/// option naming its poll; some job posts are text with preformatted lists and no link, as
/// `"url": ""`; and comments quote links shortened to a label, with `&#x2F;` for each slash.
public struct HNDataset: Sendable {
    /// An item as the API sends it, ready to encode.
    struct Item: Sendable, Encodable {
        var id: Int
        var type: String
        var by: String?
        var time: Int
        var text: String?
        var url: String?
        var score: Int?
        var title: String?
        var descendants: Int?
        var kids: [Int] = []
        var parent: Int?
        var poll: Int?
        var parts: [Int] = []
        var deleted = false
        var dead = false

        enum CodingKeys: String, CodingKey {
            case id, type, by, time, text, url, score, title, descendants, kids, parent, poll, parts, deleted
            case dead
        }

        /// Only the fields an item has: the API leaves the others out, and a deleted item
        /// keeps no more than its id, type, time and parent.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(type, forKey: .type)
            try container.encode(time, forKey: .time)
            try container.encodeIfPresent(parent, forKey: .parent)
            try container.encodeIfPresent(poll, forKey: .poll)
            if deleted {
                try container.encode(true, forKey: .deleted)
                return
            }
            try container.encodeIfPresent(by, forKey: .by)
            try container.encodeIfPresent(text, forKey: .text)
            try container.encodeIfPresent(url, forKey: .url)
            try container.encodeIfPresent(score, forKey: .score)
            try container.encodeIfPresent(title, forKey: .title)
            try container.encodeIfPresent(descendants, forKey: .descendants)
            if !kids.isEmpty { try container.encode(kids, forKey: .kids) }
            if !parts.isEmpty { try container.encode(parts, forKey: .parts) }
            if dead { try container.encode(true, forKey: .dead) }
        }
    }

    /// The body of `updates.json`.
    struct HNUpdatesBody: Encodable {
        var items: [Int]
        var profiles: [String]
    }

    /// A user as the API sends it.
    struct User: Sendable, Encodable {
        var id: String
        var created: Int
        var karma: Int
        var about: String?
        var submitted: [Int]
        var delay: Int?
    }

    /// The smallest item id; items count up from it in the order they were made.
    public static let firstID = 41_000_000

    /// The time the newest item can have: the start (UTC) of the day the dataset was made for.
    public let referenceDate: Date
    /// Every item, by id. Ids in the story lists that are missing here answer `null`.
    let items: [Int: Item]
    let users: [String: User]
    /// The story lists, by the name of their endpoint (`topstories`, …).
    let lists: [String: [Int]]
    /// The largest id handed out, including those left `null`.
    public let maximumID: Int

    /// How many items there are, for a summary.
    public var itemCount: Int { items.count }

    /// Generates the dataset for `seed`, dated up to the start of the day `day` falls on.
    public init(seed: UInt64 = 1, day: Date = Date(), storyCount: Int = 600) {
        var random = SeededGenerator(seed: seed ^ 0x4841_434B_4552)
        let reference = Int(Dataset.startOfDay(containing: day).timeIntervalSince1970)
        referenceDate = Date(timeIntervalSince1970: TimeInterval(reference))
        let names = (0..<400).map { _ in Self.userName(&random) }
        var items: [Int: Item] = [:]
        var nextID = Self.firstID
        var stories: [(id: Int, kind: String, time: Int, score: Int)] = []
        var missing: [Int] = []
        func makeID() -> Int {
            defer { nextID += 1 }
            return nextID
        }
        for number in 0..<storyCount {
            let time = reference - (storyCount - number) * 240 - Int.random(in: 0..<240, using: &random)
            let roll = Double.random(in: 0..<1, using: &random)
            let kind = roll < 0.05 ? "job" : roll < 0.07 ? "poll" : "story"
            var item = Item(id: makeID(), type: kind, by: random.pick(names), time: time)
            let subject = random.pick(Self.subjects)
            switch kind {
            case "job":
                let company = random.pick(Self.companies)
                item.title =
                    "\(company) (YC \(random.pick(["W", "S"]))\(Int.random(in: 10...25, using: &random))) is hiring \(random.pick(Self.roles))"
                if number % 3 == 0 {
                    // A job posted as text: the real API sends an empty link with it.
                    item.url = ""
                    item.text = Self.jobText(company: company)
                } else {
                    item.url = "https://jobs.example/\(item.id)"
                }
                item.score = 1
            case "poll":
                item.title = "Poll: Which \(subject) do you use?"
                item.text = "Curious what people run in production."
                item.score = Int.random(in: 5...300, using: &random)
            default:
                let style = Int.random(in: 0..<10, using: &random)
                if style == 0 {
                    item.title = "Ask HN: How do you \(random.pick(Self.verbs)) \(subject)?"
                    item.text =
                        "I have been trying to \(random.pick(Self.verbs)) \(subject) &amp; keep it simple. <p>What works for you?"
                } else if style == 1 {
                    item.title =
                        "Show HN: A \(random.pick(Self.adjectives)) \(subject) in \(random.pick(Self.languages))"
                    item.url =
                        "https://github.example/\(random.pick(names))/\(subject.replacingOccurrences(of: " ", with: "-"))"
                } else {
                    item.title =
                        "\(random.pick(Self.adjectives).capitalized) \(subject) \(random.pick(Self.endings))"
                        .trimmingCharacters(in: .whitespaces)
                    item.url = "https://\(random.pick(Self.sites))/\(item.id)"
                }
                item.score = Int(pow(Double.random(in: 0..<1, using: &random), 3) * 1_500) + 1
            }
            items[item.id] = item
            if kind == "poll" {
                var options: [Int] = []
                for option in 1...Int.random(in: 2...4, using: &random) {
                    let id = makeID()
                    options.append(id)
                    items[id] = Item(
                        id: id,
                        type: "pollopt",
                        by: item.by,
                        time: time,
                        text: Self.pollOptions[option - 1],
                        score: Int.random(in: 0...200, using: &random),
                        poll: item.id
                    )
                }
                items[item.id]?.parts = options
            }
            if kind != "job" {
                let size = Int(pow(Double.random(in: 0..<1, using: &random), 2) * 90)
                let count = Self.growThread(
                    under: item.id,
                    size: size,
                    depth: 0,
                    time: time,
                    items: &items,
                    names: names,
                    makeID: makeID,
                    random: &random
                )
                items[item.id]?.descendants = count
            }
            // Now and then an id in a list has no item: the API answers null for it.
            if random.chance(0.01) { missing.append(makeID()) }
            stories.append((item.id, kind, time, items[item.id]?.score ?? 0))
        }
        // Now and then a new story is killed or deleted: the newest list still has it, flagged,
        // while the ranked lists leave it out, as the site's do.
        var gone: Set<Int> = []
        for (number, story) in stories.enumerated() where story.kind == "story" {
            if number % 131 == 5 {
                items[story.id]?.deleted = true
            } else if number % 97 == 11 {
                items[story.id]?.dead = true
                items[story.id]?.title = nil
                items[story.id]?.url = nil
                items[story.id]?.text = nil
            } else if number % 53 == 7 {
                items[story.id]?.dead = true
            } else {
                continue
            }
            gone.insert(story.id)
        }
        let ranked = { (list: [(id: Int, kind: String, time: Int, score: Int)]) in
            list.filter { !gone.contains($0.id) }
        }
        self.items = items
        maximumID = nextID - 1
        let hours = { (time: Int) in Double(reference - time) / 3_600 }
        let byRank = stories.sorted {
            Double($0.score) / pow(hours($0.time) + 2, 1.8) > Double($1.score) / pow(hours($1.time) + 2, 1.8)
        }
        func list(_ chosen: [(id: Int, kind: String, time: Int, score: Int)], limit: Int) -> [Int] {
            var ids = chosen.prefix(limit).map(\.id)
            for (index, id) in missing.enumerated() where !ids.isEmpty {
                ids.insert(id, at: (index * 37) % ids.count)
            }
            return Array(ids.prefix(limit))
        }
        let isAsk = { (id: Int) in items[id]?.title?.hasPrefix("Ask HN") == true }
        let isShow = { (id: Int) in items[id]?.title?.hasPrefix("Show HN") == true }
        lists = [
            "topstories": list(ranked(byRank).filter { $0.kind != "job" }, limit: 500),
            "newstories": list(stories.filter { $0.kind != "job" }.sorted { $0.time > $1.time }, limit: 500),
            "beststories": list(
                ranked(stories).filter { $0.kind != "job" }.sorted { $0.score > $1.score },
                limit: 500
            ),
            "askstories": list(ranked(byRank).filter { isAsk($0.id) }, limit: 200),
            "showstories": list(ranked(byRank).filter { isShow($0.id) }, limit: 200),
            "jobstories": list(stories.filter { $0.kind == "job" }.sorted { $0.time > $1.time }, limit: 200),
        ]
        var submitted: [String: [Int]] = [:]
        for item in items.values.sorted(by: { $0.id > $1.id }) {
            if let by = item.by { submitted[by, default: []].append(item.id) }
        }
        users = Dictionary(
            uniqueKeysWithValues: Set(names).map { name in
                let karma = (submitted[name]?.count ?? 0) * 17 + name.count * 3
                return (
                    name,
                    User(
                        id: name,
                        created: reference - 86_400 * (200 + name.count * 97),
                        karma: karma,
                        about: name.count % 3 == 0
                            ? "Writes about \(name.prefix(4)) &amp; other things." : nil,
                        submitted: submitted[name] ?? [],
                        delay: name.count % 4 == 0 ? 0 : nil
                    )
                )
            }
        )
    }

    /// Adds up to `size` comments under `parent`, threads nesting as they do on the site:
    /// most replies short, a few long chains. Returns how many it added.
    private static func growThread(
        under parent: Int,
        size: Int,
        depth: Int,
        time: Int,
        items: inout [Int: Item],
        names: [String],
        makeID: () -> Int,
        random: inout SeededGenerator
    ) -> Int {
        guard size > 0, depth < 12 else { return 0 }
        var added = 0
        var kids: [Int] = []
        while added < size {
            let id = makeID()
            let at = time + Int.random(in: 60...3_600, using: &random)
            var comment = Item(id: id, type: "comment", by: random.pick(names), time: at, parent: parent)
            if random.chance(0.03) {
                comment.deleted = true
                comment.by = nil
            } else {
                comment.text =
                    "\(random.pick(Self.openers)) \(random.pick(Self.subjects)) \(random.pick(Self.remarks))"
                if random.chance(0.02) { comment.dead = true }
            }
            items[id] = comment
            kids.append(id)
            added += 1
            let share = Int(Double(size - added) * Double.random(in: 0..<0.7, using: &random))
            added += growThread(
                under: id,
                size: share,
                depth: depth + 1,
                time: at,
                items: &items,
                names: names,
                makeID: makeID,
                random: &random
            )
        }
        items[parent]?.kids = kids
        return added
    }

    /// The answer to `path`, below the API's `/v0/`, as the official API gives it: the JSON of
    /// `topstories.json` and the other lists, `item/{id}.json`, `user/{id}.json`,
    /// `maxitem.json` and `updates.json`, and `null` for any other key. Nil for a path that does
    /// not end in `.json`, which the API does not serve.
    public func answer(_ path: String) -> Data? {
        guard path.hasSuffix(".json") else { return nil }
        let key = path.dropLast(5).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let value: (any Encodable)?
        switch (key.first ?? "", key.count) {
        case ("item", 2): value = Int(key[1]).flatMap { items[$0] }
        case ("user", 2): value = users[key[1]]
        case ("maxitem", 1): value = maximumID
        case ("updates", 1):
            value = HNUpdatesBody(
                items: Array(items.keys.sorted(by: >).prefix(20)),
                profiles: Array(users.keys.sorted().prefix(5))
            )
        case (let name, 1): value = lists[name]
        default: value = nil
        }
        guard let value else { return Data("null".utf8) }
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }

    private static func userName(_ random: inout SeededGenerator) -> String {
        let stem = random.pick([
            "ada", "byte", "cog", "delta", "echo", "flux", "grep", "hex", "io", "jit", "kern", "lisp",
        ])
        return stem + random.pick(["", "_", "x"]) + String(Int.random(in: 1...999, using: &random))
    }

    static let subjects = [
        "database", "compiler", "text editor", "static site generator", "key-value store", "type checker",
        "garbage collector", "web framework", "package manager", "terminal emulator", "CRDT library",
        "query planner", "image codec", "build system", "scheduler",
    ]
    static let adjectives = ["tiny", "fast", "boring", "distributed", "local-first", "typed", "embedded"]
    static let verbs = ["debug", "test", "deploy", "profile", "document", "migrate"]
    static let endings = [
        "(2019)", "considered harmful", "in 500 lines", "from scratch", "explained", "at scale", "",
    ]
    static let pollOptions = [
        "The one our framework ships with", "One I wrote myself", "A hosted service",
        "None &amp; proud of it",
    ]
    static let languages = ["Swift", "Rust", "Go", "Zig", "OCaml", "C"]
    static let sites = ["blog.example", "lwn.example", "arxiv.example", "news.example", "acm.example"]
    static let companies = ["Quillbase", "Tidewater", "Parcel Labs", "Lumen AI", "Ferrous"]
    static let roles = ["a founding engineer", "SREs", "a compiler engineer", "designers"]
    static let openers = ["I think the", "In my experience the", "Honestly, the", "We tried a", "The real"]
    static let remarks = [
        "is fine until it is not.", "was the easy part. <i>Operating</i> it was not.",
        "matters less than people think.", "needs better docs &amp; tests.",
        "reminds me of <a href=\"https:&#x2F;&#x2F;github.example&#x2F;tidewater&#x2F;harbor&#x2F;blob&#x2F;main&#x2F;src&#x2F;index.tsx\" rel=\"nofollow\">https:&#x2F;&#x2F;github.example&#x2F;tidewater&#x2F;harbor&#x2F;blob&#x2F;main&#x2F;src&#x2F;index.t...</a>.",
        "is underrated. What we run:<p><pre><code>  - Frontend: Swift\n  - Backend: Postgres\n    and a queue\n</code></pre>",
    ]

    /// A job post's text as the site writes one: paragraphs, then lists kept preformatted.
    static func jobText(company: String) -> String {
        "\(company) is hiring.<p>Responsibilities<p><pre><code>    * Contribute to design and implementation\n"
            + "    * Ship from the idea phase to production\n</code></pre>\nQualifications<p>"
            + "<pre><code>    * You know Swift well.\n    * You have run services in production.\n</code></pre>\n"
            + "Apply at <a href=\"https:&#x2F;&#x2F;jobs.example&#x2F;apply\" rel=\"nofollow\">https:&#x2F;&#x2F;jobs.example&#x2F;apply</a>."
    }
}
