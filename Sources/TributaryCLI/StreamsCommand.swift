import ArgumentParser
import Foundation
import TributaryStreams

/// `tributary streams`: validate, run and draw stream documents.
struct StreamsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams",
        abstract: "Validate, run and draw publisher pipelines described as JSON.",
        discussion: "Examples/streams/ holds documents to start from.",
        subcommands: [Run.self, Validate.self, New.self, Push.self, Pull.self, Watch.self]
    )

    /// Reads and checks the document at `path`; a problem is one line on stderr and exit
    /// code 1.
    static func document(at path: String, console: Console) throws -> StreamDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            console.note("error: cannot read \(path): \(FileError.reason(error)).")
            throw ExitCode.failure
        }
        do {
            return try StreamDocument.decode(data)
        } catch {
            console.note("error: \(path): \(error)")
            throw ExitCode.failure
        }
    }

    static func validate(frame: Double) throws {
        guard frame > 0, frame.isFinite else {
            throw ValidationError("--frame must be a positive number.")
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a document in virtual time and print its timeline."
        )

        @Argument(help: "The document, a JSON file.")
        var file: String

        @Flag(help: "Print each lane as marbles instead of a list of events.")
        var marbles = false

        @Option(help: "Seconds per marble character.")
        var frame = 1.0

        @Option(help: "Also draw the timeline as SVG into this file.")
        var svg: String?

        func validate() throws {
            try StreamsCommand.validate(frame: frame)
        }

        func run() throws {
            try execute(console: .standard)
        }

        func execute(console: Console) throws {
            let document = try StreamsCommand.document(at: file, console: console)
            let timeline = try StreamRunner().run(document)
            if marbles {
                do {
                    console.print(try TextLanes.render(timeline, document: document, frame: frame))
                } catch {
                    guard case .badValue(let reason) = error.kind else { throw error }
                    console.note("error: --frame \(frame): \(reason).")
                    throw ExitCode.failure
                }
            } else {
                for event in timeline.events {
                    console.print("\(String(format: "%8.3f", event.time))s  \(event.lane)  \(event.kind)")
                }
            }
            if let svg {
                do {
                    try Data(SVGRenderer.render(timeline, document: document).utf8)
                        .write(to: URL(fileURLWithPath: svg), options: .atomic)
                } catch {
                    console.note("error: cannot write \(svg): \(FileError.reason(error)).")
                    throw ExitCode.failure
                }
                console.note("Wrote \(svg).")
            }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a document and say what is wrong, and where."
        )

        @Argument(help: "The document, a JSON file.")
        var file: String

        func run() throws {
            try execute(console: .standard)
        }

        func execute(console: Console) throws {
            let document = try StreamsCommand.document(at: file, console: console)
            console.print(
                "\(file): valid, \(counted(document.streams.count, "stream")) and \(counted(document.nodes.count, "node"))."
            )
        }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a document from a marble diagram.")

        @Option(
            parsing: .unconditional,
            help: "The stream, in RxJS's marble notation, such as \"-1-2-3|\" or \"-a-^-b 10ms c|\"."
        )
        var marbles: String

        @Option(
            parsing: .unconditional,
            help: "When a subscriber subscribes (^) and unsubscribes (!), such as \"--^---!\"."
        )
        var subscription: String?

        @Option(
            name: .customLong("value"),
            help: ArgumentHelp(
                "What a character stands for, such as a=hello, b=10 or #=timeout (the failure's message).",
                valueName: "char=JSON or text"
            )
        )
        var values: [String] = []

        @Option(help: "Seconds per marble character.")
        var frame = 1.0

        @Option(help: "The stream's id.")
        var id = "input"

        func validate() throws {
            try StreamsCommand.validate(frame: frame)
            _ = try stream()
        }

        /// The stream the marbles describe; a diagram that is wrong is a wrong flag.
        private func stream() throws -> StreamDefinition {
            var table: [Character: StreamValue] = [:]
            for entry in values {
                let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].count == 1, let character = parts[0].first else {
                    throw ValidationError(
                        "--value \(entry): write one character, =, and its value, as in a=hello."
                    )
                }
                let text = String(parts[1])
                // A value that reads as JSON (10, true, "10") is that; anything else is text.
                table[character] =
                    (try? JSONDecoder().decode(StreamValue.self, from: Data(text.utf8))) ?? .string(text)
            }
            do {
                return try Marbles.parse(
                    marbles,
                    subscription: subscription,
                    frame: frame,
                    values: table,
                    id: id
                )
            } catch {
                throw ValidationError("\(error)")
            }
        }

        func run() throws {
            try execute(console: .standard)
        }

        func execute(console: Console) throws {
            let document = try StreamDocument(name: "From marbles \(marbles)", streams: [try stream()])
            console.printJSON(text: String(decoding: try document.encoded(), as: UTF8.self))
        }
    }
}
