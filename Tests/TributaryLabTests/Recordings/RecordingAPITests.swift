import Foundation
import HTTPTypes
import NIOWebSocket
import Testing
import Tributary
import TributaryLab
import TributaryLabWire
import TributaryStreams
import TributaryTestSupport

/// A recorder's batch as JSON text.
func batchText(first: Int, _ events: [RecordedLaneEvent], dropped: Int = 0) -> String {
    let batch = RecordingIngestBatch(first: first, events: events, dropped: dropped)
    return String(decoding: (try? JSONEncoder().encode(batch)) ?? Data(), as: UTF8.self)
}

/// Events `numbers` of `lane`, each valued its number, at its number of seconds, with a
/// structure of 16 KB: 200 of them make a batch of about 3 MB.
func structuredEvents(_ lane: String, _ numbers: Range<Int>) -> [RecordedLaneEvent] {
    let structure = "\"" + String(repeating: "x", count: 16_000) + "\""
    return numbers.map {
        RecordedLaneEvent(
            lane: lane,
            subscription: 1,
            kind: .value,
            value: "\($0)",
            t: Double($0),
            source: "",
            structure: structure
        )
    }
}

extension LabConnection {
    /// Where a recorder of `recording` (an id or a name) sends its events.
    func ingest(_ recording: String, recorder: UUID, withToken: Bool = true) -> LiveEndpoint {
        let segment = recording.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? recording
        return LiveEndpoint(
            url: "ws://127.0.0.1:\(base.port ?? 0)/api/recordings/\(segment)/ingest?recorder=\(recorder)",
            token: withToken ? token : nil
        )
    }

