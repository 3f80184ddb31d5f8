import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTestSupport

@Suite struct LoadableTests {
    typealias State = Loadable<URL, String, TestError>

    let first = URL(string: "https://example.com/a.jpg")!
    let second = URL(string: "https://example.com/b.jpg")!

    @Test func answersItsAccessorsInEveryState() {
        let states: [State] = [.idle, .loading(first), .loaded("image"), .failed(.boom)]
        #expect(states.map(\.isIdle) == [true, false, false, false])
        #expect(states.map(\.isLoading) == [false, true, false, false])
        #expect(states.map(\.request) == [nil, first, nil, nil])
        #expect(states.map(\.value) == [nil, nil, "image", nil])
        #expect(states.map(\.failure) == [nil, nil, nil, .boom])
    }

    @Test func appliesOnlyResultsForWhatIsBeingFetched() {
        var state = State.idle
        var applied = state.succeed("early", for: first)
        #expect(!applied && state == .idle)

        applied = state.start(first)
        #expect(applied)
        applied = state.start(first)
        #expect(!applied, "the fetch under way goes on")
        applied = state.start(second)
        #expect(applied)
        applied = state.succeed("stale", for: first)
        #expect(!applied)
        applied = state.fail(.boom, for: first)
        #expect(!applied && state == .loading(second))

        applied = state.succeed("fresh", for: second)
        #expect(applied && state == .loaded("fresh"))
        applied = state.succeed("again", for: second)
        #expect(!applied && state == .loaded("fresh"))

        state.start(first)
        applied = state.complete(.failure(.other), for: first)
        #expect(applied && state == .failed(.other))
        state.reset()
        #expect(state == .idle)
    }

    @Test func mapsOnlyALoadedValue() {
        #expect(State.loaded("abc").map(\.count) == .loaded(3))
        #expect(State.loading(first).map(\.count) == .loading(first))
        #expect(State.failed(.boom).map(\.count) == .failed(.boom))
        #expect(State.idle.map(\.count) == .idle)
    }

    @Test func loadLatestCancelsTheOldFetchAndDropsItsLateResult() {
        let scheduler = DispatchQueue.test
        let requests = PassthroughSubject<URL?, Never>()
        let cancelled = Locked<[URL]>([])
        let states = Locked<[State]>([])
        let cancellable =
            requests
            .loadLatest { url -> AnyPublisher<String, TestError> in
                let delay = url.lastPathComponent == "a.jpg" ? 500 : 100
                return Just(url.lastPathComponent)
                    .setFailureType(to: TestError.self)
                    .delay(for: .milliseconds(delay), scheduler: scheduler)
                    .handleEvents(receiveCancel: { cancelled.withLock { $0.append(url) } })
                    .eraseToAnyPublisher()
            }
            .sink { state in states.withLock { $0.append(state) } }

        requests.send(first)
        scheduler.advance(by: .milliseconds(50))
        requests.send(second)
        scheduler.advance(by: .seconds(1))
        #expect(states.current == [.loading(first), .loading(second), .loaded("b.jpg")])
        #expect(cancelled.current == [first])

        requests.send(first)
        requests.send(nil)
        scheduler.advance(by: .seconds(1))
        #expect(states.current.suffix(2) == [.loading(first), .idle])
        cancellable.cancel()
    }

    @Test func loadLatestPublishesAFailure() {
        let states = Locked<[State]>([])
        let cancellable = Just<URL?>(first)
            .loadLatest { _ in Fail<String, TestError>(error: .boom) }
            .sink { state in states.withLock { $0.append(state) } }
        #expect(states.current == [.loading(first), .failed(.boom)])
        cancellable.cancel()
    }
}
