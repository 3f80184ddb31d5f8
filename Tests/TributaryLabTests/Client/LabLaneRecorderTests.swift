import Foundation
import Testing
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryLab
import TributaryLabClient
import TributaryLabWire
import TributaryTestSupport

@Suite struct LabLaneRecorderTests {
    @Test(.timeLimit(.minutes(5)))
    func keepsTheAppRunningAndCountsWhatItDropsWithTheLabGone() async throws {
        // Port 1 on loopback: nothing listens there, so every connection is refused.
        let recorder = LabLaneRecorder(
            lab: URL(string: "http://127.0.0.1:1")!,
            token: "test-token-0123456789",
            recording: "nowhere",
            capacity: 100
        )
        let subject = PassthroughSubject<Int, Never>()
        let total = Locked(0)
        let cancellable = subject.lane("gone", recorder: recorder).sink { value in
            total.withLock { $0 += value }
        }
        for value in 1...1_000 { subject.send(value) }
        cancellable.cancel()

        #expect(total.current == 500_500)
        // Subscribed, the demand and 98 values fit; the other 902 values and the cancellation do not.
        #expect(recorder.dropped == 903)
        // Nothing was stored, and the recorder says why: nothing answered.
        try await waitUntil { recorder.connectionProblem != nil }
        let error = await #expect(throws: LabLaneRecorder.Error.self) {
            try await recorder.flush(timeout: .milliseconds(300))
        }
        guard case .unreachable(let reason) = error else {
            Issue.record("\(String(describing: error)) names no reason")
            return
        }
        #expect(reason.hasPrefix("nothing answered at 127.0.0.1:1 "))
        #expect(reason.hasSuffix("is the lab running there?"))
    }

    /// A recorder whose token the lab refuses says so when asked to flush, rather than only
    /// that the time ran out.
    @Test(.timeLimit(.minutes(5)))
    func saysTheLabRefusedItsToken() async throws {
        try await withLab { lab in
            let recorder = LabLaneRecorder(
                lab: lab.base,
                token: "not-the-token-0123456789",
                recording: "refused"
            )
            let cancellable = Just(1).lane("refused", recorder: recorder).sink { _ in }
            try await waitUntil { recorder.connectionProblem != nil }
            let error = await #expect(throws: LabLaneRecorder.Error.self) {
                try await recorder.flush(timeout: .milliseconds(500))
            }
            cancellable.cancel()
            #expect(
                error?.description
                    == "The lab stored none of the events: the lab at \(lab.base.host ?? ""):\(lab.base.port ?? 0) refused the recorder's connection: is the token the one it printed?"
            )
        }
    }
}

/// A recorder that hands each event to several, so a test can compare what reached the lab
/// with what happened.
private struct Both: LaneRecording {
    let recorders: [any LaneRecording]
    let began: ContinuousClock.Instant

    func record(_ event: LaneEvent) {
        for recorder in recorders { recorder.record(event) }
    }
}

@Suite(.timeLimit(.minutes(5)), .unsanitized("moves megabytes through a lab; runs in the plain pass"))
struct LabLaneRecorderIngestTests {
    private func client(_ lab: LabConnection) -> LabClient {
        LabClient(baseURL: lab.base, token: lab.token, transport: lab.transport, retryPolicy: .never)
    }