    /// `POST /api/recordings/{id}/document` of `lanes`, a JSON list.
    func document(ofLanes lanes: String, in id: String) async throws -> Answer {
        try await send(.post, "/api/recordings/\(id)/document", body: Data(#"{"lanes": \#(lanes)}"#.utf8))
    }

    /// Where a recording is watched live.
    func watch(_ id: String) -> LiveEndpoint {
        LiveEndpoint(url: "ws://127.0.0.1:\(base.port ?? 0)/api/recordings/\(id)/live", token: token)
    }

    /// Makes a recording named `name`; its id.
    func makeRecording(_ name: String) async throws -> String {
        let made = try await send(.post, "/api/recordings", body: Data(#"{"name": "\#(name)"}"#.utf8))
        #expect(made.status == 201)
        return try #require(made.json["id"] as? String)
    }
}

extension LiveViewer {
    /// The `next` of every `stored` answer so far.
    var storedNext: [Int] { messages(of: "stored").compactMap { $0["next"] as? Int } }

    /// The codes of the `invalid` answers so far.
    var invalidCodes: [String] {
        messages(of: "invalid").compactMap { ($0["error"] as? [String: Any])?["code"] as? String }
    }
}

/// `/api/recordings`: made, listed, read in pages and deleted, with the token.
@Suite(.timeLimit(.minutes(5)), .unsanitized("moves megabytes through a lab; runs in the plain pass"))
struct RecordingAPITests {
    @Test func makesListsPagesAndDeletesRecordings() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("search screen")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            recorder.send(batchText(first: 0, laneEvents("search", 25), dropped: 1))
            try await waitUntil { recorder.storedNext == [0, 25] }
            recorder.close()

            let list = try await lab.send(.get, "/api/recordings")
            let listed = try #require((list.json["recordings"] as? [[String: Any]])?.first)
            #expect(listed["id"] as? String == id && listed["name"] as? String == "search screen")
            #expect(listed["events"] as? Int == 25 && listed["dropped"] as? Int == 1)
            #expect(listed["updatedAt"] is String)

            var values: [String] = []
            var after: Int?
            var pages = 0
            repeat {
                let query = after.map { "&after=\($0)" } ?? ""
                let page = try await lab.send(.get, "/api/recordings/\(id)?limit=10\(query)")
                #expect(page.status == 200 && page.json["name"] as? String == "search screen")
                #expect(page.json["dropped"] as? Int == 1)
                let events = try #require(page.json["events"] as? [[String: Any]])
                values += events.compactMap { $0["value"] as? String }
                after = page.json["next"] as? Int
                pages += 1
            } while after != nil && pages < 10
            #expect(pages == 3 && values == (0..<25).map { "\($0)" })
            let whole = try await lab.send(.get, "/api/recordings/\(id)")
            #expect((whole.json["events"] as? [Any])?.count == 25 && whole.json["next"] is NSNull)

            #expect(try await lab.send(.get, "/api/recordings/\(id)?limit=0").errorCode == "badLimit")
            #expect(try await lab.send(.get, "/api/recordings/\(id)?after=x").errorCode == "badCursor")
            #expect(try await lab.send(.delete, "/api/recordings/\(id)").status == 204)
            #expect(try await lab.send(.get, "/api/recordings/\(id)").status == 404)
            #expect(try await lab.send(.delete, "/api/recordings/\(id)").status == 404)
        }
    }

    @Test(arguments: ["", String(repeating: "n", count: 101), "line\nbreak", "tab\there"])
    func refusesBadNames(_ name: String) async throws {
        try await withLab { lab in
            let body = try JSONSerialization.data(withJSONObject: ["name": name])
            let refused = try await lab.send(.post, "/api/recordings", body: body)
            #expect(refused.status == 400 && refused.errorCode == "badName")
            #expect(refused.errorMessage.contains("name"))
        }
    }

    @Test func refusesATakenNameAndABodyWithoutOne() async throws {
        try await withLab { lab in
            _ = try await lab.makeRecording("once")
            let again = try await lab.send(.post, "/api/recordings", body: Data(#"{"name": "once"}"#.utf8))
            #expect(again.status == 409 && again.errorCode == "nameTaken")
            let nameless = try await lab.send(.post, "/api/recordings", body: Data(#"{"title": "x"}"#.utf8))
            #expect(nameless.status == 400 && nameless.errorCode == "badRecording")
        }
    }

    /// Every route needs the token, the WebSockets before any upgrade.
    @Test func everyRouteNeedsTheToken() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("private")
            let recorder = UUID()
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/api/recordings"), (.post, "/api/recordings"), (.get, "/api/recordings/\(id)"),
                (.delete, "/api/recordings/\(id)"),
                (.get, "/api/recordings/\(id)/ingest?recorder=\(recorder)"),
                (.get, "/api/recordings/x/ingest?recorder=\(recorder)"), (.get, "/api/recordings/\(id)/live"),
            ]
            for (method, path) in routes {
                let refused = try await lab.send(method, path, authorized: false)
                #expect(refused.status == 401 && refused.errorCode == "unauthorized", "\(method) \(path)")
            }
            let anonymous = LiveViewer(lab.ingest(id, recorder: recorder, withToken: false))
            await anonymous.ended()
            #expect(anonymous.messages.isEmpty)
            #expect(try await lab.send(.get, "/api/recordings/\(id)").json["events"] as? [Any] != nil)
            #expect(try await lab.send(.get, "/api/recordings").json["recordings"] as? [Any] != nil)
            let noRecorder = try await lab.send(.get, "/api/recordings/\(id)/ingest")
            #expect(noRecorder.status == 400 && noRecorder.errorCode == "badRecorder")
        }
    }
}

/// `/api/recordings/{id or name}/ingest`: recorders' batches, each event stored once.
@Suite(.timeLimit(.minutes(5)), .unsanitized("moves megabytes through a lab; runs in the plain pass"))
struct RecordingIngestTests {
    /// A batch resent after a reconnection is stored once.
    @Test func storesABatchResentAfterAReconnectionOnce() async throws {
        try await withLab { lab in
            let recorder = UUID()
            let first = LiveViewer(lab.ingest("made on first use", recorder: recorder))
            try await waitUntil { first.storedNext == [0] }
            let id = try #require(first.messages(of: "stored").first?["recording"] as? String)
            first.send(batchText(first: 0, laneEvents("a", 3)))
            try await waitUntil { first.storedNext == [0, 3] }
            first.close()
            await first.ended()

            // By name again: the same recording, and the lab says how far it holds.
            let second = LiveViewer(lab.ingest("made on first use", recorder: recorder))
            try await waitUntil { second.storedNext == [3] }
            #expect(second.messages(of: "stored").first?["recording"] as? String == id)
            second.send(batchText(first: 0, laneEvents("a", 5)))
            try await waitUntil { second.storedNext == [3, 5] }
            second.close()

            let byID = LiveViewer(lab.ingest(id, recorder: recorder))
            try await waitUntil { byID.storedNext == [5] }
            byID.close()
            let read = try await lab.send(.get, "/api/recordings/\(id)")
            let values = (read.json["events"] as? [[String: Any]])?.compactMap { $0["value"] as? String }
            #expect(values == (0..<5).map { "\($0)" })
            #expect(try await lab.send(.get, "/api/recordings").json["recordings"] as? [Any] != nil)
        }
    }

    /// A batch that does not read, or leaves a gap, is refused whole; the connection stays.
    @Test func refusesAMalformedBatchWholeAndStaysOpen() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("strict")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            var badKind = batchText(first: 0, laneEvents("a", 2))
            badKind = badKind.replacingOccurrences(of: #""kind":"value""#, with: #""kind":"dance""#)
            var object = try #require(
                try JSONSerialization.jsonObject(with: Data(batchText(first: 0, laneEvents("a", 2)).utf8))
                    as? [String: Any]
            )
            object["first"] = nil
            let missing = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            let valueless = batchText(
                first: 0,
                laneEvents("a", 1) + [
                    RecordedLaneEvent(lane: "a", subscription: 1, kind: .value, t: 1, source: "")
                ]
            )
            for text in ["not json", badKind, missing, valueless, batchText(first: 4, laneEvents("a", 2))] {
                recorder.send(text)
            }
            try await waitUntil { recorder.invalidCodes.count == 5 }
            #expect(recorder.invalidCodes == Array(repeating: "invalidBatch", count: 5))
            let paths = recorder.messages(of: "invalid").map {
                ($0["error"] as? [String: Any])?["path"] as? String
            }
            #expect(paths.last == "$.first" && paths[3] == "$.events[1].value")
            #expect(
                (try await lab.send(.get, "/api/recordings/\(id)").json["events"] as? [Any])?.isEmpty == true
            )

            recorder.send(batchText(first: 0, laneEvents("a", 2)))
            try await waitUntil { recorder.storedNext == [0, 2] }
            recorder.close()
        }
    }

