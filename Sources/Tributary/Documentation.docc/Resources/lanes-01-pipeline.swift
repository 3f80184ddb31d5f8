import Foundation
import Tributary

/// The search box's pipeline: what was typed, once typing has stopped for 300 ms, and only when
/// it changed.
func queries<S: Scheduler>(
    of typed: some Publisher<String, Never>,
    scheduler: S
) -> AnyPublisher<String, Never> {
    typed
        .debounce(for: .milliseconds(300), scheduler: scheduler)
        .removeDuplicates()
        .eraseToAnyPublisher()
}

let typed = PassthroughSubject<String, Never>()
let subscription = queries(of: typed, scheduler: DispatchQueue.main).sink { print("search:", $0) }

/// Someone types: a key every 100 ms, then a pause of half a second.
@MainActor func type(_ texts: [String]) async throws {
    for text in texts {
        typed.send(text)
        try await Task.sleep(for: .milliseconds(100))
    }
    try await Task.sleep(for: .milliseconds(500))
}

try await type(["s", "sw", "swi"])
try await type(["swif", "swift"])