    @Test func storesEveryEventOfAPipelineInOrder() async throws {
        try await withLab { lab in
            let recorder = LabLaneRecorder(lab: lab.base, token: lab.token, recording: "search screen")
            let memory = LaneMemory()
            let both = Both(recorders: [memory, recorder], began: recorder.began)
            let subject = PassthroughSubject<String, Never>()
            let cancellable = subject.lane("typed", recorder: both)
                .map { $0.uppercased() }
                .lane("shouted", recorder: both)
                .sink { _ in }
            for text in ["s", "sw", "swi", "swift"] { subject.send(text) }
            subject.send(completion: .finished)
            cancellable.cancel()
            try await recorder.flush()

            let client = client(lab)
            let listed = try await client.recordings()
            let summary = try #require(listed.first { $0.name == "search screen" })
            #expect(summary.events == memory.events.count)
            let recording = try await client.recording(summary.id)
            #expect(recording.events.map(\.kind) == memory.events.map(\.kind))
            #expect(recording.events.map(\.lane) == memory.events.map(\.lane))
            #expect(recording.lanes == ["typed", "shouted"])
            // Times survive the trip to within a microsecond.
            for (stored, happened) in zip(recording.events, memory.events) {
                let apart =
                    stored.time > happened.time ? stored.time - happened.time : happened.time - stored.time
                #expect(apart < .microseconds(1))
            }
            #expect(recording.memory.marbles(lane: "shouted", frame: .seconds(1)) == "(abcd|)")
            #expect(recording.memory.marbleValues(lane: "shouted")["d"] == "SWIFT")
        }
    }

    /// Eight threads send at once; every event is stored once, each subscription in order.
    /// A structured lane's values reach the lab with their JSON, and come back from it with it;
    /// a value too large for the lab comes back as its description, cut.
    @Test func storesAStructuredLanesJSONAndMarksWhatWasCut() async throws {
        try await withLab { lab in
            let recorder = LabLaneRecorder(lab: lab.base, token: lab.token, recording: "state")
            let memory = LaneMemory()
            let both = Both(recorders: [memory, recorder], began: recorder.began)
            let subject = PassthroughSubject<[String: [String]], Never>()
            let cancellable = subject.lane("state", encoding: .json(limit: 1 << 20), recorder: both)
                .sink { _ in }
            subject.send(["query": ["s"]])
            subject.send(["query": ["sw"], "results": ["Swift 6"]])
            subject.send(["query": Array(repeating: String(repeating: "x", count: 100), count: 200)])
            cancellable.cancel()
            try await recorder.flush(timeout: .seconds(240))

            let client = client(lab)
            let summary = try #require(try await client.recordings().first { $0.name == "state" })
            let stored = try await client.recording(summary.id).events.compactMap(\.structure)
            let kept = memory.events.compactMap(\.structure)
            #expect(stored.count == 3 && kept.count == 3)
            #expect(Array(stored.prefix(2)) == Array(kept.prefix(2)))
            #expect(stored.last == .cut)
            guard case .json(let large)? = kept.last else {
                Issue.record("the recorder's own memory keeps the large value's JSON")
                return
            }
            #expect(large.utf8.count > LaneEncoding.labLimit)
        }
    }