    /// Past the cap, what fits is stored and the recorder hears the recording is full.
    /// Counts past any recording, and texts longer than a recorder sends, are refused, so no
    /// sum overflows and nothing made from a recording grows without bound.
    @Test func refusesImpossibleCountsAndOverlongTexts() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("bounded")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            let long = String(repeating: "x", count: 4_097)
            let texts = [
                batchText(first: 0, laneEvents("a", 1), dropped: Int.max),
                batchText(first: Int.max, laneEvents("a", 1)),
                batchText(
                    first: 0,
                    [
                        RecordedLaneEvent(
                            lane: "a",
                            subscription: 1,
                            kind: .value,
                            value: long,
                            t: 1,
                            source: ""
                        )
                    ]
                ),
                batchText(
                    first: 0,
                    [RecordedLaneEvent(lane: long, subscription: 1, kind: .subscribed, t: 1, source: "")]
                ),
                batchText(
                    first: 0,
                    [RecordedLaneEvent(lane: "a", subscription: Int.max, kind: .subscribed, t: 1, source: "")]
                ),
                // A time no recorder reaches, which tests made from it could not count in milliseconds.
                batchText(
                    first: 0,
                    [RecordedLaneEvent(lane: "a", subscription: 1, kind: .subscribed, t: 1e300, source: "")]
                ),
            ]
            for text in texts { recorder.send(text) }
            try await waitUntil { recorder.invalidCodes.count == texts.count }
            let paths = recorder.messages(of: "invalid").map {
                ($0["error"] as? [String: Any])?["path"] as? String
            }
            #expect(
                paths == [
                    "$.dropped", "$.first", "$.events[0].value", "$.events[0].lane",
                    "$.events[0].subscription", "$.events[0].t",
                ]
            )
            // A whole recorder's worth of dropped events, twice, sums without overflowing.
            let most = 1 << 50
            recorder.send(batchText(first: 0, laneEvents("a", 1), dropped: most))
            recorder.send(batchText(first: 1, laneEvents("a", 1), dropped: most))
            try await waitUntil { recorder.storedNext.last == 2 }
            let other = LiveViewer(lab.ingest(id, recorder: UUID()))
            try await waitUntil { other.storedNext == [0] }
            other.send(batchText(first: 0, laneEvents("b", 1), dropped: most))
            try await waitUntil { other.storedNext.last == 1 }
            let read = try await lab.send(.get, "/api/recordings/\(id)")
            #expect(read.json["dropped"] as? Int == 2 * most)
            // The last cursor there could be is refused, not added to.
            #expect(try await lab.send(.get, "/api/recordings/\(id)?after=\(Int.max)").status == 400)
            recorder.close()
            other.close()
        }
    }

    /// A value's structure is JSON within the limits, on a value that is not cut; anything
    /// else is refused, naming the field, and nothing of the batch is stored.
    @Test func refusesStructuresThatAreNotJSONWithinTheLimits() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("structured")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            func value(
                _ structure: String?,
                kind: RecordedLaneEvent.Kind = .value,
                cut: Bool? = nil
            )
                -> String
            {
                batchText(
                    first: 0,
                    [
                        RecordedLaneEvent(
                            lane: "state",
                            subscription: 1,
                            kind: kind,
                            value: kind == .value ? "State()" : nil,
                            t: 1,
                            source: "",
                            structure: structure,
                            cut: cut
                        )
                    ]
                )
            }
            let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
            let long = "\"" + String(repeating: "x", count: LaneEncoding.labLimit) + "\""
            let texts = [
                value("{\"query\":"), value(deep), value(long), value("1", kind: .subscribed),
                value("1", cut: true), value(nil, kind: .finished, cut: true), value("[1,]"),
                value("\u{FEFF}{}"),
            ]
            for text in texts { recorder.send(text) }
            try await waitUntil { recorder.invalidCodes.count == texts.count }
            let paths = recorder.messages(of: "invalid").map {
                ($0["error"] as? [String: Any])?["path"] as? String
            }
            #expect(
                paths == [
                    "$.events[0].structure", "$.events[0].structure", "$.events[0].structure",
                    "$.events[0].structure", "$.events[0].structure", "$.events[0].cut",
                    "$.events[0].structure", "$.events[0].structure",
                ]
            )
            let fits = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
            recorder.send(value(fits))
            recorder.send(
                batchText(
                    first: 1,
                    [
                        RecordedLaneEvent(
                            lane: "state",
                            subscription: 1,
                            kind: .value,
                            value: "big",
                            t: 2,
                            source: "",
                            cut: true
                        )
                    ]
                )
            )
            try await waitUntil { recorder.storedNext.last == 2 }
            let page = try JSONDecoder().decode(
                RecordingPage.self,
                from: try await lab.send(.get, "/api/recordings/\(id)").body
            )
            #expect(page.events.map(\.structure) == [fits, nil])
            #expect(page.events.map(\.cut) == [nil, true])
            recorder.close()
        }
    }

    /// A page of large structured values ends at 8 MiB, not at its count, and says where to
    /// go on; paging to the end reads every event once.
    @Test func aPageOfLargeValuesEndsAtItsBytes() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("large values")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            let count = 1_200
            for start in stride(from: 0, to: count, by: 200) {
                recorder.send(batchText(first: start, structuredEvents("state", start..<(start + 200))))
                try await waitUntil { recorder.storedNext.last == start + 200 }
            }
            recorder.close()
            var read: [String] = []
            var after: Int?
            var pages = 0
            repeat {
                let answer = try await lab.send(
                    .get,
                    "/api/recordings/\(id)" + (after.map { "?after=\($0)" } ?? "")
                )
                #expect(answer.body.count <= 9 << 20)
                let page = try JSONDecoder().decode(RecordingPage.self, from: answer.body)
                read += page.events.compactMap(\.value)
                after = page.next
                pages += 1
            } while after != nil && pages < 10
            #expect(pages >= 2)
            #expect(read == (0..<count).map { "\($0)" })
        }
    }

    /// Lanes too large to replay are refused with a reason, not turned into a huge document or test.
    @Test func refusesToReplayLanesTooLargeToMakeIntoADocumentOrATest() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("large values")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            let value = String(repeating: "v", count: 4_096)
            for batch in 0..<6 {
                let events = (0..<50).map {
                    RecordedLaneEvent(
                        lane: "a",
                        subscription: 1,
                        kind: .value,
                        value: value,
                        t: Double(batch * 50 + $0),
                        source: ""
                    )
                }
                recorder.send(batchText(first: batch * 50, events))
            }
            try await waitUntil { recorder.storedNext.last == 300 }
            let made = try await lab.document(ofLanes: #"["a"]"#, in: id)
            #expect(made.status == 422 && made.errorCode == "recordingTooLarge")
            let test = try await lab.send(.get, "/api/recordings/\(id)/test.swift?input=a&output=a")
            #expect(test.status == 422 && test.errorCode == "recordingTooLarge")
            recorder.close()
        }
    }

    /// Replays past as many as the lab makes at once are answered `503 busy` at once, before
    /// their events are read; the others are drawn, and once they end a replay is made again.
    @Test func refusesReplaysPastAsManyAsItMakesAtOnce() async throws {
        var configuration = LabConfiguration()
        configuration.runs.replays = 1
        try await withLab(configuration: configuration) { lab in
            let id = try await lab.makeRecording("replayed at once")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            let (batches, size) = (4, 1_500)
            for batch in 0..<batches {
                let events = (0..<size).map {
                    RecordedLaneEvent(
                        lane: "a",
                        subscription: 1,
                        kind: .value,
                        value: "\(batch * size + $0)",
                        t: Double(batch * size + $0) / 1_000,
                        source: ""
                    )
                }
                recorder.send(batchText(first: batch * size, events))
            }
            try await waitUntil { recorder.storedNext.last == batches * size }
            recorder.close()
            let path = "/api/recordings/\(id)/diagram.svg"
            // A round whose replays all ended before the next began refuses none: tried again.
            var refused: [LabConnection.Answer] = []
            for _ in 0..<3 where refused.isEmpty {
                let answers = try await withThrowingTaskGroup(of: LabConnection.Answer.self) { group in
                    for _ in 0..<8 { group.addTask { try await lab.send(.get, path) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(
                    answers.allSatisfy { $0.status == 200 || $0.status == 503 },
                    "\(answers.map { "\($0.status) \($0.text.prefix(200))" })"
                )
                refused = answers.filter { $0.status == 503 }
                #expect(answers.contains { $0.status == 200 })
            }
            #expect(!refused.isEmpty)
            #expect(refused.allSatisfy { $0.errorCode == "busy" && $0.headers[.retryAfter] == "1" })
            #expect(try await lab.send(.get, path).status == 200)
        }
    }

    /// A recording of many lanes is turned into a diagram, a document or a test only for the
    /// lanes named, at most 256 of them: 10,000 one-event lanes had cost lanes × events.
    @Test func refusesToReplayMoreLanesThanADiagramCanShow() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("many lanes")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            let events = (0..<300).flatMap { laneEvents("lane\($0)", 1, start: $0) }
            recorder.send(batchText(first: 0, events))
            try await waitUntil { recorder.storedNext.last == 300 }
            let all = try await lab.send(.get, "/api/recordings/\(id)/diagram.svg")
            #expect(
                all.status == 422 && all.errorCode == "recordingTooLarge"
                    && all.errorMessage.contains("300 lanes")
            )
            let some = try await lab.send(.get, "/api/recordings/\(id)/diagram.svg?lanes=lane1,lane299")
            #expect(some.status == 200 && some.text.contains("lane299"))
            recorder.close()
        }
    }

    /// A recorder's newer connection takes over; the older one's next batch is refused aloud,
    /// not taken for a resend and dropped.
    @Test func letsARecordersNewestConnectionTakeOver() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("one voice")
            let same = UUID()
            let older = LiveViewer(lab.ingest(id, recorder: same))
            try await waitUntil { older.storedNext == [0] }
            let newer = LiveViewer(lab.ingest(id, recorder: same))
            try await waitUntil { newer.storedNext == [0] }
            older.send(batchText(first: 0, laneEvents("a", 3)))
            try await waitUntil { older.invalidCodes == ["superseded"] }
            newer.send(batchText(first: 0, laneEvents("b", 2)))
            try await waitUntil { newer.storedNext.last == 2 }
            let values =
                (try await lab.send(.get, "/api/recordings/\(id)").json["events"] as? [[String: Any]])?
                .map { $0["lane"] as? String }
            #expect(values == ["b", "b"])
            older.close()
            newer.close()
        }
    }

    @Test func answersFullPastTheCap() async throws {
        var configuration = LabConfiguration()
        configuration.maximumRecordingEvents = 4
        try await withLab(configuration: configuration) { lab in
            let recorder = LiveViewer(lab.ingest("capped", recorder: UUID()))
            try await waitUntil { recorder.storedNext == [0] }
            recorder.send(batchText(first: 0, laneEvents("a", 3)))
            recorder.send(batchText(first: 3, laneEvents("a", 3, start: 3)))
            try await waitUntil { !recorder.messages(of: "full").isEmpty }
            let full = try #require(recorder.messages(of: "full").first)
            #expect(full["next"] as? Int == 4)
            #expect((full["error"] as? [String: Any])?["code"] as? String == "recordingFull")
            let id = try #require(full["recording"] as? String)
            #expect((try await lab.send(.get, "/api/recordings/\(id)").json["events"] as? [Any])?.count == 4)
            recorder.close()
        }
    }

    /// Batches sent faster than the lab stores them, whole or cut into frames, are each stored
    /// once and in order: the connection stops reading while two batches' bytes wait, and reads
    /// on as they are handled, never waiting for the rest of a batch it has stopped reading.
    @Test func storesBatchesSentFasterThanTheyAreHandled() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("fast")
            let (batches, size) = (6, 200)
            for (lane, frameSize) in [("whole", 8 << 20), ("cut", 1 << 20)] {
                let recorder = LiveViewer(lab.ingest(id, recorder: UUID()), maxFrameSize: frameSize)
                try await waitUntil { recorder.storedNext == [0] }
                for start in stride(from: 0, to: batches * size, by: size) {
                    recorder.send(batchText(first: start, structuredEvents(lane, start..<(start + size))))
                }
                try await waitUntil { recorder.storedNext.count == batches + 1 }
                #expect(recorder.storedNext == Array(stride(from: 0, through: batches * size, by: size)))
                recorder.close()
            }
            let recording = try await lab.send(.get, "/api/recordings")
            let listed = (recording.json["recordings"] as? [[String: Any]])?.first {
                $0["id"] as? String == id
            }
            #expect(listed?["events"] as? Int == 2 * batches * size)
            // 38 MB of events, far fewer than the most a replay takes, are refused by their
            // bytes before they are read.
            let drawn = try await lab.send(.get, "/api/recordings/\(id)/diagram.svg")
            #expect(drawn.status == 422 && drawn.errorCode == "recordingTooLarge")
            #expect(drawn.text.contains("bytes"))
        }
    }

    /// A message past the limit ends the connection with 1009 and a reason.
    @Test func closesOnAnOversizedMessage() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("flooded")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()), maxFrameSize: 1 << 20)
            try await waitUntil { recorder.storedNext == [0] }
            recorder.send(String(repeating: " ", count: 5 << 20))
            let closing = await recorder.ended()
            #expect(closing?.code == .messageTooLarge)
            #expect(closing?.reason?.contains("at most") == true)
            // In one frame, it is turned away as the frame arrives.
            let unfragmented = LiveViewer(lab.ingest(id, recorder: UUID()), maxFrameSize: 8 << 20)
            try await waitUntil { unfragmented.storedNext == [0] }
            unfragmented.send(String(repeating: " ", count: 5 << 20))
            #expect(await unfragmented.ended()?.code == .messageTooLarge)
            #expect(
                (try await lab.send(.get, "/api/recordings/\(id)").json["events"] as? [Any])?.isEmpty == true
            )
        }
    }
}

