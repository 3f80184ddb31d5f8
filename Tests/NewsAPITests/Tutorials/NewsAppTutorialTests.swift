import Foundation
import NewsAPI
import Observation
import Testing
import Tributary
import TributaryHTTP
import TributarySandbox
import TributaryTestSupport
import TributaryTesting

// The tutorial "The data layer of a news app" (NewsAPI's catalog), as it is written: its files
// in their final versions, and its program run against a sandbox on loopback.

// newsapp-02-endpoint.swift

/// What the app asks the news server for.
enum Endpoint: Hashable, Sendable {
    /// The top headlines of a category.
    case headlines(category: String)
    /// Every article that matches a search, the newest first.
    case search(String)

    /// The request that fetches it, and the type its answer decodes to.
    var request: Request<ArticlesPage> {
        switch self {
        case .headlines(let category):
            Request("top-headlines", query: [URLQueryItem(name: "category", value: category)])
        case .search(let text):
            Request(
                "everything",
                query: [
                    URLQueryItem(name: "q", value: text), URLQueryItem(name: "sortBy", value: "publishedAt"),
                ]
            )
        }
    }
}

// newsapp-07-model.swift

/// Why a page could not be loaded, in words the screen can show.
struct LoadFailure: Error, Equatable {
    var message: String
}

/// The state of the headlines screen.
@MainActor
@Observable
final class HeadlinesModel {
    /// The category shown while the search box is empty. Input.
    var category = "technology"
    /// The search box. Input.
    var searchText = ""
    /// The articles of the latest request, or how far it has got. Output.
    private(set) var state: Loadable<Endpoint, [Article], LoadFailure> = .idle

    @ObservationIgnored private var subscription: AnyCancellable?

    /// What the inputs ask for.
    var endpoint: Endpoint {
        searchText.isEmpty ? .headlines(category: category) : .search(searchText)
    }

    /// Loads what the inputs ask for through `client`, and changes `state` on `scheduler`.
    init<S: Scheduler>(client: APIClient, scheduler: S) {
        let endpoints = Observed(on: scheduler) { [weak self] in self?.endpoint }.compactMap { $0 }
        subscription = Self.states(of: endpoints, scheduler: scheduler) { endpoint in
            client.publisher(for: endpoint.request)
                .map(\.articles)
                .mapError { LoadFailure(message: $0.description) }
                .eraseToAnyPublisher()
        }
        .sink { [weak self] in self?.state = $0 }
    }

    /// The screen's pipeline: what the inputs ask for, once typing has stopped for 300 ms and
    /// only when it changed, loaded; a new request cancels the one under way.
    nonisolated static func states<S: Scheduler>(
        of endpoints: some Publisher<Endpoint, Never>,
        scheduler: S,
        load: @escaping (Endpoint) -> AnyPublisher<[Article], LoadFailure>
    ) -> AnyPublisher<Loadable<Endpoint, [Article], LoadFailure>, Never> {
        endpoints
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .map { Optional($0) }  // loadLatest takes optional requests: nil goes back to idle.
            .loadLatest(load)
            .receive(on: scheduler)
            .eraseToAnyPublisher()
    }
}

@Suite(.timeLimit(.minutes(5)))
struct NewsAppTutorialTests {
    /// Runs `body` with the base URL of a sandbox on a loopback port of its own, then stops it.
    private static func withSandbox(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (URL) async throws -> Void
    ) async throws {
        let (urls, ready) = AsyncStream<URL>.makeStream()
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let server = Task {
            try await Sandbox.withRunning { url in
                ready.yield(url)
                for await _ in stopped {}
            }
        }
        var iterator = urls.makeAsyncIterator()
        guard let url = await iterator.next() else {
            try await server.value
            throw CancellationError()
        }
        do {
            try await body(url)
        } catch {
            stop.finish()
            try? await server.value
            throw error
        }
        stop.finish()
        try await server.value
    }

    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appending(path: "Sources/NewsAPI/Documentation.docc/Resources")

