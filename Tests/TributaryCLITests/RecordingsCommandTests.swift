import ArgumentParser
import Foundation
import Testing
import Tributary
import TributaryAsyncHTTPClient
import TributaryLab
import TributaryLabClient
import TributaryLabWire
import TributaryStreams
import TributaryTestSupport

@testable import TributaryCLI

/// `tributary recordings list / show / document / test` against a lab holding a recording.
@Suite(.timeLimit(.minutes(5)), .unsanitized("moves megabytes through a lab; runs in the plain pass"))
struct RecordingsCommandTests {
    func command<Command: ParsableCommand>(_ arguments: [String], as: Command.Type) throws -> Command {
        try #require(try TributaryCommand.parseAsRoot(arguments) as? Command)
    }

    /// Runs a lab over a new SQLite file until `body` returns, handing it the lab's address and
    /// token.
    func withLab(_ body: @Sendable (_ url: URL, _ token: String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "recordings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = "recordings-token-0123456789"
        let server = LabServer(
            store: try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path),
            token: token
        )
        try await server.withRunning { url in try await body(url, token) }
    }

    /// `show --diff`: under each value of a structured lane, what changed from the one before.
    @Test func showsEachStructuredValueAsTheChangesFromTheOneBefore() async throws {
        struct State: Encodable {
            var query: String
            var results: [String]
            var error: String?
        }
        try await withLab { url, token in
            let recorder = LabLaneRecorder(lab: url, token: token, recording: "state")
            let states = PassthroughSubject<State, Never>()
            let cancellable = states.lane("state", encoding: .json, recorder: recorder).sink { _ in }
            states.send(State(query: "s", results: [], error: "offline"))
            states.send(State(query: "sw", results: ["Swift 6"], error: nil))
            states.send(State(query: "sw", results: ["Swift 6"], error: nil))
            states.send(State(query: "sw", results: (0..<300).map(String.init), error: nil))
            states.send(State(query: String(repeating: "x", count: 20_000), results: [], error: nil))
            cancellable.cancel()
            try await recorder.flush()
            let lab = ["--lab", url.absoluteString, "--token", token]

            let shown = CapturedConsole()
            try await command(
                ["recordings", "show", "state", "--diff"] + lab,
                as: RecordingsCommand.Show.self
            )
            .execute(console: shown.console)
            let lines = shown.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let firstValue = try #require(lines.firstIndex { $0.contains("value State(") })
            #expect(lines[firstValue + 1] == #"= {"query":"s","results":[],"error":"offline"}"#)
            let second = try #require(lines[(firstValue + 2)...].firstIndex { $0.contains("value State(") })
            #expect(
                Array(lines[(second + 1)...(second + 3)]) == [
                    #"- error: "offline""#, #"~ query: "s" → "sw""#, #"+ results[0]: "Swift 6""#,
                ]
            )
            #expect(lines.contains("(unchanged)"))
            #expect(lines.contains(#"~ results[0]: "Swift 6" → "0""#) && lines.contains("… and 100 more"))
            #expect(lines.contains("(its JSON was over the lane's limits: only its description was kept)"))

            #expect(throws: (any Error).self) {
                try TributaryCommand.parseAsRoot(
                    ["recordings", "show", "state", "--diff", "--marbles"] + lab
                )
            }
        }
    }

    @Test func listsShowsAndTurnsARecordingIntoADocumentAndATest() async throws {
        try await withLab { url, token in
            let recorder = LabLaneRecorder(lab: url, token: token, recording: "typing")
            let typed = PassthroughSubject<String, Never>()
            let cancellable = typed.lane("typed", recorder: recorder)
                .map { $0.count }
                .lane("counted", recorder: recorder)
                .sink { _ in }
            for text in ["s", "sw", "swift"] { typed.send(text) }
            typed.send(completion: .finished)
            cancellable.cancel()
            try await recorder.flush()
            let lab = ["--lab", url.absoluteString, "--token", token]

            let listed = CapturedConsole()
            try await command(["recordings", "list"] + lab, as: RecordingsCommand.List.self)
                .execute(console: listed.console)
            let line = try #require(listed.output.split(separator: "\n").first)
            #expect(line.contains("  typing  12 events"))
            let id = String(line.prefix { $0 != " " })

            let shown = CapturedConsole()
            try await command(["recordings", "show", id] + lab, as: RecordingsCommand.Show.self)
                .execute(console: shown.console)
            #expect(shown.output.contains("typed #"))
            #expect(shown.output.contains("value swift"))
            #expect(shown.output.contains("counted #"))

            let byName = CapturedConsole()
            try await command(["recordings", "show", "typing"] + lab, as: RecordingsCommand.Show.self)
                .execute(console: byName.console)
            #expect(byName.output == shown.output)

            let marbles = CapturedConsole()
            try await command(
                ["recordings", "show", id, "--marbles", "--frame", "10"] + lab,
                as: RecordingsCommand.Show.self
            )
            .execute(console: marbles.console)
            #expect(marbles.output.contains("typed    (abc|)"))
            #expect(marbles.output.contains("c = swift"))
            #expect(marbles.output.contains("counted  (125|)"))

            // A line break an app put in a name or a value is shown, not obeyed.
            let forged = RecordingsCommand.Show.line(
                LaneEvent(
                    lane: "a\nb",
                    subscription: 1,
                    kind: .value("x\r\n  0.000 s  fake"),
                    time: .zero,
                    source: "F:1"
                )
            )
            #expect(!forged.contains("\n") && !forged.contains("\r") && forged.contains(#"a\nb"#))
            // An empty value reads as one.
            let empty = RecordingsCommand.Show.line(
                LaneEvent(lane: "query", subscription: 1, kind: .value(""), time: .zero, source: "F:1")
            )
            #expect(empty.contains(#"value """#), "\(empty)")

            // A lane subscribed twice draws each subscription on a line of its own.
            let again = LabLaneRecorder(lab: url, token: token, recording: "twice")
            for word in ["one", "two"] {
                _ = Just(word).lane("said", recorder: again).sink { _ in }
            }
            try await again.flush()
            let twice = CapturedConsole()
            try await command(
                ["recordings", "show", "twice", "--marbles", "--frame", "10"] + lab,
                as: RecordingsCommand.Show.self
            )
            .execute(console: twice.console)
            let lines = twice.output.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("said #1  (a|)") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("said #2  (b|)  (from ") }, "\(lines)")
            #expect(lines.contains { $0.hasSuffix("a = one") } && lines.contains { $0.hasSuffix("b = two") })

            let made = CapturedConsole()
            try await command(
                ["recordings", "document", id, "--lanes", "typed,counted"] + lab,
                as: RecordingsCommand.Document.self
            )
            .execute(console: made.console)
            let documentID = try #require(
                DocumentID(made.output.trimmingCharacters(in: .whitespacesAndNewlines))
            )
            let document = try await AsyncHTTPClientTransport.withTransport { transport in
                try await LabClient(baseURL: url, token: token, transport: transport).document(documentID)
                    .document
            }
            #expect(document.streams.map(\.id) == ["typed", "counted"])

            let test = CapturedConsole()
            try await command(["recordings", "test", id] + lab, as: RecordingsCommand.Test.self)
                .execute(console: test.console)
            #expect(test.output.contains("import Testing"))
            #expect(test.output.contains("@Test"))

            await #expect(throws: (any Error).self) {
                try await command(
                    ["recordings", "show", "no-such-recording"] + lab,
                    as: RecordingsCommand.Show.self
                )
                .execute(console: CapturedConsole().console)
            }
        }
    }

    @Test(arguments: [
        ["recordings", "document", "x", "--lanes", " , "], ["recordings", "show", "x", "--frame", "0"],
    ])
    func refusesBadArguments(arguments: [String]) {
        #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(arguments) }
    }
}
