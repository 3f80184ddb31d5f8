import Foundation
import Hummingbird
import NIOCore
import Observation
import Testing
import Tributary
import TributaryTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Combine inputs
@MainActor @Observable
private final class SearchModel {
    var query = ""
    var category = "general"
    private(set) var title = ""
    @ObservationIgnored private var subscription: AnyCancellable?

    init() {
        subscription = Observed { [weak self] in self.map { "\($0.category): \($0.query)" } }
            .compactMap { $0 }
            .removeDuplicates()
            .sink { [weak self] in self?.title = $0 }
    }
}

// Keep fetch state
@MainActor @Observable
private final class AvatarModel {
    var imageURL: URL?
    private(set) var image: Loadable<URL, Data, any Error> = .idle
    @ObservationIgnored private var subscription: AnyCancellable?

    init() {
        subscription = Observed { [weak self] in self?.imageURL }
            .loadLatest { url in try await URLSession.shared.data(from: url).0 }
            .receive(on: DispatchQueue.main)
            .sink { [weak self] in self?.image = $0 }
    }
}

/// The code of `Tributary`'s Getting Started article, as it is written there, on the main
/// queue it names, with the avatar fetched from a server on loopback.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct TributaryGettingStartedTests {
    @Test func aViewModelCombinesItsInputs() async throws {
        let model = SearchModel()
        try await waitUntil { model.title == "general: " }
        model.query = "swift"
        try await waitUntil { model.title == "general: swift" }
        model.category = "technology"
        try await waitUntil { model.title == "technology: swift" }
    }

    @Test func asyncSequencesAndPublishersBothWays() async {
        var received: [String] = []
        let (typed, continuation) = AsyncStream.makeStream(of: String.self)
        let settled = typed.publisher.debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
        continuation.yield("sw")  // a text field's changes, say
        continuation.yield("swift")
        for await query in settled.values {
            print(query)  // "swift", once typing has paused for 300 ms
            continuation.finish()  // the field went away: the loop ends
            received.append(query)
        }
        #expect(received == ["swift"])
    }

    @Test func theStateOfTheLatestFetch() async throws {
        let router = Router()
        router.get("avatars/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "picture of \(name)")))
        }
        try await withLoopbackServer(router) { base in
            let model = AvatarModel()
            try await waitUntil { model.image.isIdle }
            model.imageURL = base.appending(path: "avatars/ada")
            try await waitUntil { model.image.value == Data("picture of ada".utf8) }
            model.imageURL = nil
            try await waitUntil { model.image.isIdle }
        }
    }
}