/// `/api/recordings/{id}/live`: the snapshot, then the events as they are stored.
@Suite(.timeLimit(.minutes(5)))
struct RecordingLiveTests {
    @Test func aViewerSeesTheSnapshotThenEveryEventOnceThenTheDeletion() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("watched")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            recorder.send(batchText(first: 0, laneEvents("a", 2)))
            try await waitUntil { recorder.storedNext == [0, 2] }

            let viewer = LiveViewer(lab.watch(id))
            try await waitUntil { !viewer.messages(of: "snapshot").isEmpty }
            let snapshot = try #require(viewer.messages(of: "snapshot").first)
            #expect(snapshot["name"] as? String == "watched" && snapshot["truncated"] as? Int == 0)
            #expect((snapshot["events"] as? [Any])?.count == 2)

            recorder.send(batchText(first: 2, laneEvents("a", 3, start: 2), dropped: 7))
            recorder.send(batchText(first: 2, laneEvents("a", 3, start: 2), dropped: 7))
            try await waitUntil { recorder.storedNext == [0, 2, 5, 5] }
            try await waitUntil { !viewer.messages(of: "events").isEmpty }
            let events = try #require(viewer.messages(of: "events").first)
            #expect(events["first"] as? Int == 2 && events["dropped"] as? Int == 7)
            #expect(
                (events["events"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == [
                    "2", "3", "4",
                ]
            )

            #expect(try await lab.send(.delete, "/api/recordings/\(id)").status == 204)
            try await waitUntil { !viewer.messages(of: "deleted").isEmpty }
            await viewer.ended()
            #expect(viewer.messages(of: "events").count == 1)
            recorder.close()

            // Read as the lab sends it: a client library can lose a connection that ends as
            // soon as it is upgraded, before its handler sees the message.
            let missing = try await RawConnection.webSocket(
                "/api/recordings/\(id)/live",
                port: lab.base.port ?? 0,
                token: lab.token
            )
            #expect(missing.hasPrefix("HTTP/1.1 101") && missing.contains(#"{"type":"notFound"}"#))
        }
    }
}

