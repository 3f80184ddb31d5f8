import ArgumentParser
import Foundation
import Testing
import TributaryStreams
import TributaryTestSupport

@testable import TributaryCLI

@Suite(
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
) struct StreamsCommandTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/streams")

    @Test func runsADocumentAsMarblesAndDrawsItAsSVG() throws {
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("streams-\(UUID()).svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        let file = Self.examples.appendingPathComponent("map-filter-scan.json").path
        let command = try #require(
            try TributaryCommand.parseAsRoot(["streams", "run", file, "--marbles", "--svg", svg.path])
                as? StreamsCommand.Run
        )
        let capture = CapturedConsole()
        try command.execute(console: capture.console)
        #expect(capture.output.hasPrefix("numbers                    -123(4|)\n"))
        #expect(capture.errors == "Wrote \(svg.path).\n")
        let drawing = try String(contentsOf: svg, encoding: .utf8)
        #expect(drawing.contains("<title id=\"title\">Map, filter and scan</title>"))
    }

    @Test func validatesAndSaysWhereADocumentIsWrong() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: bad) }
        try Data(
            #"{"schemaVersion": 1, "streams": [], "nodes": [{"id": "n", "operator": "map", "input": "x", "expression": "$0"}]}"#
                .utf8
        )
        .write(to: bad)
        let capture = CapturedConsole()
        let good = try #require(
            try TributaryCommand.parseAsRoot([
                "streams", "validate", Self.examples.appendingPathComponent("serial.json").path,
            ])
                as? StreamsCommand.Validate
        )
        try good.execute(console: capture.console)
        #expect(capture.output.hasSuffix("valid, 1 stream and 0 nodes.\n"))
        let failing = try #require(
            try TributaryCommand.parseAsRoot(["streams", "validate", bad.path]) as? StreamsCommand.Validate
        )
        #expect(throws: ExitCode.failure) { try failing.execute(console: capture.console) }
        #expect(capture.errors == "error: \(bad.path): $.nodes[0].input: \"x\" names no stream or node.\n")
    }

    @Test func givesTheSystemsReasonForAFileItCannotUse() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streams-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.json").path
        let svg = directory.appendingPathComponent("missing/drawing.svg").path
        let example = Self.examples.appendingPathComponent("serial.json").path
        for (arguments, message) in [
            (["validate", missing], "error: cannot read \(missing): No such file or directory.\n"),
            (["validate", directory.path], "error: cannot read \(directory.path): Is a directory.\n"),
            (["run", example, "--svg", svg], "error: cannot write \(svg): No such file or directory.\n"),
        ] {
            let capture = CapturedConsole()
            #expect(throws: ExitCode.failure) {
                switch try TributaryCommand.parseAsRoot(["streams"] + arguments) {
                case let command as StreamsCommand.Validate: try command.execute(console: capture.console)
                case let command as StreamsCommand.Run: try command.execute(console: capture.console)
                case let command: Issue.record("unexpected command \(command)")
                }
            }
            #expect(capture.errors == message)
        }
    }

    @Test func refusesFramesItCannotUse() throws {
        let example = Self.examples.appendingPathComponent("serial.json").path
        let run = try #require(
            try TributaryCommand.parseAsRoot(["streams", "run", example, "--marbles", "--frame", "1e-300"])
                as? StreamsCommand.Run
        )
        let capture = CapturedConsole()
        #expect(throws: ExitCode.failure) { try run.execute(console: capture.console) }
        #expect(capture.output.isEmpty)
        #expect(
            capture.errors.hasPrefix("error: --frame 1e-300: drawing 4.0 seconds at 1e-300 seconds a frame")
        )

        for arguments in [["--frame", "0"], ["--frame", "nan"], ["--frame", "inf"]] {
            #expect(throws: (any Error).self, "\(arguments)") {
                try TributaryCommand.parseAsRoot(["streams", "new", "--marbles", "-1|"] + arguments)
            }
        }
        let far = #expect(throws: (any Error).self) {
            try TributaryCommand.parseAsRoot(["streams", "new", "--marbles", "-1|", "--frame", "1e300"])
        }
        #expect(
            far.map { TributaryCommand.fullMessage(for: $0) }?.contains("reaches past 86400 seconds") == true
        )
    }

    @Test func makesADocumentFromMarbles() throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot(["streams", "new", "--marbles", "-1-2-3|"])
                as? StreamsCommand.New
        )
        let capture = CapturedConsole()
        try command.execute(console: capture.console)
        let document = try StreamDocument.decode(Data(capture.output.utf8))
        #expect(document.streams == [try Marbles.parse("-1-2-3|", id: "input")])
    }

    /// A diagram is a value however it begins, and whether it follows its option or is joined
    /// to it; a subscription and a value table come the same way.
    @Test(
        arguments: [
            (["--marbles", "---a|"], "---a|", nil),
            (["--marbles=---a|"], "---a|", nil),
            (["--marbles", "--"], "--", nil),
            (["--marbles", "-1-2|", "--frame", "0.5"], "-1-2|", nil),
            (["--subscription", "---^-!", "--marbles", "-a-^-b-c-d|"], "-a-^-b-c-d|", "---^-!"),
        ] as [([String], String, String?)]
    )
    func takesMarblesThatStartWithDashes(arguments: [String], marbles: String, subscription: String?) throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot(
                TributaryCommand.attachingMarbles(["streams", "new"] + arguments)
            )
                as? StreamsCommand.New
        )
        let capture = CapturedConsole()
        try command.execute(console: capture.console)
        let document = try StreamDocument.decode(Data(capture.output.utf8))
        let frame = arguments.contains("0.5") ? 0.5 : 1
        #expect(
            document.streams == [
                try Marbles.parse(marbles, subscription: subscription, frame: frame, id: "input")
            ]
        )
    }

    @Test func readsAValueTableForTheMarbles() throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot(
                TributaryCommand.attachingMarbles([
                    "streams", "new", "--marbles", "-a-b-#", "--value", "a=hello", "--value", "b=10",
                    "--value", "#=timeout",
                ])
            ) as? StreamsCommand.New
        )
        let capture = CapturedConsole()
        try command.execute(console: capture.console)
        let stream = try #require(try StreamDocument.decode(Data(capture.output.utf8)).streams.first)
        #expect(stream.items.map(\.value) == ["hello", 10])
        #expect(stream.ending == .failed(after: 2, message: "timeout"))
        #expect(throws: (any Error).self) {
            try TributaryCommand.parseAsRoot(["streams", "new", "--marbles", "-a|", "--value", "ab=1"])
        }
    }

    /// Only `streams new` takes diagrams: `streams run --marbles` stays a flag.
    @Test func leavesOtherCommandsArgumentsAlone() {
        let arguments = ["streams", "run", "x.json", "--marbles", "--frame", "2"]
        #expect(TributaryCommand.attachingMarbles(arguments) == arguments)
    }
}