    /// What the tutorial's terminal `file` shows after each `$ swift run NewsApp`, one list of
    /// lines a run, with the sandbox's address as `url` has it.
    private static func shownRuns(_ file: String, url: URL) throws -> [[String]] {
        let terminal = try String(contentsOf: resources.appending(path: file), encoding: .utf8)
            .replacingOccurrences(of: "http://127.0.0.1:8081", with: "http://\(url.host()!):\(url.port!)")
        return terminal.components(separatedBy: "$ swift run NewsApp\n").dropFirst().map { run in
            run.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("$") }
        }
    }

    @Test func theClientFetchesTheHeadlinesTheTutorialShows() async throws {
        try await Self.withSandbox { url in
            var lines: [String] = []
            func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

            // newsapp-03-client.swift, with the sandbox's address.
            let client = APIClient(
                baseURL: url,
                transport: URLSessionTransport(),
                middleware: [Authentication(.apiKeyInQuery("tributary-sandbox-demo", name: "apiKey"))],
                serverErrors: .newsAPI
            )

            let page = try await client.send(Endpoint.headlines(category: "technology").request)
            print(page.totalResults, "headlines")
            for article in page.articles.prefix(3) {
                print("-", article.title)
            }

            let shown = try Self.shownRuns("newsapp-04-run.txt", url: url)
            #expect([lines] == shown)
        }
    }

    /// newsapp-08-main.swift, run with the sandbox's key and then with another: the search
    /// loads once typing stops, or fails with the sandbox's own words.
    @MainActor @Test func theModelLoadsWhatIsTypedAsTheTutorialShows() async throws {
        try await Self.withSandbox { url in
            var runs: [[String]] = []
            for key in ["tributary-sandbox-demo", "another-key"] {
                var lines: [String] = []
                func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

                let client = APIClient(
                    baseURL: url,
                    transport: URLSessionTransport(),
                    middleware: [Authentication(.apiKeyInQuery(key, name: "apiKey"))],
                    serverErrors: .newsAPI
                )

                let model = HeadlinesModel(client: client, scheduler: DispatchQueue.main)
                model.searchText = "swift"

                for await state in Observed({ model.state }).values {
                    switch state {
                    case .idle: continue  // until the search starts
                    case .loading(let endpoint): print("loading", endpoint)
                    case .loaded(let articles):
                        print(articles.count, "articles, the first:", articles.first?.title ?? "none")
                    case .failed(let failure): print("failed:", failure.message)
                    }
                    if state.value != nil || state.failure != nil { break }
                }
                runs.append(lines)
            }

            let shown = try Self.shownRuns("newsapp-09-run.txt", url: url)
            #expect(runs == shown)
        }
    }

    // newsapp-10-test.swift

    @Test func aSearchWaitsForTypingToStop() {
        let test = MarbleTest(frame: .milliseconds(100))
        let article = Article(
            source: .init(id: nil, name: "Example"),
            title: "Swift 6.3 is out",
            url: URL(string: "https://example.com/swift")!,
            publishedAt: Date(timeIntervalSince1970: 0)
        )
        let typed = test.hot(
            "a-b-c------",
            values: ["a": Endpoint.search("s"), "b": .search("sw"), "c": .search("swift")]
        )
        let states = HeadlinesModel.states(of: typed, scheduler: test.scheduler) { _ in
            test.cold("--r|", values: ["r": [article]]).setFailureType(to: LoadFailure.self)
                .eraseToAnyPublisher()
        }
        test.expect(
            states,
            toBe: "-------l-r",
            values: ["l": .loading(.search("swift")), "r": .loaded([article])]
        )
    }

    @Test func aNewSearchCancelsTheOneUnderWay() {
        let test = MarbleTest(frame: .milliseconds(100))
        let typed = test.hot("a----b", values: ["a": Endpoint.search("swift"), "b": .search("rust")])
        let states = HeadlinesModel.states(of: typed, scheduler: test.scheduler) { _ in
            test.cold("------r|", values: ["r": []]).setFailureType(to: LoadFailure.self)
                .eraseToAnyPublisher()
        }
        // The answer to "swift" would come at frame 9: the search for "rust" cancelled it at 8.
        test.expect(
            states,
            toBe: "---a----b-----r",
            values: ["a": .loading(.search("swift")), "b": .loading(.search("rust")), "r": .loaded([])]
        )
    }
}
