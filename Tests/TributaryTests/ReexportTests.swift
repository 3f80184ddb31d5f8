import Foundation
import Testing
import Tributary
import TributaryTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `import Tributary` alone gives an app Combine's vocabulary on every platform.
@Suite struct ReexportTests {
    @Test(.timeLimit(.minutes(5)))
    func dispatchQueueIsAScheduler() async {
        let queue = DispatchQueue(label: "tributary.tests.scheduler")
        let onQueue = await withCheckedContinuation { continuation in
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            var cancellable: AnyCancellable?
            cancellable = Just(1)
                .delay(for: .milliseconds(10), scheduler: queue)
                .receive(on: queue)
                .sink { _ in
                    continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true)
                    withExtendedLifetime(cancellable) {}
                }
        }
        #expect(onQueue)
    }

    /// The publisher is Foundation's real data task; a URL scheme it cannot load fails
    /// through the publisher as a `URLError`, without a network.
    @Test(.timeLimit(.minutes(5)))
    func urlSessionPublishesADataTask() async throws {
        let url = try #require(URL(string: "tributary-unsupported://example/feed"))
        var cancellable: AnyCancellable?
        let failure: URLError? = await withCheckedContinuation { continuation in
            cancellable = URLSession.shared.dataTaskPublisher(for: url)
                .map(\.data)
                .sink(
                    receiveCompletion: { completion in
                        switch completion {
                        case .failure(let error): continuation.resume(returning: error)
                        case .finished: continuation.resume(returning: nil)
                        }
                    },
                    receiveValue: { _ in }
                )
        }
        withExtendedLifetime(cancellable) {}
        #expect(failure?.code == .unsupportedURL)
    }

    @Test func publishedPropertiesDriveObservableObjects() {
        final class Model: ObservableObject {
            @Published var count = 0
        }
        let model = Model()
        let seen = Locked<[Int]>([])
        let willChange = Locked(0)
        let cancellables: Set<AnyCancellable> = [
            model.$count.sink { value in seen.withLock { $0.append(value) } },
            model.objectWillChange.sink { willChange.withLock { $0 += 1 } },
        ]
        model.count = 1
        model.count = 2
        #expect(seen.current == [0, 1, 2])
        #expect(willChange.current == 2)

        let subject = CurrentValueSubject<Int, Never>(5)
        var latest = 0
        let cancellable = subject.sink { latest = $0 }
        subject.send(6)
        #expect(latest == 6)
        cancellable.cancel()
        _ = cancellables
    }
}
