import Foundation
import HTTPTypes
import Testing
import TributaryLab
import TributaryLabWire
import TributaryTestSupport

/// A recording as one file — exported, imported into a lab, refused line by line when it is
/// wrong — and as a Chrome trace.
@Suite(.timeLimit(.minutes(5)))
struct RecordingFilesTests {
    /// Two lanes' events as a recorder sends them: a search box's query and the request it
    /// caused, one subscription that fails, and one still open when the recording ends.
    static let events: [RecordedLaneEvent] = [
        .init(lane: "query", subscription: 1, kind: .subscribed, t: 0.1, source: "Search.swift:14"),
        .init(
            lane: "query",
            subscription: 1,
            kind: .requested,
            demand: .unlimited,
            t: 0.1,
            source: "Search.swift:14"
        ),
        .init(lane: "request", subscription: 1, kind: .subscribed, t: 0.2, source: "Search.swift:20"),
        .init(
            lane: "request",
            subscription: 1,
            kind: .requested,
            demand: .max(2),
            t: 0.2,
            source: "Search.swift:20"
        ),
        .init(
            lane: "query",
            subscription: 1,
            kind: .value,
            value: "swift \"6\"\n",
            t: 0.3,
            source: "Search.swift:14"
        ),
        .init(lane: "request", subscription: 1, kind: .value, value: "", t: 0.35, source: "Search.swift:20"),
        .init(
            lane: "request",
            subscription: 1,
            kind: .failed,
            error: "timed out",
            t: 0.5,
            source: "Search.swift:20"
        ),
        .init(lane: "request", subscription: 2, kind: .subscribed, t: 0.6, source: "Search.swift:20"),
    ]

    /// A structured lane: a value kept as JSON, and one whose JSON was cut.
    static let structured: [RecordedLaneEvent] = [
        .init(lane: "state", subscription: 1, kind: .subscribed, t: 0.7, source: "Model.swift:9"),
        .init(
            lane: "state",
            subscription: 1,
            kind: .value,
            value: #"State(query: "sw")"#,
            t: 0.71,
            source: "Model.swift:9",
            structure: #"{"query":"sw","results":["a \"b\""]}"#
        ),
        .init(
            lane: "state",
            subscription: 1,
            kind: .value,
            value: "State(query: \"swift\", …)",
            t: 0.72,
            source: "Model.swift:9",
            cut: true
        ),
    ]

