import CombineSchedulers
import Foundation
import Observation
import Testing
import Tributary
import TributaryTestSupport

/// The README's view model, with its main queue injected so the test runs in virtual time.
@MainActor @Observable
private final class SearchModel {
    struct Article: Equatable {
        let title: String
    }

    var query = ""
    var category = "general"
    private(set) var articles: Loadable<String, [Article], any Error> = .idle
    @ObservationIgnored private var subscription: AnyCancellable?

    init(
        on scheduler: AnySchedulerOf<DispatchQueue>,
        search: @escaping (String) -> AnyPublisher<[Article], any Error>
    ) {
        subscription = Observed(on: scheduler) { [weak self] in self.map { ($0.query, $0.category) } }
            .compactMap { $0 }
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .map { query, category in query.isEmpty ? nil : "\(category):\(query)" }
            .removeDuplicates()
            .loadLatest(search)
            .receive(on: scheduler)
            .sink { [weak self] in self?.articles = $0 }
    }
}

@MainActor
@Suite struct ReadmeExampleTests {
    @Test func aViewModelDerivesItsStateFromItsInputs() {
        let scheduler = DispatchQueue.test
        let searched = Locked<[String]>([])
        let model = SearchModel(on: scheduler.eraseToAnyScheduler()) { request in
            searched.withLock { $0.append(request) }
            return Just([SearchModel.Article(title: request)])
                .setFailureType(to: (any Error).self)
                .delay(for: .milliseconds(100), scheduler: scheduler)
                .eraseToAnyPublisher()
        }
        scheduler.advance(by: .milliseconds(300))
        #expect(model.articles.isIdle)

        model.query = "s"
        scheduler.advance(by: .milliseconds(100))
        model.query = "swift"
        scheduler.advance(by: .milliseconds(300))
        #expect(model.articles.request == "general:swift")
        model.category = "technology"
        scheduler.advance(by: .milliseconds(400))
        #expect(model.articles.value == [SearchModel.Article(title: "technology:swift")])
        #expect(searched.current == ["general:swift", "technology:swift"])

        model.query = ""
        scheduler.advance(by: .milliseconds(300))
        #expect(model.articles.isIdle)
    }
}
