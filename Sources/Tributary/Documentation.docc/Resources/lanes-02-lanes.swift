import Foundation
import Tributary

/// The search box's pipeline: what was typed, once typing has stopped for 300 ms, and only when
/// it changed.
func queries<S: Scheduler>(
    of typed: some Publisher<String, Never>,
    scheduler: S
) -> AnyPublisher<String, Never> {
    typed
        .lane("typed")
        .debounce(for: .milliseconds(300), scheduler: scheduler)
        .removeDuplicates()
        .lane("query")
        .eraseToAnyPublisher()
}

let memory = LaneMemory()
Lanes.recorder = memory

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

for lane in ["typed", "query"] {
    let letters = memory.marbleValues(lane: lane).sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
    print(lane, memory.marbles(lane: lane, frame: .milliseconds(100)), letters.joined(separator: ", "))
}
