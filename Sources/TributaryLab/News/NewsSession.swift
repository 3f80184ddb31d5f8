import CombineSchedulers
import Foundation
import NewsAPI
import Tributary
import TributaryFeeds
import TributaryLabWire
import TributaryStreams

/// One page's news reader: an ``ArticlesViewModel`` (or, for an RSS or Atom feed, a
/// ``FeedViewModel``) and a ``SourcesViewModel``, the same an iOS app uses, fed the page's
/// inputs and sending back their state as JSON whenever it changes. A feed's entries keep what
/// the feed gave: one without a date or a link is sent without it.
///
/// Inputs: `{"type":"input","feed":{"kind":"top"|"category"|"search"|"source"|"feed",…},
/// "searchText":"…","seq":n}`, `{"type":"loadMore"}`, `{"type":"refresh"}`,
/// `{"type":"sources","country":…,"category":…,"searchText":…,"seq":n}` and
/// `{"type":"refreshSources"}`. Outputs: `{"type":"choices","countries":[…],"feeds":[…]}` once,
/// then `{"type":"articles",…}` and `{"type":"sources",…}`, each a whole state carrying the `seq` of the last input applied, so that the page can
/// leave aside a state that was made before its latest choice.
@MainActor
final class NewsSession {
    private let news: LabNews
    private let send: @Sendable (String) -> Void
    private var articles: ArticlesViewModel?
    private var feedReader: FeedViewModel?
    /// What pushes the list shown: the articles' state, or the feed's.
    private var listWatch: AnyCancellable?
    private var sources: SourcesViewModel?
    private var subscriptions: Set<AnyCancellable> = []
    /// The request whose answer is loading, and the search text of the answer shown.
    private var loading: ArticlesViewModel.PageRequest?
    private var shownQuery = ""
    private var lastSent: [String: String] = [:]
    /// The `seq` of the latest input received, and of the latest the models have read, which
    /// the states sent carry: a state pushed between the two shows what came before it.
    private var articlesInput = 0
    private var articlesApplied = 0
    private var offered = false
    private var sourcesInput = 0
    private var sourcesApplied = 0

    init(news: LabNews, send: @escaping @Sendable (String) -> Void) {
        self.news = news
        self.send = send
    }

    /// Sends, once, what the page's pickers offer: the countries the news server's sources are
    /// in, and the feeds to start from.
    private func offerChoices() {
        guard !offered else { return }
        offered = true
        let feeds = news.suggestedFeeds.map(\.absoluteString)
        news.client.sourcesPublisher(.init())
            .map(Self.countries(of:))
            .replaceError(with: [])
            .receive(on: news.scheduler)
            .sink { [weak self] countries in
                self?.deliver("choices", NewsSocket.Choices(countries: countries, feeds: feeds))
            }
            .store(in: &subscriptions)
    }

    /// The countries `sources` are in, once each; off the main actor, where answers arrive.
    nonisolated static func countries(of sources: [NewsSource]) -> [String] {
        Array(Set(sources.compactMap { $0.country?.lowercased() })).sorted()
    }

    /// Acts on one message from the page.
    func handle(_ text: String) {
        offerChoices()
        let data = Data(text.utf8)
        // An input is a flat object: deeper text is refused before it is decoded.
        guard !JSONNesting.exceeds(data, limit: 4),
            let message = try? JSONDecoder().decode(NewsSocket.Input.self, from: data)
        else {
            send(LiveMessage.invalidText("malformedJSON", "A message is a JSON object with a type."))
            return
        }
        switch message.type {
        case "input":
            guard let given = message.feed, let choice = given.choice else {
                send(
                    LiveMessage.invalidText(
                        "badFeed",
                        "The feed is one of top, category, search, source and feed."
                    )
                )
                return
            }
            let searchText = String((message.searchText ?? "").prefix(500))
            articlesInput = message.seq ?? articlesInput
            switch choice {
            case .articles(let feed): show(feed, searchText: searchText)
            case .feed(let url): read(url, searchText: searchText)
            }
        case "loadMore":
            articles?.loadMore()
        case "refresh":
            articles?.refresh()
            feedReader?.refresh()
        case "sources":
            let country = message.country.flatMap { $0.isEmpty ? nil : $0 }
            let category = message.category.flatMap(NewsCategory.init(rawValue:))
            sourcesInput = message.seq ?? sourcesInput
            let model = sources ?? startSources()
            Self.set(\.country, of: model, to: country)
            Self.set(\.category, of: model, to: category)
            Self.set(\.searchText, of: model, to: message.searchText ?? "")
            let seq = sourcesInput
            afterModelsReact {
                $0.sourcesApplied = seq
                $0.pushSources()
            }
        case "refreshSources":
            sources?.refresh()
        default:
            let type = message.type.prefixOfUTF8(64)
            send(LiveMessage.invalidText("unknownMessage", "There is no message of type \"\(type)\"."))
        }
    }