extension RecordingLiveTests {
    /// A snapshot of a recording too long for a viewer's buffer holds its latest events and says
    /// how many it leaves out; what follows continues from there.
    @Test func aSnapshotOfALongRecordingHoldsItsLatestEvents() async throws {
        var configuration = LabConfiguration()
        configuration.viewerBufferBytes = 1 << 20
        try await withLab(configuration: configuration) { lab in
            let id = try await lab.makeRecording("long")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            recorder.send(batchText(first: 0, laneEvents("a", 8_000)))
            try await waitUntil { recorder.storedNext == [0, 8_000] }
            let viewer = LiveViewer(lab.watch(id))
            try await waitUntil { !viewer.messages(of: "snapshot").isEmpty }
            let snapshot = try #require(viewer.messages(of: "snapshot").first)
            let events = try #require(snapshot["events"] as? [[String: Any]])
            let truncated = try #require(snapshot["truncated"] as? Int)
            #expect(
                truncated > 0 && truncated + events.count == 8_000 && snapshot["first"] as? Int == truncated
            )
            #expect(events.last?["value"] as? String == "7999")
            recorder.send(batchText(first: 8_000, laneEvents("a", 1, start: 8_000)))
            try await waitUntil { !viewer.messages(of: "events").isEmpty }
            #expect(viewer.messages(of: "events").first?["first"] as? Int == 8_000)
            viewer.close()
            recorder.close()
        }
    }
}