    /// Two recorders storing into one recording interleave their times; its file imports, as
    /// each subscription's events are in order.
    @Test func importsTheFileOfARecordingThatTwoRecordersFilled() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("two recorders")
            let first = LiveViewer(lab.ingest(id, recorder: UUID()))
            let second = LiveViewer(lab.ingest(id, recorder: UUID()))
            first.send(batchText(first: 0, laneEvents("a", 2, start: 0)))
            try await waitUntil { first.storedNext.last == 2 }
            second.send(
                batchText(
                    first: 0,
                    [RecordedLaneEvent(lane: "b", subscription: 1, kind: .subscribed, t: 0, source: "")]
                )
            )
            try await waitUntil { second.storedNext.last == 1 }
            first.close()
            second.close()
            let export = try await lab.send(.get, "/api/recordings/\(id)/export")
            let imported = try await Self.importing(export.body, into: lab)
            #expect(imported.status == 201, "\(imported.text)")
            #expect(imported.json["events"] as? Int == 3)
        }
    }

    /// A publisher that sends past its end is recorded so, exported so and imported back so.
    @Test func keepsAnEventAfterItsSubscriptionEndedThroughAFile() async throws {
        try await withLab { lab in
            let events = [(RecordedLaneEvent.Kind.subscribed, nil), (.finished, nil), (.value, "late")]
                .enumerated().map { index, event in
                    RecordedLaneEvent(
                        lane: "a",
                        subscription: 1,
                        kind: event.0,
                        value: event.1,
                        t: Double(index),
                        source: ""
                    )
                }
            let id = try await Self.recorded("unruly", events: events, dropped: 0, in: lab)
            let export = try await lab.send(.get, "/api/recordings/\(id)/export")
            let imported = try await Self.importing(export.body, into: lab)
            #expect(imported.status == 201, "\(imported.text)")
            let newID = try #require(imported.json["id"] as? String)
            let page = try await lab.send(.get, "/api/recordings/\(newID)")
            #expect(try JSONDecoder().decode(RecordingPage.self, from: page.body).events == events)
        }
    }

    /// A structured lane's JSON and cut marks survive a file's round trip, byte for byte.
    @Test func keepsAStructuredLanesJSONThroughAFile() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("state")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            recorder.send(batchText(first: 0, Self.structured))
            try await waitUntil { recorder.storedNext == [0, Self.structured.count] }
            recorder.close()
            let export = try await lab.send(.get, "/api/recordings/\(id)/export")
            let lines = export.text.split(separator: "\n").map(String.init)
            #expect(lines[2].contains(#""structure":"{\"query\":"#) && lines[3].hasPrefix(#"{"cut":true,"#))
            let imported = try await Self.importing(export.body, into: lab)
            #expect(imported.status == 201, "\(imported.text)")
            let newID = try #require(imported.json["id"] as? String)
            let page = try await lab.send(.get, "/api/recordings/\(newID)")
            #expect(try JSONDecoder().decode(RecordingPage.self, from: page.body).events == Self.structured)
            // The trace carries the JSON as an object on the value's instant.
            let trace = try await lab.send(.get, "/api/recordings/\(id)/trace.json")
            let events = try #require(try JSONSerialization.jsonObject(with: trace.body) as? [String: Any])
            let values = (events["traceEvents"] as? [[String: Any]] ?? []).filter {
                $0["cat"] as? String == "value"
            }
            let json = values.compactMap { ($0["args"] as? [String: Any])?["json"] as? [String: Any] }
            #expect(json.count == 1 && json.first?["query"] as? String == "sw")
        }
    }

    /// Makes a recording named `name` holding `events` and saying `dropped` were dropped; its id.
    static func recorded(
        _ name: String,
        events: [RecordedLaneEvent] = events,
        dropped: Int = 3,
        in lab: LabConnection
    ) async throws -> String {
        let id = try await lab.makeRecording(name)
        let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
        recorder.send(batchText(first: 0, events, dropped: dropped))
        try await waitUntil { recorder.storedNext == [0, events.count] }
        recorder.close()
        return id
    }

    static func importing(_ file: Data, into lab: LabConnection) async throws -> LabConnection.Answer {
        try await lab.send(
            .post,
            "/api/recordings/import",
            body: file,
            headers: [.contentType: "application/x-ndjson"]
        )
    }

    @Test func exportsARecordingAndImportsItBackEventForEvent() async throws {
        try await withLab { lab in
            let id = try await Self.recorded("bug report", in: lab)
            let export = try await lab.send(.get, "/api/recordings/\(id)/export")
            #expect(export.status == 200)
            #expect(export.headers[.contentType] == "application/x-ndjson")
            #expect(
                export.headers[.contentDisposition] == #"attachment; filename="bug-report.tributary.ndjson""#
            )
            let lines = export.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == Self.events.count + 2 && lines.last == "")
            let header = try JSONDecoder().decode(RecordingFileHeader.self, from: Data(lines[0].utf8))
            #expect(header == RecordingFileHeader(name: "bug report", events: Self.events.count, dropped: 3))
            let written = try lines[1...Self.events.count].map { try RecordedLaneEvent(json: Data($0.utf8)) }
            #expect(written == Self.events)

            // The name is taken in this lab: the import is "bug report (2)", the same events.
            let imported = try await Self.importing(export.body, into: lab)
            #expect(imported.status == 201, "\(imported.text)")
            #expect(imported.json["name"] as? String == "bug report (2)")
            #expect(
                imported.json["events"] as? Int == Self.events.count && imported.json["dropped"] as? Int == 3
            )
            let newID = try #require(imported.json["id"] as? String)
            #expect(imported.headers[.location] == "/api/recordings/\(newID)")
            let page = try await lab.send(.get, "/api/recordings/\(newID)")
            let read = try JSONDecoder().decode(RecordingPage.self, from: page.body)
            #expect(read.events == Self.events)
            // A file from elsewhere, with CRLF line ends and no newline at its end, reads the same.
            let crlf = Data(export.text.dropLast().replacingOccurrences(of: "\n", with: "\r\n").utf8)
            let again = try await Self.importing(crlf, into: lab)
            #expect(again.status == 201 && again.json["name"] as? String == "bug report (3)", "\(again.text)")
            // A line is read only as far as a line can be long.
            let endless =
                Data(export.text.split(separator: "\n")[0].utf8) + Data("\n".utf8)
                + Data(repeating: 0x20, count: 3_000_000)
            let long = try await Self.importing(endless, into: lab)
            #expect(
                long.status == 422 && long.errorMessage.hasPrefix("Line 2 is longer than"),
                "\(long.text)"
            )
        }
    }

    @Test func refusesAWrongFileNamingItsLineAndKeepsNothing() async throws {
        var configuration = LabConfiguration()
        configuration.maximumImportBytes = 4_096
        configuration.maximumRecordingEvents = 50
        try await withLab(configuration: configuration) { lab in
            let id = try await Self.recorded("original", in: lab)
            let whole = try await lab.send(.get, "/api/recordings/\(id)/export").text
            var lines = whole.split(separator: "\n").map(String.init)
            func file(_ lines: [String]) -> Data { Data((lines.joined(separator: "\n") + "\n").utf8) }
            func replacing(_ index: Int, with line: String) -> Data {
                var changed = lines
                changed[index] = line
                return file(changed)
            }
            let header = lines[0]
            var cases: [(String, Data, String)] = [
                (
                    "cut short", file(Array(lines.dropLast(2))),
                    "Line 8 is missing: the file ends after 6 of the 8 events"
                ),
                (
                    "another version",
                    replacing(
                        0,
                        with: header.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)
                    ),
                    "Line 1 is of version 2 of the format; this lab reads version 1."
                ),
                (
                    "another format",
                    replacing(0, with: header.replacingOccurrences(of: "tributary-recording", with: "har")),
                    "Line 1 names the format “har”"
                ),
                ("no header", file(Array(lines.dropFirst())), "Line 1 is not a recording's first line"),
                (
                    "a subscription begun twice", replacing(3, with: lines[1]),
                    "Line 4 begins subscription #1 of lane “query” a second time."
                ),
                (
                    "out of order",
                    replacing(5, with: lines[5].replacingOccurrences(of: #""t":0.3"#, with: #""t":0.05"#)),
                    "Line 6 happened at 0.05 s, before an earlier line of subscription #1 of lane “query” (0.1 s)"
                ),
                (
                    "not an event", replacing(2, with: #"{"lane":"query"}"#),
                    "Line 3 is not an event: subscription is missing. (at $.subscription)"
                ),
                ("not JSON", replacing(2, with: "{"), "Line 3 is not an event, {"),
                ("an empty line", replacing(2, with: ""), "Line 3 is empty"),
                (
                    "cut inside a line",
                    Data((lines[0...6].joined(separator: "\n") + "\n" + lines[7].prefix(20)).utf8),
                    "Line 8 is cut short: the file ends inside it, after 6 of the 8 events"
                ),
                (
                    "a negative dropped count",
                    replacing(
                        0,
                        with: header.replacingOccurrences(of: #""dropped":3"#, with: #""dropped":-5"#)
                    ),
                    "Line 1 gives dropped as -5"
                ),
                (
                    "more than promised", file(lines + [lines[8]]),
                    "Line 10 is one event more than the 8 the first line promises."
                ),
                (
                    "more than a recording keeps",
                    replacing(
                        0,
                        with: header.replacingOccurrences(of: #""events":8"#, with: #""events":51"#)
                    ),
                    "Line 1 promises 51 events; a recording keeps from 0 to 50."
                ),
                (
                    "too large", file(lines + Array(repeating: lines[8], count: 40)),
                    "the lab imports files of at most 4,096 bytes."
                ),
            ]
            var invalid = Array(lines[2].utf8)
            invalid.insert(contentsOf: [0xFF, 0xFE], at: 10)
            cases.append(
                (
                    "not UTF-8", file(Array(lines[0...1])) + Data(invalid) + Data("\n".utf8),
                    "Line 3 is not UTF-8 text."
                )
            )
            lines.removeAll()
            for (name, body, message) in cases {
                let answer = try await Self.importing(body, into: lab)
                #expect(
                    answer.status == (name == "too large" ? 413 : 422),
                    "\(name): \(answer.text)"
                )
                #expect(answer.errorMessage.contains(message), "\(name): \(answer.errorMessage)")
                let list = try await lab.send(.get, "/api/recordings")
                #expect((list.json["recordings"] as? [Any])?.count == 1, "\(name) left a recording")
            }
            let json = try await lab.send(.post, "/api/recordings/import", body: Data(whole.utf8))
            #expect(json.status == 415 && json.errorCode == "notRecordingFile")
            let anonymous = try await lab.send(
                .post,
                "/api/recordings/import",
                body: Data(whole.utf8),
                authorized: false,
                headers: [.contentType: "application/x-ndjson"]
            )
            #expect(anonymous.status == 401)
        }
    }

    /// A file that stops arriving is answered, naming the line it stopped before, and one sent
    /// chunked past the limit is refused as too large: neither leaves anything.
    @Test func answersAFileThatStallsOrGrowsPastTheLimit() async throws {
        var configuration = LabConfiguration()
        configuration.maximumImportBytes = 4_096
        // The 408 comes after the 10 s stall and the recording's deletion; on a loaded machine
        // those had taken past the 15 s idle timeout, which closed the connection first.
        configuration.idleTimeout = .seconds(60)
        try await withLab(configuration: configuration) { lab in
            let id = try await Self.recorded("original", in: lab)
            let lines = try await lab.send(.get, "/api/recordings/\(id)/export").text.split(separator: "\n")
            let port = lab.base.port ?? 0
            let head =
                "POST /api/recordings/import HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(lab.token)\r\n"
                + "Content-Type: application/x-ndjson\r\n"
            let stalled = try RawConnection(port: port)
            let sent = lines[0...1].joined(separator: "\n") + "\n"
            stalled.send(head + "Content-Length: 4000\r\n\r\n" + sent)
            let answer = await stalled.readUntil(timeout: .seconds(60)) { $0.contains("}}") }
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(
                answer.contains("Line 3 did not arrive: the file stopped coming for 10 s"),
                "\(answer)"
            )

            let chunked = try RawConnection(port: port)
            chunked.send(head + "Transfer-Encoding: chunked\r\n\r\n")
            let first = lines[0] + "\n"
            chunked.send(String(first.utf8.count, radix: 16) + "\r\n" + first + "\r\n")
            let spaces = String(repeating: " ", count: 1_000)
            for _ in 0..<5 { chunked.send(String(spaces.utf8.count, radix: 16) + "\r\n" + spaces + "\r\n") }
            let refused = await chunked.readUntil(timeout: .seconds(60)) { $0.contains("}}") }
            #expect(
                refused.hasPrefix("HTTP/1.1 413") && refused.contains("goes past 4,096 bytes"),
                "\(refused)"
            )

            let list = try await lab.send(.get, "/api/recordings")
            #expect((list.json["recordings"] as? [Any])?.count == 1)
        }
    }

    /// The trace's every event against the format's documented fields: `ph`, `name`, `pid`,
    /// `ts` in microseconds, `tid` on a track, `id` pairing async `b` and `e`, `s` on instants,
    /// numbers as counters' values.
    @Test func writesATraceThatTraceViewersOpen() async throws {
        try await withLab { lab in
            let id = try await Self.recorded("traced", in: lab)
            let answer = try await lab.send(.get, "/api/recordings/\(id)/trace.json")
            #expect(answer.status == 200 && answer.headers[.contentType] == "application/json")
            let trace = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(trace["displayTimeUnit"] as? String == "ms")
            let events = try #require(trace["traceEvents"] as? [[String: Any]])
            var open: [String: String] = [:]
            var slices: [(name: String, begin: Int, end: Int, ended: String)] = []
            var begins: [String: Int] = [:]
            for event in events {
                let phase = try #require(event["ph"] as? String)
                #expect(["M", "b", "e", "i", "C"].contains(phase), "\(event)")
                #expect(event["name"] is String && event["pid"] as? Int == 1, "\(event)")
                if phase != "M" { #expect(event["ts"] is Int, "\(event)") }
                if phase != "C" { #expect(event["tid"] is Int, "\(event)") }
                let name = event["name"] as? String ?? ""
                switch phase {
                case "b":
                    let key = "\(event["cat"] ?? "")/\(event["id"] ?? "")"
                    #expect(open[key] == nil, "begun twice: \(event)")
                    open[key] = name
                    begins[key] = event["ts"] as? Int
                case "e":
                    let key = "\(event["cat"] ?? "")/\(event["id"] ?? "")"
                    #expect(open.removeValue(forKey: key) == name, "ended unbegun: \(event)")
                    let ended = (event["args"] as? [String: Any])?["end"] as? String ?? ""
                    slices.append((name, begins[key] ?? -1, event["ts"] as? Int ?? -1, ended))
                case "i":
                    #expect(event["s"] as? String == "t", "\(event)")
                case "C":
                    let values = try #require(event["args"] as? [String: Any])
                    #expect(!values.isEmpty && values.values.allSatisfy { $0 is Int }, "\(event)")
                default:
                    break
                }
            }
            #expect(open.isEmpty)
            #expect(
                slices.map { "\($0.name) \($0.begin)–\($0.end) \($0.ended)" }.sorted() == [
                    "query #1 100000–600000 still subscribed",
                    "request #1 200000–500000 failed",
                    "request #2 600000–600000 still subscribed",
                ]
            )
            let tracks = events.filter { $0["name"] as? String == "thread_name" }
                .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
            #expect(tracks == ["query", "request"])
            let values = events.filter { $0["ph"] as? String == "i" && $0["name"] as? String == "value" }
                .compactMap { ($0["args"] as? [String: Any])?["value"] as? String }
            #expect(values == ["swift \"6\"\n", ""])
            let demand = events.filter { $0["ph"] as? String == "C" }
                .compactMap { ($0["args"] as? [String: Any])?["outstanding"] as? Int }
            #expect(demand == [2, 1, 0])
            #expect(events.contains { $0["name"] as? String == "requested unlimited" })
        }
    }
}