    /// Shows a NewsAPI feed, in place of any RSS or Atom feed read so far.
    private func show(_ feed: ArticlesViewModel.Feed, searchText: String) {
        feedReader = nil
        let model =
            articles
            ?? list(
                ArticlesViewModel(
                    feed: feed,
                    searchText: searchText,
                    client: news.client,
                    scheduler: news.scheduler,
                    debounce: news.debounceStride
                ),
                observing: {
                    _ = (
                        $0.state, $0.articles, $0.errorMessage, $0.totalResults, $0.queryIssue, $0.canLoadMore
                    )
                },
                push: { $0.pushArticles() }
            )
        articles = model
        Self.set(\.feed, of: model, to: feed)
        Self.set(\.searchText, of: model, to: searchText)
        let seq = articlesInput
        afterModelsReact {
            $0.articlesApplied = seq
            $0.pushArticles()
        }
    }

    /// Reads an RSS or Atom feed, in place of any NewsAPI feed shown so far.
    private func read(_ url: URL, searchText: String) {
        articles = nil
        let model =
            feedReader
            ?? list(
                FeedViewModel(
                    url: url,
                    searchText: searchText,
                    client: news.client,
                    scheduler: news.scheduler
                ),
                observing: { _ = ($0.state, $0.entries, $0.errorMessage, $0.document, $0.searchText) },
                push: { $0.pushFeed() }
            )
        feedReader = model
        Self.set(\.url, of: model, to: url)
        Self.set(\.searchText, of: model, to: searchText)
        let seq = articlesInput
        afterModelsReact {
            $0.articlesApplied = seq
            $0.pushFeed()
        }
    }

    /// `model`, made the list shown: `push` sends its state after each change of what
    /// `observing` reads of it.
    private func list<Model: AnyObject>(
        _ model: Model,
        observing read: @escaping (Model) -> Void,
        push: @escaping (NewsSession) -> Void
    ) -> Model {
        listWatch = watch({ [weak model] in model.map(read) }, with: push)
        return model
    }

    /// Sets a model's input only when it differs, so that an unchanged input starts no new
    /// request.
    private static func set<Model: AnyObject, Value: Equatable>(
        _ input: ReferenceWritableKeyPath<Model, Value>,
        of model: Model,
        to value: Value
    ) {
        if model[keyPath: input] != value { model[keyPath: input] = value }
    }

    private func startSources() -> SourcesViewModel {
        let model = SourcesViewModel(
            client: news.client,
            scheduler: news.scheduler,
            debounce: news.debounceStride
        )
        sources = model
        watch({ [weak model] in _ = model.map { ($0.state, $0.sources, $0.errorMessage) } }) {
            $0.pushSources()
        }
        .store(in: &subscriptions)
        pushSources()
        return model
    }

    /// Runs `push` once the models have read the inputs just given: they read them on the
    /// scheduler, so a push made at once would send the state from before.
    private func afterModelsReact(_ push: @escaping (NewsSession) -> Void) {
        news.scheduler.schedule { [weak self] in
            if let self { push(self) }
        }
    }

    /// Sends a state with `push` after each change of what `read` reads of a model, once the
    /// change is made.
    private func watch(
        _ read: @escaping () -> Void,
        with push: @escaping (NewsSession) -> Void
    ) -> AnyCancellable {
        Observed(on: news.scheduler, read)
            .dropFirst()
            .sink { [weak self] _ in
                if let self { push(self) }
            }
    }

    private func pushArticles() {
        guard let model = articles else { return }
        switch model.state {
        case .loading(let request): loading = request
        case .loaded: shownQuery = loading.map(Self.query) ?? shownQuery
        default: break
        }
        let (state, error) = Self.describe(model.state, message: model.errorMessage)
        let unfinished = model.queryIssue.flatMap { $0.isUnfinished ? $0.description : nil }
        let shown = model.articles.filter { !$0.isRemoved }.map { article in
            NewsSocket.Article(
                title: article.title,
                url: article.url.absoluteString,
                source: article.source.name,
                author: article.author,
                publishedAt: article.publishedAt,
                description: article.description,
                image: article.urlToImage.map { news.thumbnail(of: $0) }
            )
        }
        deliverList(shown, state: state, error: error, refreshing: model.isRefreshing) {
            $0.loadingMore = model.state.isLoading && model.isLoadingMore
            $0.searchText = shownQuery
            $0.unfinishedQuery = unfinished
            $0.canLoadMore = model.canLoadMore
            $0.totalResults = model.totalResults
        }
    }