/// Lanes turned into a stream document, a diagram and a test.
@Suite(.timeLimit(.minutes(5)), .unsanitized("moves megabytes through a lab; runs in the plain pass"))
struct RecordingDocumentTests {
    /// Lane `a` has two subscriptions, one after the other, that both end; lane `b` fails; `c` is
    /// never asked for.
    static let events = [
        RecordedLaneEvent(lane: "a", subscription: 1, kind: .subscribed, t: 1, source: "App.swift:1"),
        RecordedLaneEvent(lane: "b", subscription: 1, kind: .subscribed, t: 1.1, source: "App.swift:2"),
        RecordedLaneEvent(
            lane: "b",
            subscription: 1,
            kind: .value,
            value: "true",
            t: 1.6,
            source: "App.swift:2"
        ),
        RecordedLaneEvent(lane: "a", subscription: 1, kind: .value, value: "1", t: 2, source: "App.swift:1"),
        RecordedLaneEvent(
            lane: "a",
            subscription: 1,
            kind: .value,
            value: "x \"y\"",
            t: 2.4,
            source: "App.swift:1"
        ),
        RecordedLaneEvent(
            lane: "b",
            subscription: 1,
            kind: .failed,
            error: "boom",
            t: 2.9,
            source: "App.swift:2"
        ),
        RecordedLaneEvent(lane: "a", subscription: 1, kind: .finished, t: 3, source: "App.swift:1"),
        RecordedLaneEvent(lane: "a", subscription: 2, kind: .subscribed, t: 3.2, source: "App.swift:1"),
        RecordedLaneEvent(
            lane: "a",
            subscription: 2,
            kind: .value,
            value: "later",
            t: 3.5,
            source: "App.swift:1"
        ),
        RecordedLaneEvent(lane: "a", subscription: 2, kind: .finished, t: 3.6, source: "App.swift:1"),
        RecordedLaneEvent(lane: "c", subscription: 1, kind: .value, value: "2", t: 0, source: "App.swift:3"),
    ]

