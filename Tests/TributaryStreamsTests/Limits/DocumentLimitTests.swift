import Foundation
import Testing
import Tributary
import TributaryStreams

/// Documents built to exhaust a runner: paths that multiply, chains too deep for the stack,
/// waits past the end of time, and diagrams too fine to draw. Each ends as a `StreamError`.
@Suite struct DocumentLimitTests {
    /// JSON for one stream `a` of ten values and `nodes`.
    private static func json(_ nodes: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "schemaVersion": 1,
            "streams": [["id": "a", "items": Array(repeating: ["value": 1], count: 10)]],
            "nodes": nodes,
        ])
    }

    /// `count` maps, each reading the one before, the first reading `a`.
    private static func chain(_ count: Int) -> [[String: Any]] {
        (0..<count).map {
            [
                "id": "n\($0)", "operator": "map", "input": $0 == 0 ? "a" : "n\($0 - 1)",
                "expression": "$0 + 1",
            ]
        }
    }

    /// Runs `body` on a thread with a 512 KB stack, as small as a secondary thread's on Apple
    /// platforms, so that recursion as deep as the input would overflow it. The thread and address
    /// sanitizers make every frame larger, so under them the stack is as many times larger.
    private static func onSmallStack<Result: Sendable>(
        _ body: @escaping @Sendable () -> Result
    ) async -> Result {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = (512 << 10) * (isSanitized ? 4 : 1)
            thread.start()
        }
    }

    /// Whether this process runs under the thread or the address sanitizer, whose runtimes define
    /// `__tsan_init` and `__asan_init`.
    private static let isSanitized: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(process) }
        return dlsym(process, "__tsan_init") != nil || dlsym(process, "__asan_init") != nil
    }()

    @Test func nodesThatBranchAndJoinAgainAreRefusedBeforeTheyMultiply() throws {
        // Each node merges the two before it: a subscription to n39 would run 10⁸ copies of a.
        var nodes: [[String: Any]] = [
            ["id": "n0", "operator": "map", "input": "a", "expression": "$0"],
            ["id": "n1", "operator": "map", "input": "a", "expression": "$0"],
        ]
        nodes += (2..<40).map {
            ["id": "n\($0)", "operator": "merge", "inputs": ["n\($0 - 1)", "n\($0 - 2)"]]
        }
        let error = #expect(throws: StreamError.self) { try StreamDocument.decode(try Self.json(nodes)) }
        // n17 runs 7,751 operators and streams, n18 1 + 7,751 + 4,790 = 12,542.
        #expect(error?.kind == .tooLarge("n18", limit: 10_000))
        #expect(error?.path == "$.nodes[18]")
        #expect(
            error?.description
                == "$.nodes[18]: a subscription to \"n18\" would run more than 10000 operators and streams, "
                + "as it runs an input afresh for every path that leads to it."
        )
        let runnable = try StreamDocument.decode(try Self.json(Array(nodes.prefix(18))))
        let timeline = try StreamRunner().run(runnable, lanes: ["n17"])
        // n17 reads a through 2,584 paths, each publishing its ten values.
        #expect(timeline.events(in: "n17").count == 25_841)
    }

    @Test func aChainDeeperThanTheLimitIsRefusedWithoutRecursion() async throws {
        let long = try Self.json(Self.chain(20_000))
        let error = await Self.onSmallStack { () -> StreamError? in
            do throws(StreamError) {
                _ = try StreamDocument.decode(long)
                return nil
            } catch {
                return error
            }
        }
        let limit = StreamDocument.maximumDepth
        #expect(error?.kind == .tooDeep("n\(limit)", limit: limit))
        #expect(error?.path == "$.nodes[\(limit)]")

        // The deepest chain allowed runs on a small stack, values passing through every node.
        let deepest = try StreamDocument.decode(try Self.json(Self.chain(limit)))
        let values = await Self.onSmallStack { () -> [String] in
            (try? StreamRunner().run(deepest, lanes: ["n\(limit - 1)"]))?.events.map { "\($0.kind)" } ?? []
        }
        #expect(values == Array(repeating: "\(limit + 1)", count: 10) + ["finished"])
    }

    @Test func aRunOfTooManyOperatorsIsRefusedAndFewerLanesRun() throws {
        // Four chains of 240 maps from a: lane cCnK runs K + 2 operators and streams, and lane
        // a 1, so every lane together runs 1 + 4 × (2 + 3 + … + 241).
        let nodes = (0..<4).flatMap { chain in
            (0..<240).map { index -> [String: Any] in
                let input = index == 0 ? "a" : "c\(chain)n\(index - 1)"
                return [
                    "id": "c\(chain)n\(index)", "operator": "map", "input": input, "expression": "$0 + 1",
                ]
            }
        }
        let document = try StreamDocument.decode(try Self.json(nodes))
        let error = #expect(throws: StreamError.self) { try StreamRunner().run(document) }
        #expect(error?.kind == .runTooLarge(operators: 116_641, limit: 100_000))
        let last = try StreamRunner().run(document, lanes: ["c3n239"])
        #expect(last.events.first?.kind == .value(241))
        let smaller = StreamRunner(maximumOperators: 400)
        #expect(throws: StreamError(.runTooLarge(operators: 482, limit: 400), path: "$")) {
            try smaller.run(document, lanes: ["c0n239", "c1n239"])
        }
    }

    @Test func waitsPastADayAreRefusedHoweverTheDocumentIsMade() throws {
        for (ending, path) in [
            (#"{"kind": "failed", "after": 1e300}"#, "$.streams[0].ending.after"),
            (#"{"kind": "finished", "after": 1e10}"#, "$.streams[0].ending.after"),
            (#"{"kind": "failed", "after": -5}"#, "$.streams[0].ending.after"),
        ] {
            let json =
                #"{"schemaVersion": 1, "streams": [{"id": "a", "items": [{"value": 1}], "ending": \#(ending)}]}"#
            let error = #expect(throws: StreamError.self) { try StreamDocument.decode(Data(json.utf8)) }
            #expect(error?.path == path)
            #expect(error?.description.contains("a duration must be from 0 to 86400 seconds") == true)
        }

        // Made in code rather than decoded.
        let late = StreamDefinition(id: "a", items: [StreamItem(1, delay: 1e300)])
        #expect(throws: StreamError.self) { try StreamDocument(streams: [late]) }
        var document = try StreamDocument(streams: [.series("a", [1, 2])])
        document.streams[0].ending = .failed(after: .infinity, message: "never")
        let error = #expect(throws: StreamError.self) { try StreamRunner().run(document) }
        #expect(error?.path == "$.streams[0].ending.after")
        #expect(throws: StreamError.self) {
            try document.publisher(for: "a", scheduler: VirtualTimeScheduler())
        }

        // A document changed into a cycle after it was checked is checked again.
        var cyclic = try StreamDocument(streams: [.series("a", [1])])
        cyclic.nodes = [
            StreamNode(id: "x", .merge, inputs: ["a", "y"]), StreamNode(id: "y", .merge, inputs: ["x"]),
        ]
        #expect(throws: StreamError(.cycle(["x", "y", "x"]), path: "$.nodes[0]")) {
            try StreamRunner().run(cyclic)
        }
    }

    @Test func diagramsTooFineToDrawAreRefused() throws {
        let document = try StreamDocument(streams: [.series("a", [1, 2, 3])])
        let timeline = try StreamRunner().run(document)
        #expect(try TextLanes.render(timeline, document: document, frame: 0.5) == "a  --1-2-(3|)")
        let error = #expect(throws: StreamError.self) {
            try TextLanes.render(timeline, document: document, frame: 1e-300)
        }
        #expect(error?.path == "frame")
        #expect(error?.description.contains("takes more than \(Marbles.maximumReach) frames") == true)
        #expect(throws: StreamError.self) { try Marbles.print(timeline.events, frame: 0) }
        #expect(throws: StreamError.self) { try Marbles.print(timeline.events, frame: .nan) }

        #expect(throws: StreamError.self) { try Marbles.parse("-1|", frame: 0) }
        let far = #expect(throws: StreamError.self) { try Marbles.parse("-1 100000s 2|") }
        #expect(far?.description.contains("the diagram reaches past 86400 seconds at position 12") == true)
        #expect(try Marbles.parse("-1 86397s 2|").items.map(\.delay) == [1, 86_398])
    }
}