    private func pushFeed() {
        guard let model = feedReader else { return }
        let (state, error) = Self.describe(model.state, message: model.errorMessage)
        let shown = model.entries.map { entry in
            NewsSocket.Article(
                title: entry.title,
                url: entry.link?.absoluteString,
                source: entry.feedTitle ?? model.document?.title ?? entry.link?.host ?? "",
                author: entry.author,
                publishedAt: entry.published,
                description: entry.summaryText,
                image: entry.image.map { news.thumbnail(of: $0) }
            )
        }
        deliverList(shown, state: state, error: error, refreshing: model.isRefreshing) {
            $0.searchText = model.searchText
            $0.totalResults = model.document?.entries.count ?? 0
        }
    }

    /// Sends the list shown, whichever kind of feed it is: `shown` in `state`, with what `more`
    /// sets of the rest (by default, no more to load and no query pending).
    private func deliverList(
        _ shown: [NewsSocket.Article],
        state: String,
        error: String?,
        refreshing: Bool,
        _ more: (inout NewsSocket.Articles) -> Void
    ) {
        var list = NewsSocket.Articles(
            seq: articlesApplied,
            state: state,
            refreshing: refreshing,
            loadingMore: false,
            searchText: "",
            unfinishedQuery: nil,
            articles: shown,
            error: error,
            canLoadMore: false,
            totalResults: 0
        )
        more(&list)
        deliver("articles", list)
    }

    private func pushSources() {
        guard let model = sources else { return }
        let (state, error) = Self.describe(model.state, message: model.errorMessage)
        let shown = model.sources.map {
            NewsSocket.Source(
                id: $0.id,
                name: $0.name,
                description: $0.description,
                category: $0.category,
                country: $0.country
            )
        }
        deliver(
            "sources",
            NewsSocket.Sources(seq: sourcesApplied, state: state, sources: shown, error: error)
        )
    }

    /// A model's state as the page shows it, and the alert's message after a failure; a
    /// cancelled request is no failure.
    nonisolated static func describe<Request, Value>(
        _ state: Loadable<Request, Value, NewsError>,
        message: String?
    ) -> (state: String, error: String?) {
        switch state {
        case .idle: ("idle", nil)
        case .loading: ("loading", nil)
        case .loaded: ("loaded", nil)
        case .failed(let failure):
            failure.isCancellation ? ("idle", nil) : ("failed", message ?? failure.alertMessage)
        }
    }

    /// Sends a state unless it is the one sent last.
    private func deliver(_ kind: String, _ state: some Encodable) {
        guard let data = try? LabJSON.encoder.encode(state) else { return }
        let text = String(decoding: data, as: UTF8.self)
        guard lastSent[kind] != text else { return }
        lastSent[kind] = text
        send(text)
    }

    /// The search text a request asks for.
    nonisolated static func query(_ request: ArticlesViewModel.PageRequest) -> String {
        switch request.origin {
        case .newsAPI(.topHeadlines(let query)): query.query ?? ""
        case .newsAPI(.everything(let query)): query.query ?? ""
        case .newsAPI(.sources): ""
        }
    }
}

extension NewsSocket.Input.Feed {
    /// What the page chose to read: a NewsAPI feed, or an RSS or Atom feed.
    enum Choice {
        case articles(ArticlesViewModel.Feed)
        case feed(URL)
    }

    var choice: Choice? {
        switch kind {
        case "top": return .articles(.topHeadlines(country: Self.country(country)))
        case "category":
            return category.flatMap(NewsCategory.init(rawValue:)).map {
                .articles(.category($0, country: Self.country(country)))
            }
        case "search": return .articles(.search)
        case "source": return id.flatMap { $0.isEmpty ? nil : .articles(.source(id: $0)) }
        case "feed":
            guard let url = url.flatMap(URL.init(string:)), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else { return nil }
            return .feed(url)
        default: return nil
        }
    }

    static func country(_ code: String?) -> String {
        guard let code, code.count == 2, code.allSatisfy(\.isLetter) else { return "us" }
        return code.lowercased()
    }
}