    /// A lab with the recording "replayed" made of ``events``, for `body`.
    func withRecording(
        _ configuration: LabConfiguration = LabConfiguration(),
        _ body: @Sendable (LabConnection, String) async throws -> Void
    ) async throws {
        try await withLab(configuration: configuration) { lab in
            let id = try await lab.makeRecording("replayed")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            recorder.send(batchText(first: 0, Self.events))
            try await waitUntil { recorder.storedNext == [0, Self.events.count] }
            recorder.close()
            try await body(lab, id)
        }
    }

    @Test func makesAStreamDocumentOfTheLanes() async throws {
        try await withRecording { lab, id in
            let made = try await lab.send(
                .post,
                "/api/recordings/\(id)/document",
                body: Data(#"{"lanes": ["a", "b", "a"], "frame": 0.5}"#.utf8)
            )
            #expect(made.status == 201)
            let document = try #require(made.json["id"] as? String)
            let read = try await lab.send(.get, "/api/streams/\(document)")
            let body = try JSONSerialization.data(withJSONObject: try #require(read.json["document"]))
            let expected = try StreamDocument(
                name: "replayed",
                description: "Recorded lanes a, b.",
                streams: [
                    StreamDefinition(
                        id: "a",
                        items: [
                            StreamItem(.integer(1), delay: 1), StreamItem(.string("x \"y\""), delay: 0.5),
                            StreamItem(.string("later"), delay: 1),
                        ],
                        ending: .finished(after: 0)
                    ),
                    StreamDefinition(
                        id: "b",
                        items: [StreamItem(.boolean(true), delay: 0.5)],
                        ending: .failed(after: 1.5, message: "boom")
                    ),
                ]
            )
            #expect(try StreamDocument.decode(body) == expected)
        }
    }

    /// Documents and tests are made of a recording on the run threads, as runs are: with those
    /// taken, they are refused at once, not made on the threads that answer requests.
    @Test(
        .unsanitized("CPU-bound; its logic runs in the plain pass")
    ) func makesDocumentsAndTestsOnTheRunThreads() async throws {
        // Long enough that the runs still hold the threads when a loaded machine gets round
        // to the requests below.
        try await withRecording(.oneRunThread(runningFor: .seconds(3))) { lab, id in
            // The runs fill the thread and its queue; the two requests sent at once after the
            // first refusal find them full, unless a loaded machine let the runs end first,
            // when the round is tried again. Made on the threads that answer requests, they
            // would never be refused.
            var refusedBoth = false
            for _ in 0..<3 where !refusedBoth {
                let refused = Locked(0)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<3 {
                        group.addTask {
                            let body = HostileTests.wideZip(inputs: 2_000, values: 400)
                            let answer = try await lab.send(.post, "/api/run", body: body)
                            if answer.status == 503 { refused.withLock { $0 += 1 } }
                        }
                    }
                    try await waitUntil { refused.current >= 1 }
                    async let made = lab.document(ofLanes: #"["a"]"#, in: id)
                    async let test = lab.send(.get, "/api/recordings/\(id)/test.swift?input=a&output=b")
                    let (document, source) = try await (made, test)
                    refusedBoth =
                        document.status == 503 && document.errorCode == "busy"
                        && source.status == 503 && source.headers[.retryAfter] == "1"
                    try await group.waitForAll()
                }
            }
            #expect(refusedBoth)
            let made = try await lab.document(ofLanes: #"["a"]"#, in: id)
            #expect(made.status == 201)
        }
    }

    @Test func refusesUnknownLanesNamingThem() async throws {
        try await withRecording { lab, id in
            let refused = try await lab.send(
                .post,
                "/api/recordings/\(id)/document",
                body: Data(#"{"lanes": ["a", "nope", "nada"]}"#.utf8)
            )
            #expect(refused.status == 400 && refused.errorCode == "unknownLanes")
            #expect(refused.errorMessage.contains("\"nope\", \"nada\""))
            let none = try await lab.send(
                .post,
                "/api/recordings/\(id)/document",
                body: Data(#"{"lanes": []}"#.utf8)
            )
            #expect(none.status == 400)
            let test = try await lab.send(.get, "/api/recordings/\(id)/test.swift?input=a&output=zz")
            #expect(test.status == 400 && test.errorMessage.contains("\"zz\""))
        }
    }

    @Test func drawsTheLanes() async throws {
        try await withRecording { lab, id in
            let drawn = try await lab.send(.get, "/api/recordings/\(id)/diagram.svg?lanes=a,b&frame=0.5")
            #expect(drawn.status == 200 && drawn.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(
                drawn.text.hasPrefix("<svg") && drawn.text.contains("replayed") && drawn.text.contains("boom")
            )
            #expect(try await lab.send(.get, "/api/recordings/\(id)/diagram.svg").status == 200)
            let unknown = try await lab.send(.get, "/api/recordings/\(id)/diagram.svg?lanes=q")
            #expect(unknown.status == 400)
            #expect(
                try await lab.send(.get, "/api/recordings/\(id)/diagram.svg", authorized: false).status == 401
            )
        }
    }

    @Test func writesATestThatReplaysTheInputAndExpectsTheOutput() async throws {
        try await withRecording { lab, id in
            let source = try await lab.send(
                .get,
                "/api/recordings/\(id)/test.swift?input=a&output=b&frame=0.5"
            )
            #expect(source.status == 200 && source.headers[.contentType]?.hasPrefix("text/x-swift") == true)
            #expect(source.text == Self.expectedSource.replacingOccurrences(of: "RECORDING", with: id))
        }
    }

    /// A frame a test cannot count in, or a document wait in, is refused; the lab answers on.
    @Test(arguments: ["0", "-1", "NaN", "1e-300", "0.0009", "86401", "1e16", "1e308", "inf"])
    func refusesAFrameNoTestOrDocumentCanUse(frame: String) async throws {
        try await withRecording { lab, id in
            let test = try await lab.send(
                .get,
                "/api/recordings/\(id)/test.swift?input=a&output=b&frame=\(frame)"
            )
            #expect(test.status == 400 && test.text.contains("badFrame"), "\(test.text)")
            let drawn = try await lab.send(.get, "/api/recordings/\(id)/diagram.svg?lanes=a&frame=\(frame)")
            #expect(drawn.status == 400)
            #expect(try await lab.send(.get, "/api/health").status == 200)
        }
    }

    /// The test made of a recording in which the search box's lane, typed, went through a
    /// 300 ms debounce into lane settled: with its pipeline filled in, it is the source of
    /// `recordedLanesReplay` in TributaryTestingTests, compiled and run with the suites.
    @Test func writesATestThatCompilesAndPassesOnceItsPipelineIsFilledIn() async throws {
        try await withLab { lab in
            let id = try await lab.makeRecording("search box")
            let recorder = LiveViewer(lab.ingest(id, recorder: UUID()))
            func event(
                _ lane: String,
                _ kind: RecordedLaneEvent.Kind,
                _ value: String?,
                _ t: Double
            ) -> RecordedLaneEvent {
                RecordedLaneEvent(
                    lane: lane,
                    subscription: 1,
                    kind: kind,
                    value: value,
                    t: t,
                    source: "Search.swift:9"
                )
            }
            let events = [
                event("typed", .subscribed, nil, 10), event("settled", .subscribed, nil, 10),
                event("typed", .value, "s", 10.1), event("typed", .value, "sw", 10.3),
                event("settled", .value, "sw", 10.6), event("typed", .value, "swift", 11),
                event("settled", .value, "swift", 11.3),
            ]
            recorder.send(batchText(first: 0, events))
            try await waitUntil { recorder.storedNext == [0, events.count] }
            recorder.close()
            let made = try await lab.send(
                .get,
                "/api/recordings/\(id)/test.swift?input=typed&output=settled&frame=0.1"
            )
            #expect(made.status == 200)
            let filledIn = made.text
                .replacingOccurrences(of: "(\(id))", with: "(RECORDING)")
                .replacingOccurrences(
                    of: "    input.eraseToAnyPublisher()\n",
                    with:
                        "    input.debounce(for: .milliseconds(300), scheduler: scheduler).eraseToAnyPublisher()\n"
                )
            // Tests/TributaryLabTests/Recordings/ → Tests/TributaryTestingTests/
            let compiled = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
                .appending(path: "TributaryTestingTests/RecordedLanesTests.swift")
            #expect(filledIn == (try String(contentsOf: compiled, encoding: .utf8)))
        }
    }

    static let expectedSource = #"""
        // Made by the Tributary lab from recording "replayed" (RECORDING).
        // Lane "a" goes into `pipeline`; lane "b" is what came out.

        import CombineSchedulers
        import Foundation
        import Testing
        import Tributary
        import TributaryTesting

        /// The failure of a recorded lane, with the message it was recorded with.
        struct RecordedFailure: Error, Equatable {
            var message: String
        }

        /// The pipeline that turned lane "a" into lane "b": fill it in.
        func pipeline(
            _ input: AnyPublisher<String, RecordedFailure>,
            scheduler: AnySchedulerOf<DispatchQueue>
        ) -> AnyPublisher<String, RecordedFailure> {
            input.eraseToAnyPublisher()
        }

        @Test func recordedLanesReplay() {
            let test = MarbleTest(frame: .milliseconds(500))
            let input = test.hot(
                "--ab-(c|)",
                values: ["a": "1", "b": "x \"y\"", "c": "later"]
            )
            .setFailureType(to: RecordedFailure.self)
            test.expect(
                pipeline(input.eraseToAnyPublisher(), scheduler: test.scheduler),
                toBe: "-d--#",
                values: ["d": "true"],
                error: RecordedFailure(message: "boom")
            )
        }

        """#
}
