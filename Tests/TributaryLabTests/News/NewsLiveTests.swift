import CombineSchedulers
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import Tributary
import TributaryHTTP
import TributaryImages
import TributaryLab
import TributaryLabWire
import TributaryTestSupport

/// The news reader's socket: inputs in, the view models' states out; and its thumbnails.
@Suite(.timeLimit(.minutes(5)))
struct NewsLiveTests {
    /// Keystrokes sent as they are typed reach the view model, which searches once typing rests:
    /// the page is shown the results of the last text only. In virtual time, so that the pause
    /// is the one the test makes, however busy the machine.
    @Test func searchesOnceTypingRestsAndShowsOnlyTheLatest() async throws {
        let scheduler = DispatchQueue.test
        try await withNewsLab(scheduler: scheduler.eraseToAnyScheduler()) { _, live, _ in
            let page = LiveViewer(live)
            // As the page does: the feed first, then each keystroke as it is typed.
            page.send(#"{"type":"input","feed":{"kind":"search"},"searchText":""}"#)
            for text in ["c", "co", "com", "comp", "compi", "compil", "compile", "compiler"] {
                page.send(#"{"type":"input","feed":{"kind":"search"},"searchText":"\#(text)"}"#)
                // A keystroke 100 ms after the last, well within the 300 ms pause.
                page.send(#"{"type":"marker"}"#)
                let handled = page.messages(of: "invalid").count
                try await waitUntil { page.messages(of: "invalid").count > handled }
                await MainActor.run { scheduler.advance(by: .milliseconds(100)) }
            }
            #expect(page.messages(of: "articles").allSatisfy { $0["state"] as? String != "loading" })
            await MainActor.run { scheduler.advance(by: .milliseconds(300)) }
            try await waitUntil {
                await MainActor.run { scheduler.advance() }
                return !Self.loaded(page).isEmpty
            }
            let states = page.messages(of: "articles")
            let loaded = try #require(states.last { $0["state"] as? String == "loaded" })
            #expect(loaded["searchText"] as? String == "compiler")
            #expect(states.filter { $0["state"] as? String == "loading" }.count == 1)
            let articles = try #require(loaded["articles"] as? [[String: Any]])
            #expect(!articles.isEmpty)
            #expect(articles.allSatisfy { ($0["image"] as? String)?.hasPrefix("/img?url=") ?? true })
            #expect(
                articles.allSatisfy {
                    "\($0["title"] ?? "") \($0["description"] ?? "")".localizedCaseInsensitiveContains(
                        "compiler"
                    )
                }
            )
            page.close()
        }
    }

    /// The pickers offer what the news server has: its sources' countries, and its feeds.
    @Test func offersTheCountriesOfTheSourcesAndTheSandboxsFeeds() async throws {
        try await withNewsLab { _, live, sandbox in
            let page = LiveViewer(live)
            page.send(#"{"type":"input","feed":{"kind":"top","country":"us"},"searchText":""}"#)
            try await waitUntil { !page.messages(of: "choices").isEmpty }
            let choices = try #require(page.messages(of: "choices").first)
            let countries = try #require(choices["countries"] as? [String])
            #expect(countries.contains("es") && countries.contains("nl") && countries.contains("us"))
            #expect(!countries.contains("jp"))
            let feeds = try #require(choices["feeds"] as? [String])
            let root = sandbox.deletingLastPathComponent().absoluteString
            #expect(feeds.contains(root + "feeds/technology.rss"))
            #expect(feeds.allSatisfy { $0.hasPrefix(root + "feeds/") })
            page.close()
        }
    }

    /// A category lists its headlines; the next page is appended; a blank search changes nothing.
    @Test func listsACategoryAndLoadsMore() async throws {
        try await withNewsLab { _, live, _ in
            let page = LiveViewer(live)
            page.send(
                #"{"type":"input","feed":{"kind":"category","category":"technology","country":"us"},"searchText":""}"#
            )
            try await waitUntil { Self.loaded(page).count == 1 }
            let first = try #require(Self.loaded(page).last?["articles"] as? [[String: Any]])
            #expect(!first.isEmpty)
            #expect(Self.loaded(page).last?["canLoadMore"] as? Bool == true)
            page.send(#"{"type":"loadMore"}"#)
            try await waitUntil { (Self.loaded(page).last?["articles"] as? [Any])?.count ?? 0 > first.count }
            page.send(#"{"type":"nonsense"}"#)
            page.send("not json")
            try await waitUntil { page.messages(of: "invalid").count == 2 }
            page.close()
        }
    }

    /// Sources by country, and a source's own articles.
    @Test func listsSourcesAndASourcesArticles() async throws {
        try await withNewsLab { _, live, _ in
            let page = LiveViewer(live)
            page.send(#"{"type":"sources","country":"us","category":null,"searchText":""}"#)
            try await waitUntil {
                page.messages(of: "sources").contains { $0["state"] as? String == "loaded" }
            }
            let sources = try #require(
                page.messages(of: "sources").last { $0["state"] as? String == "loaded" }?["sources"]
                    as? [[String: Any]]
            )
            let source = try #require(sources.first)
            let id = try #require(source["id"] as? String)
            page.send(#"{"type":"input","feed":{"kind":"source","id":"\#(id)"},"searchText":""}"#)
            try await waitUntil { !Self.loaded(page).isEmpty }
            let articles = try #require(Self.loaded(page).last?["articles"] as? [[String: Any]])
            #expect(articles.allSatisfy { $0["source"] as? String == source["name"] as? String })
            page.close()
        }
    }

    /// An RSS feed by its address is read through the view model; a feed at a private address is
    /// refused as a failure the page can show, with the alert's message, and nothing is fetched.
    @Test func readsAFeedAndShowsAFailure() async throws {
        try await withNewsLab { _, live, sandbox in
            let page = LiveViewer(live)
            let feed = sandbox.deletingLastPathComponent().appending(path: "feeds/technology.rss")
                .absoluteString
            page.send(#"{"type":"input","feed":{"kind":"feed","url":"\#(feed)"},"searchText":""}"#)
            try await waitUntil { !Self.loaded(page).isEmpty }
            let articles = try #require(Self.loaded(page).last?["articles"] as? [[String: Any]])
            #expect(!articles.isEmpty)
            page.send(
                #"{"type":"input","feed":{"kind":"feed","url":"http://10.1.2.3/feed.rss"},"searchText":"","seq":7}"#
            )
            try await waitUntil {
                page.messages(of: "articles").contains { $0["state"] as? String == "failed" }
            }
            let failed = try #require(
                page.messages(of: "articles").last { $0["state"] as? String == "failed" }
            )
            let message = try #require(failed["error"] as? String)
            #expect(!message.isEmpty)
            // The failure is the new feed's own: nothing of the feed before stays under it, and
            // every state since the choice says which input it follows.
            #expect((failed["articles"] as? [Any])?.isEmpty == true)
            let since = page.messages(of: "articles").drop { ($0["seq"] as? Int) != 7 }
            #expect(!since.isEmpty)
            #expect(
                since.allSatisfy { ($0["articles"] as? [Any])?.isEmpty == true && $0["seq"] as? Int == 7 }
            )
            page.send(#"{"type":"input","feed":{"kind":"feed","url":"javascript:alert(1)"},"searchText":""}"#)
            try await waitUntil { !page.messages(of: "invalid").isEmpty }
            page.close()
        }
    }

    /// A feed's entries reach the page as the feed gave them: one without a date is sent
    /// without one (never the time of reading), one without a link is listed without a link;
    /// and a NewsAPI feed chosen afterwards replaces them.
    @Test func sendsAFeedsEntriesWithoutAnInventedDateOrADroppedEntry() async throws {
        try await withNewsLab { _, live, sandbox in
            let page = LiveViewer(live)
            let feed = sandbox.deletingLastPathComponent().appending(
                path: "feeds/quirks/undated-linkless.rss"
            )
            .absoluteString
            page.send(#"{"type":"input","feed":{"kind":"feed","url":"\#(feed)"},"searchText":"","seq":1}"#)
            try await waitUntil { !Self.loaded(page).isEmpty }
            let loaded = try #require(Self.loaded(page).last)
            let articles = try #require(loaded["articles"] as? [[String: Any]])
            #expect(
                articles.map { $0["title"] as? String } == ["Whole entry", "Undated entry", "Linkless entry"]
            )
            #expect(articles.map { $0["publishedAt"] != nil } == [true, false, true])
            #expect((articles[0]["publishedAt"] as? String)?.hasPrefix("2025-11-18T09:00:00") == true)
            #expect(
                articles.map { $0["url"] as? String } == [
                    "https://bare.example/1", "https://bare.example/2", nil,
                ]
            )
            #expect(articles[2]["description"] as? String == "A note with no page of its own.")
            #expect(articles.allSatisfy { $0["source"] as? String == "Bare entries" })
            #expect(loaded["totalResults"] as? Int == 3 && loaded["canLoadMore"] as? Bool == false)

            page.send(
                #"{"type":"input","feed":{"kind":"feed","url":"\#(feed)"},"searchText":"note","seq":2}"#
            )
            try await waitUntil { Self.loaded(page).last?["seq"] as? Int == 2 }
            let narrowed = try #require(Self.loaded(page).last?["articles"] as? [[String: Any]])
            #expect(narrowed.map { $0["title"] as? String } == ["Linkless entry"])

            page.send(#"{"type":"input","feed":{"kind":"top","country":"us"},"searchText":"","seq":3}"#)
            try await waitUntil { Self.loaded(page).last?["seq"] as? Int == 3 }
            let headlines = try #require(Self.loaded(page).last?["articles"] as? [[String: Any]])
            #expect(!headlines.isEmpty)
            #expect(headlines.allSatisfy { $0["url"] is String && $0["publishedAt"] is String })
            page.close()
        }
    }

    /// A thumbnail the lab put on a page is resized and cached; anything else is refused.
    @Test func servesThumbnailsOnlyOfWhatItHandedOut() async throws {
        try await withNewsLab { lab, live, _ in
            let page = LiveViewer(live)
            page.send(#"{"type":"input","feed":{"kind":"top","country":"us"},"searchText":""}"#)
            try await waitUntil { !Self.loaded(page).isEmpty }
            let articles = try #require(Self.loaded(page).last?["articles"] as? [[String: Any]])
            let path = try #require(articles.compactMap { $0["image"] as? String }.first)

            let image = try await lab.send(.get, path)
            #expect(image.status == 200 && image.headers[.contentType] == "image/jpeg")
            #expect(image.headers[.cacheControl] == "public, max-age=86400")
            let bitmap = try ImageDecoder().decode(image.body)
            #expect(bitmap.width == 320)
            let eTag = try #require(image.headers[.eTag])
            #expect(
                try await lab.send(.get, path, headers: [.ifNoneMatch: eTag]).status == 304
            )

            let original = try #require(
                URLComponents(string: path)?.queryItems?.first { $0.name == "url" }?.value
            )
            let other = original.replacingOccurrences(of: ".jpg", with: "-not-handed-out.jpg")
            let query = other.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let refused = try await lab.send(.get, "/img?url=\(query)&w=320")
            #expect(refused.status == 403 && refused.errorCode == "notHandedOut")
            let privateAddress = try await lab.send(
                .get,
                "/img?url=http%3A%2F%2F169.254.169.254%2Flatest&w=80"
            )
            #expect(privateAddress.status == 403)
            page.close()
        }
    }

    /// A picture that does not decode is a clear error, not a crash or a hang.
    @Test func reportsABrokenPicture() async throws {
        let router = Router()
        router.get("broken.jpg") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "image/jpeg"],
                body: .init(byteBuffer: .init(string: "\u{FF}\u{D8}not a jpeg"))
            )
        }
        try await withLoopbackServer(router) { images in
            let origin = try #require(HTTPOrigin(images))
            try await withNewsLab(imageHosts: ["127.0.0.1"], trusted: [origin]) { lab, _, _ in
                let url = images.appending(path: "broken.jpg").absoluteString
                let query = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let answer = try await lab.send(.get, "/img?url=\(query)&w=200")
                #expect(answer.status == 502 && answer.errorCode == "imageFailed")
            }
        }
    }

    static func loaded(_ page: LiveViewer) -> [[String: Any]] {
        page.messages(of: "articles").filter { $0["state"] as? String == "loaded" }
    }
}
