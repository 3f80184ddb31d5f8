import Foundation
import Tributary
import TributaryLabClient

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

let environment = ProcessInfo.processInfo.environment
guard let token = environment["TRIBUTARY_LAB_TOKEN"] else {
    fatalError("Set TRIBUTARY_LAB_TOKEN to the token `tributary lab` printed.")
}
let recorder = LabLaneRecorder(
    lab: URL(string: environment["TRIBUTARY_LAB_URL"] ?? "http://127.0.0.1:8080")!,
    token: token,
    recording: "search box"
)
Lanes.recorder = recorder

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

// The recorder sends in the background: wait until the lab has stored every event.
try await recorder.flush()
print("recorded", recorder.dropped == 0 ? "every event" : "all but \(recorder.dropped) events")
