import ArgumentParser
import Foundation
import Tributary
import TributaryLabClient
import TributaryLabWire

/// `tributary recordings`: the lanes apps recorded into a lab.
struct RecordingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordings",
        abstract: "Read the lanes apps recorded into a lab, and turn them into documents and tests.",
        discussion: """
            An app records with the lane operator and a LabLaneRecorder; `tributary lab --record` \
            records the lab's own news reader into "lab news".
            """,
        subcommands: [List.self, Show.self, Document.self, Test.self]
    )

    /// The id of the recording `given` names: `given` itself when it is an id the lab knows,
    /// else the id of the recording of that name, as recorders name them.
    static func resolve(_ given: String, _ client: LabClient) async throws -> String {
        let recordings = try await client.recordings()
        if recordings.contains(where: { $0.id == given }) { return given }
        return recordings.first { $0.name == given }?.id ?? given
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the lab's recordings.")

        @Flag(help: "Print the lab's JSON for each recording instead of a line.")
        var json = false

        @OptionGroup var options: StreamsCommand.LabOptions

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let recordings = try await options.withClient { client in try await client.recordings() }
            if json {
                try console.printJSON(recordings)
                return
            }
            if recordings.isEmpty {
                console.note("The lab holds no recordings yet.")
                return
            }
            for recording in recordings {
                let dropped = recording.dropped > 0 ? ", \(recording.dropped) dropped" : ""
                console.print(
                    "\(recording.id)  \(recording.name)  \(recording.events) event\(recording.events == 1 ? "" : "s")\(dropped)"
                )
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Print a recording's events, or with --marbles each subscription of each lane as marbles.",
            discussion: """
                With --diff, a value of a lane that keeps structure (lane(_:encoding:)) is followed \
                by what changed from the subscription's value before it, a path a line, in the \
                order of their keys: "~ query: \"s\" → \"sw\"" (changed), "+ results[2]: …" \
                (added), "- error: …" (removed); "= …" is the whole value, for the first of its \
                subscription or one after a value whose JSON was not kept.
                """
        )

        @Argument(help: "The recording's id or name.")
        var id: String

        @Flag(help: "Print each lane as an RxJS marble diagram instead of event by event.")
        var marbles = false

        @Flag(help: "Under each structured value, print what changed from the one before it.")
        var diff = false

        @Option(help: "Seconds one marble character stands for.")
        var frame = 0.1

        @OptionGroup var options: StreamsCommand.LabOptions

        func validate() throws {
            guard frame.isFinite, frame >= 0.000_001, frame <= 3_600 else {
                throw ValidationError("--frame is from 0.000001 to 3600 seconds.")
            }
            if diff, marbles {
                throw ValidationError("--diff prints events one by one; it does not go with --marbles.")
            }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let id = id
            let recording = try await options.withClient { client in
                try await client.recording(try await RecordingsCommand.resolve(id, client))
            }
            console.print(
                "\(recording.name): \(counted(recording.events.count, "event")), \(recording.dropped) dropped"
            )
            guard marbles else {
                var changes = Self.Changes()
                for event in recording.events {
                    console.print(Self.line(event))
                    guard diff else { continue }
                    for line in changes.lines(after: event) { console.print(line) }
                }
                return
            }
            let memory = recording.memory
            let frame = Duration.nanoseconds(Int64(frame * 1e9))
            // Every subscription of a lane is a line of its own, from its own start; a lane of one
            // subscription is headed by its name alone. Names are cut to 40 characters, so that
            // one long name does not pad every line.
            let rows = recording.lanes.flatMap { lane in
                let name = lane.count > 40 ? String(lane.prefix(39)) + "…" : lane
                let events = memory.events(lane: lane)
                var subscriptions: [Int] = []
                for event in events where !subscriptions.contains(event.subscription) {
                    subscriptions.append(event.subscription)
                }
                return subscriptions.map { subscription in
                    let start = events.first { $0.subscription == subscription }?.time ?? .zero
                    return (
                        lane: lane,
                        label: subscriptions.count == 1 ? name : "\(name) #\(subscription)",
                        marbles: memory.marbles(lane: lane, frame: frame, subscription: subscription)
                            + (subscriptions.count == 1
                                ? "" : String(format: "  (from %.3f s)", Self.seconds(start))),
                        last: subscription == subscriptions.last
                    )
                }
            }
            let width = rows.map(\.label.count).max() ?? 0
            for row in rows {
                let padded = row.label + String(repeating: " ", count: width - row.label.count)
                console.print("\(padded)  \(row.marbles)")
                guard row.last else { continue }
                for (letter, value) in memory.marbleValues(lane: row.lane).sorted(by: { $0.key < $1.key }) {
                    console.print(
                        "\(String(repeating: " ", count: width))    \(letter) = \(Self.shown(value))"
                    )
                }
            }
        }

        /// A time since the recorder began, in seconds.
        static func seconds(_ time: Duration) -> Double {
            Double(time.components.seconds) + Double(time.components.attoseconds) * 1e-18
        }

        /// Each subscription's latest structured value, to print the next one's changes from.
        struct Changes {
            private var latest: [String: [Int: String]] = [:]

            /// The lines printed under `event`: its changes from the subscription's value before,
            /// the whole value for its first, or why there is none. Nothing for other events.
            mutating func lines(after event: LaneEvent) -> [String] {
                let indent = String(repeating: " ", count: 14)
                switch event.structure {
                case nil: return []
                case .cut?:
                    latest[event.lane]?[event.subscription] = nil
                    return ["\(indent)(its JSON was over the lane's limits: only its description was kept)"]
                case .json(let json)?:
                    defer { latest[event.lane, default: [:]][event.subscription] = json }
                    guard let before = latest[event.lane]?[event.subscription] else {
                        return [Self.visible("\(indent)= \(LaneChange.shortened(json, most: 400))")]
                    }
                    guard let changes = LaneChange.changes(from: before, to: json) else {
                        return ["\(indent)(not JSON that can be compared)"]
                    }
                    guard !changes.isEmpty else { return ["\(indent)(unchanged)"] }
                    // A value's JSON is at most 16 KiB, yet its changes may run to thousands of
                    // paths; the first 200 are printed, and how many more there are.
                    let shown = changes.prefix(200).map { Self.visible("\(indent)\($0)") }
                    return changes.count > 200
                        ? shown + ["\(indent)… and \(changes.count - 200) more"] : shown
                }
            }

            private static func visible(_ line: String) -> String {
                line.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
            }
        }

        /// A recorded value as it is printed: an empty one as `""`, so that it reads as a value.
        static func shown(_ value: String) -> String { value.isEmpty ? #""""# : value }

        static func line(_ event: LaneEvent) -> String {
            let what: String =
                switch event.kind {
                case .subscribed: "subscribed"
                case .requested(let demand): "requested \(demand.max.map(String.init) ?? "unlimited")"
                case .value(let value): "value \(Self.shown(value))"
                case .finished: "finished"
                case .failed(let error): "failed: \(error)"
                case .cancelled: "cancelled"
                }
            // One event a line: a line break in what the app recorded is shown, not obeyed.
            let line = "\(event.lane) #\(event.subscription)  \(what)  (\(event.source))"
                .replacingOccurrences(of: "\r", with: "\\r")
                .replacingOccurrences(of: "\n", with: "\\n")
            return String(format: "%10.3f s  ", Self.seconds(event.time)) + line
        }
    }

    struct Document: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a stream document of some lanes' values at their recorded times; prints its id."
        )

        @Argument(help: "The recording's id or name.")
        var id: String

        @Option(help: "The lanes that become streams, separated by commas.")
        var lanes: String

        @Option(help: "Round times to this many seconds.")
        var frame: Double?

        @OptionGroup var options: StreamsCommand.LabOptions

        var laneNames: [String] {
            lanes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        func validate() throws {
            guard !laneNames.isEmpty else { throw ValidationError("--lanes names at least one lane.") }
            if let frame, !frame.isFinite || frame <= 0 {
                throw ValidationError("--frame is a number of seconds above zero.")
            }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let (id, lanes, frame) = (id, laneNames, frame)
            let made = try await options.withClient { client in
                try await client.document(
                    fromRecording: try await RecordingsCommand.resolve(id, client),
                    lanes: lanes,
                    frame: frame
                )
            }
            console.printJSON(text: made)
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Print a Swift Testing test that replays a recording's input lane and expects its output lane."
        )

        @Argument(help: "The recording's id or name.")
        var id: String

        @Option(help: "The lane fed into the pipeline under test; the recording's first lane by default.")
        var input: String?

        @Option(help: "The lane the pipeline should reproduce; the recording's last lane by default.")
        var output: String?

        @OptionGroup var options: StreamsCommand.LabOptions

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let (id, input, output) = (id, input, output)
            let source = try await options.withClient { client in
                let id = try await RecordingsCommand.resolve(id, client)
                let lanes = (input == nil || output == nil) ? try await client.recording(id).lanes : []
                guard let input = input ?? lanes.first, let output = output ?? lanes.last else {
                    throw ValidationError("The recording \(id) has no lanes yet.")
                }
                return try await client.test(forRecording: id, input: input, output: output)
            }
            console.print(source)
        }
    }
}
