import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTestSupport

/// The README's view model, with its main queue injected so the test runs in virtual time.
private final class SearchModel: ObservableObject {
    struct Article: Equatable {
        let title: String
    }

    @Published var query = ""
    @Published var category = "general"
    @Published private(set) var articles: Loadable<String, [Article], any Error> = .idle

    init<S: Scheduler>(on scheduler: S, search: @escaping (String) -> AnyPublisher<[Article], any Error>) {
        $query
            .combineLatest($category) { query, category in
                query.isEmpty ? nil : "\(category):\(query)"
            }
            .removeDuplicates()
            .loadLatest(search)
            .receive(on: scheduler)
            .assign(to: &$articles)
    }
}

@Suite struct ReadmeExampleTests {
    @Test func aViewModelDerivesItsStateFromItsInputs() {
        let scheduler = DispatchQueue.test
        let searched = Locked<[String]>([])
        let model = SearchModel(on: scheduler) { request in
            searched.withLock { $0.append(request) }
            return Just([SearchModel.Article(title: request)])
                .setFailureType(to: (any Error).self)
                .delay(for: .milliseconds(100), scheduler: scheduler)
                .eraseToAnyPublisher()
        }
        let changes = Locked(0)
        let cancellable = model.objectWillChange.sink { changes.withLock { $0 += 1 } }

        scheduler.advance()
        #expect(model.articles.isIdle)

        model.query = "swift"
        scheduler.advance()
        #expect(model.articles.request == "general:swift")
        model.category = "technology"
        scheduler.advance(by: .milliseconds(100))
        #expect(model.articles.value == [SearchModel.Article(title: "technology:swift")])
        #expect(searched.current == ["general:swift", "technology:swift"])
        #expect(changes.current >= 3)

        model.query = ""
        scheduler.advance()
        #expect(model.articles.isIdle)
        cancellable.cancel()
    }
}
