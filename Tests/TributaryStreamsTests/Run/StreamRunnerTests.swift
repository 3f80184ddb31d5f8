import CombineSchedulers
import Foundation
import Testing
import Tributary

@testable import TributaryStreams

@Suite struct StreamRunnerTests {
    private func values(_ timeline: Timeline, _ lane: String) -> [String] {
        timeline.events(in: lane).map { "\($0.time):\($0.kind)" }
    }

    @Test func runsEveryOperatorInVirtualTime() throws {
        let document = try StreamDocument.decode(Data(StreamDocumentTests.example.utf8))
        let timeline = try StreamRunner().run(document)
        #expect(!timeline.isTruncated)
        #expect(values(timeline, "numbers") == ["1.0:1", "2.0:2", "3.0:3", "4.0:4", "4.0:finished"])
        #expect(values(timeline, "doubled") == ["1.0:2", "2.0:4", "3.0:6", "4.0:8", "4.0:finished"])
        #expect(values(timeline, "big") == ["2.0:4", "3.0:6", "4.0:8", "4.0:finished"])
        #expect(values(timeline, "sum") == ["2.0:4", "3.0:10", "4.0:18", "4.0:finished"])
        #expect(values(timeline, "letters") == ["1.5:a", "3.5:b", "4.5:finished"])
        #expect(
            values(timeline, "pairs") == [
                "2.0:[2, a, 4]", "3.0:[3, a, 4]", "3.0:[3, a, 10]", "3.5:[3, b, 10]", "4.0:[4, b, 10]",
                "4.0:[4, b, 18]",
                "4.5:finished",
            ]
        )
        // Debounce publishes each value after half a second of quiet; the last is still
        // waiting when its input finishes, and finishing does not publish it.
        #expect(values(timeline, "quiet") == ["1.5:1", "2.5:2", "3.5:3", "4.0:finished"])
        #expect(timeline.lanes == document.ids)
    }

    /// The same inputs through hand-written Combine chains give the same events.
    @Test func matchesHandWrittenCombineChains() throws {
        let a = StreamDefinition.series("a", [1, 2, 3, 4, 5], spacing: 1)
        let b = StreamDefinition.series("b", ["x", "y"], spacing: 2)
        let cases:
            [(
                StreamOperator, [String],
                (
                    AnyPublisher<StreamValue, StreamFailure>, AnyPublisher<StreamValue, StreamFailure>,
                    TestSchedulerOf<DispatchQueue>
                ) -> AnyPublisher<StreamValue, StreamFailure>
            )] = [
                (.dropFirst(2), ["a"], { a, _, _ in a.dropFirst(2).eraseToAnyPublisher() }),
                (.prefix(3), ["a"], { a, _, _ in a.prefix(3).eraseToAnyPublisher() }),
                (.removeDuplicates, ["a"], { a, _, _ in a.removeDuplicates().eraseToAnyPublisher() }),
                (
                    .delay(seconds: 0.5), ["a"],
                    { a, _, s in a.delay(for: .milliseconds(500), scheduler: s).eraseToAnyPublisher() }
                ),
                (
                    .throttle(seconds: 2, latest: false), ["a"],
                    { a, _, s in
                        a.throttle(for: .seconds(2), scheduler: s, latest: false).eraseToAnyPublisher()
                    }
                ),
                (.merge, ["a", "b"], { a, b, _ in a.merge(with: b).eraseToAnyPublisher() }),
                (.append, ["a", "b"], { a, b, _ in a.append(b).eraseToAnyPublisher() }),
                (.zip, ["a", "b"], { a, b, _ in a.zip(b).map { .list([$0, $1]) }.eraseToAnyPublisher() }),
                (
                    .combineLatest, ["a", "b"],
                    { a, b, _ in a.combineLatest(b).map { .list([$0, $1]) }.eraseToAnyPublisher() }
                ),
            ]
        for (op, inputs, chain) in cases {
            let document = try StreamDocument(
                streams: [a, b],
                nodes: [StreamNode(id: "n", op, inputs: inputs)]
            )
            let scheduler = DispatchQueue.test
            let expected = record(
                chain(
                    try document.publisher(for: "a", scheduler: scheduler),
                    try document.publisher(for: "b", scheduler: scheduler),
                    scheduler
                ),
                scheduler
            )
            let timeline = try StreamRunner().run(document, lanes: ["n"])
            #expect(values(timeline, "n") == expected, "\(op)")
        }
    }

    private func record(
        _ publisher: AnyPublisher<StreamValue, StreamFailure>,
        _ scheduler: TestSchedulerOf<DispatchQueue>
    ) -> [String] {
        let start = scheduler.now
        var events: [String] = []
        func now() -> Double { Double(start.distance(to: scheduler.now).magnitude) / 1e9 }
        let cancellable = publisher.sink(
            receiveCompletion: { events.append("\(now()):\($0 == .finished ? "finished" : "failure")") },
            receiveValue: { events.append("\(now()):\($0)") }
        )
        scheduler.advance(by: .seconds(100))
        cancellable.cancel()
        return events
    }

    @Test func endsTheLaneWithAFailureWhenAnExpressionFails() throws {
        let document = try StreamDocument(
            streams: [.series("n", [2, 1, 0, 5], spacing: 1)],
            nodes: [StreamNode(id: "inverse", .map(try StreamExpression("10 / $0")), inputs: ["n"])]
        )
        let timeline = try StreamRunner().run(document, lanes: ["inverse"])
        #expect(values(timeline, "inverse").prefix(2) == ["1.0:5", "2.0:10"])
        guard case .failure(let message) = timeline.events(in: "inverse").last?.kind else {
            Issue.record("expected a failure")
            return
        }
        #expect(message.lowercased().contains("zero"), "\(message)")
        #expect(timeline.events(in: "inverse").count == 3)
    }

    /// What is still waiting when a run ends — an item due after it, a debounced value —
    /// holds its pipeline, which holds the scheduler: the run discards it, and both go.
    @Test func aRunLetsGoOfWhatIsStillWaiting() throws {
        let document = try StreamDocument(
            streams: [.series("late", [1, 2, 3], spacing: 60_000)],
            nodes: [StreamNode(id: "quiet", .debounce(seconds: 60_000), inputs: ["late"])]
        )
        weak var released: VirtualTimeScheduler?
        try {
            let scheduler = VirtualTimeScheduler()
            let timeline = try StreamRunner().run(document, lanes: nil, on: scheduler)
            #expect(timeline.isTruncated)
            #expect(values(timeline, "late") == ["60000.0:1"])
            #expect(!scheduler.hasPendingActions)
            released = scheduler
        }()
        #expect(released == nil)
    }

    /// Every pair of operators, and every operator joined with a second stream, over streams
    /// that finish, fail and never end: once the run is over, nothing keeps its pipelines.
    /// A pipeline that outlives its run holds the scheduler, so the scheduler going shows that
    /// the pipelines went too.
    @Test func noPipelineOutlivesItsRun() throws {
        let operators: [StreamOperator] = [
            .map(try StreamExpression("$0 * 2")), .map(try StreamExpression("10 / ($0 - 2)")),
            .scan(initial: 0, try StreamExpression("acc + $0")),
            .scan(initial: 0, try StreamExpression("acc / ($0 - 2)")),
            .filter(try StreamExpression("$0 % 2 == 0")), .filter(try StreamExpression("$0")),
            .dropFirst(1), .prefix(2), .removeDuplicates, .delay(seconds: 0.5), .debounce(seconds: 1.5),
            .throttle(seconds: 2, latest: true), .throttle(seconds: 2, latest: false),
        ]
        let joins: [StreamOperator] = [.merge, .append, .zip, .combineLatest]
        let items = [1, 2, 3, 1].enumerated().map { StreamItem(.integer($1), delay: Double($0 % 2)) }
        let endings: [StreamDefinition.Ending] = [
            .finished(after: 0), .finished(after: 3), .failed(after: 2, message: "broken"), .never,
        ]
        var documents: [StreamDocument] = []
        for ending in endings {
            let stream = StreamDefinition(id: "s", items: items, ending: ending)
            for first in operators {
                let head = StreamNode(id: "a", first, inputs: ["s"])
                for second in operators {
                    let tail = StreamNode(id: "b", second, inputs: ["a"])
                    documents.append(try StreamDocument(streams: [stream], nodes: [head, tail]))
                }
                for join in joins {
                    let other = StreamDefinition(
                        id: "t",
                        items: items.reversed(),
                        ending: endings[documents.count % 4]
                    )
                    let joined = StreamNode(id: "j", join, inputs: ["a", "t"])
                    let reversed = StreamNode(id: "r", join, inputs: ["t", "a"])
                    documents.append(
                        try StreamDocument(streams: [stream, other], nodes: [head, joined, reversed])
                    )
                }
            }
        }
        var outlived: [String] = []
        for document in documents {
            weak var released: VirtualTimeScheduler?
            try {
                let scheduler = VirtualTimeScheduler()
                _ = try StreamRunner().run(document, lanes: nil, on: scheduler)
                released = scheduler
            }()
            if released != nil {
                outlived.append("\(document.nodes.map(\.operator.label)) over \(document.streams[0].ending)")
            }
        }
        let count = outlived.count
        #expect(count == 0, "\(count) of \(documents.count), such as \(outlived.prefix(3))")
    }

    @Test func runsLongStreamsWithoutNestingAPublisherPerItem() throws {
        let long = StreamDefinition(
            id: "long",
            items: (0..<50_000).map { StreamItem(.integer($0), delay: $0 % 2 == 0 ? 0 : 0.001) }
        )
        let document = try StreamDocument(
            streams: [long],
            nodes: [
                StreamNode(id: "sum", .scan(initial: 0, try StreamExpression("acc + $0")), inputs: ["long"])
            ]
        )
        let timeline = try StreamRunner().run(document, lanes: ["sum"])
        #expect(timeline.events.count == 50_001)
        #expect(timeline.events[49_999].kind == .value(.integer(49_999 * 50_000 / 2)))
        #expect(abs(timeline.duration - 25) < 0.001)
    }

    @Test func stopsAtItsGuards() throws {
        let many = StreamDefinition(id: "many", items: (0..<1_000).map { StreamItem(.integer($0)) })
        let timeline = try StreamRunner(maximumEvents: 100).run(try StreamDocument(streams: [many]))
        #expect(timeline.isTruncated)
        #expect(timeline.events.count == 100)

        let words = StreamDefinition.series(
            "words",
            Array(repeating: .string(String(repeating: "w", count: 1_000)), count: 100)
        )
        let few = try StreamRunner(maximumBytes: 10_500).run(try StreamDocument(streams: [words]))
        #expect(few.isTruncated)
        #expect(few.events.count == 10)

        let slow = StreamDefinition.series("slow", [1, 2, 3], spacing: 60)
        let short = try StreamRunner(maximumDuration: 90).run(try StreamDocument(streams: [slow]))
        #expect(short.isTruncated)
        #expect(short.events.count == 1)
    }
}