    @Test func storesWhatManyThreadsSendAtOnce() async throws {
        try await withLab { lab in
            let recorder = LabLaneRecorder(lab: lab.base, token: lab.token, recording: "threads")
            let perThread = 2_500
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let subject = PassthroughSubject<Int, Never>()
                let cancellable = subject.lane("busy", recorder: recorder).sink { _ in }
                for value in 0..<perThread { subject.send(value) }
                subject.send(completion: .finished)
                cancellable.cancel()
            }
            try await recorder.flush(timeout: .seconds(240))
            #expect(recorder.dropped == 0)
            let client = client(lab)
            let id = try #require(try await client.recordings().first { $0.name == "threads" }?.id)
            let recording = try await client.recording(id)
            #expect(recording.events.count == 8 * (perThread + 3))
            for (_, events) in Dictionary(grouping: recording.events, by: \.subscription) {
                let values = events.compactMap { event -> Int? in
                    if case .value(let value) = event.kind { return Int(value) }
                    return nil
                }
                #expect(values == Array(0..<perThread))
            }
        }
    }

    /// The lab goes away and comes back on the same port and database: the recorder resends
    /// what the lab had not confirmed, and nothing is stored twice.
    @Test func resumesAfterTheLabRestartsWithoutDuplicates() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appending(path: "lab.sqlite").path
        let token = "test-token-0123456789"
        let port = try await {
            let lab = LabServer(store: try SQLiteDocumentStore(path: database), token: token)
            return try await lab.withRunning { url in url.port ?? 0 }
        }()
        let base = URL(string: "http://127.0.0.1:\(port)")!
        let recorder = LabLaneRecorder(lab: base, token: token, recording: "restarts")
        @Sendable func send(_ values: Range<Int>) {
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.lane("counted", recorder: recorder).sink { _ in }
            for value in values { subject.send(value) }
            cancellable.cancel()
        }
        try await LabServer(store: try SQLiteDocumentStore(path: database), token: token).withRunning(
            port: port
        ) { _ in
            send(0..<500)
            try await recorder.flush()
        }
        send(500..<1_000)  // while the lab is down
        try await LabServer(store: try SQLiteDocumentStore(path: database), token: token).withRunning(
            port: port
        ) { url in
            try await recorder.flush(timeout: .seconds(20))
            try await AsyncHTTPClientTransport.withTransport { transport in
                let client = LabClient(baseURL: url, token: token, transport: transport, retryPolicy: .never)
                let id = try #require(try await client.recordings().first { $0.name == "restarts" }?.id)
                let values = try await client.recording(id).events.compactMap { event -> Int? in
                    if case .value(let value) = event.kind { return Int(value) }
                    return nil
                }
                #expect(values == Array(0..<1_000))
            }
        }
        #expect(recorder.dropped == 0)
    }

    /// A thousand values of 100 KB each: cut to 4,096 characters, and sent in batches the lab
    /// takes, rather than one message over its 4 MiB.
    @Test func clipsLongValuesAndBoundsBatchesInBytes() async throws {
        try await withLab { lab in
            let recorder = LabLaneRecorder(lab: lab.base, token: lab.token, recording: "long values")
            let long = String(repeating: "é", count: 100_000)
            let subject = PassthroughSubject<String, Never>()
            let cancellable = subject.lane("", recorder: recorder).sink { _ in }
            for _ in 0..<1_000 { subject.send(long) }
            cancellable.cancel()
            // 16 MB through the lab: on a machine whose cores are busy elsewhere this takes its
            // time, so the limit here is only for a hang.
            try await recorder.flush(timeout: .seconds(240))
            #expect(recorder.dropped == 0)
            let id = try #require(try await client(lab).recordings().first { $0.name == "long values" }?.id)
            let events = try await client(lab).recording(id).events
            #expect(events.count == 1_003)
            let values = events.compactMap { event -> String? in
                if case .value(let value) = event.kind { return value }
                return nil
            }
            #expect(values.count == 1_000)
            #expect(values.allSatisfy { $0.unicodeScalars.count == 4_096 && $0.hasSuffix("…") })
            #expect(Set(events.map(\.lane)) == ["lane"])
        }
    }

    @Test func saysWhenTheRecordingIsFull() async throws {
        var configuration = LabConfiguration()
        configuration.maximumRecordingEvents = 100
        try await withLab(configuration: configuration) { lab in
            let recorder = LabLaneRecorder(lab: lab.base, token: lab.token, recording: "small")
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.lane("many", recorder: recorder).sink { _ in }
            for value in 0..<250 { subject.send(value) }
            cancellable.cancel()
            await #expect(throws: LabLaneRecorder.Error.self) { try await recorder.flush() }
            #expect(recorder.dropped == 253 - 100)
            let summary = try #require(try await client(lab).recordings().first { $0.name == "small" })
            #expect(summary.events == 100)
        }
    }

    @Test func sendsNothingWithoutTheToken() async throws {
        try await withLab { lab in
            let recorder = LabLaneRecorder(
                lab: lab.base,
                token: "not-the-token-0123456789",
                recording: "intruder"
            )
            let cancellable = Just(1).lane("sneaky", recorder: recorder).sink { _ in }
            cancellable.cancel()
            await #expect(throws: LabLaneRecorder.Error.self) {
                try await recorder.flush(timeout: .milliseconds(500))
            }
            let listed = try await client(lab).recordings()
            #expect(listed.isEmpty)
        }
    }
}
