import Foundation
import Testing
import Tributary
import TributaryHTTP
import TributaryLabClient
import TributaryLabWire
import TributaryTestSupport

/// The tutorial "A running pipeline, recorded and replayed as a test" (Tributary's catalog), as
/// it is written: its program records the search box's lanes into a running lab, the lab turns
/// the recording into a test, and that test, its pipeline filled in as the tutorial fills it in,
/// is the one the tutorial shows, compiled and run as `recordedLanesReplay` in TributaryTests.
@Suite(.timeLimit(.minutes(5)))
struct LanesTutorialTests {
    static let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let resources = package.appending(path: "Sources/Tributary/Documentation.docc/Resources")

    /// lanes-04-lab.swift's pipeline. Its lanes name their recorder: the process-wide
    /// `Lanes.recorder` the program sets belongs to no single test of a suite run in parallel.
    func queries<S: Scheduler>(
        of typed: some Publisher<String, Never>,
        scheduler: S,
        recorder: any LaneRecording
    ) -> AnyPublisher<String, Never> {
        typed
            .lane("typed", recorder: recorder)
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .lane("query", recorder: recorder)
            .eraseToAnyPublisher()
    }

    @Test func aRecordingOfTheSearchBoxBecomesATest() async throws {
        try await withLab { lab in
            let recorder = LabLaneRecorder(lab: lab.base, token: lab.token, recording: "search box")
            let searches = Locked<[String]>([])
            let typed = PassthroughSubject<String, Never>()
            // A queue of the test's own: the main queue is drained only while something runs the
            // main thread's loop, which a parallel test run does not promise.
            let scheduler = DispatchQueue(label: "LanesTutorialTests.search")
            let subscription = queries(of: typed, scheduler: scheduler, recorder: recorder)
                .sink { query in searches.withLock { $0.append(query) } }

            // The person's pauses are waits for the search each pause lets through.
            for text in ["s", "sw", "swi"] { typed.send(text) }
            try await waitUntil { searches.current == ["swi"] }
            for text in ["swif", "swift"] { typed.send(text) }
            try await waitUntil { searches.current == ["swi", "swift"] }
            subscription.cancel()
            try await recorder.flush()
            #expect(recorder.dropped == 0)

            // What the recordings page draws.
            let client = LabClient(
                baseURL: lab.base,
                token: lab.token,
                transport: lab.transport,
                retryPolicy: .never
            )
            let summary = try #require(try await client.recordings().first { $0.name == "search box" })
            let recording = try await client.recording(summary.id)
            #expect(recording.lanes == ["typed", "query"])
            let values = { (lane: String) in
                recording.events.filter { $0.lane == lane }.compactMap { event -> String? in
                    guard case .value(let value) = event.kind else { return nil }
                    return value
                }
            }
            #expect(values("typed") == ["s", "sw", "swi", "swif", "swift"])
            #expect(values("query") == ["swi", "swift"])

            // What "Download test" and `tributary recordings test` give.
            let source = try await client.test(forRecording: summary.id, input: "typed", output: "query")
            let shown = try String(
                contentsOf: Self.resources.appending(path: "lanes-06-test.swift"),
                encoding: .utf8
            )
            #expect(
                source.hasPrefix(
                    "// Made by the Tributary lab from recording \"search box\" (\(summary.id)).\n"
                )
            )
            // Apart from its first line, its frame and its marbles, which follow the recording's
            // own times, the test is the one the tutorial shows.
            func skeleton(_ source: String) -> [String] {
                source.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
                    .filter { line in
                        let code = line.drop { $0 == " " }
                        return !["\"", "values:", "toBe:", "let test = MarbleTest(frame:"].contains {
                            code.hasPrefix($0)
                        }
                    }
            }
            #expect(skeleton(source) == skeleton(shown))
        }
    }

    /// The test the tutorial's last step shows is the one compiled and run in TributaryTests.
    @Test func theFilledInTestIsTheOneThatRuns() throws {
        let shown = try String(
            contentsOf: Self.resources.appending(path: "lanes-07-test.swift"),
            encoding: .utf8
        )
        let compiled = try String(
            contentsOf: Self.package.appending(
                path: "Tests/TributaryTests/Tutorials/SearchReplayTests.swift"
            ),
            encoding: .utf8
        )
        #expect(compiled == shown)
    }
}
