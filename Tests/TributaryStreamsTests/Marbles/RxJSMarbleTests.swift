import Testing
import TributaryStreams

/// The diagrams of RxJS's `TestScheduler` spec and marble-testing guide, with the frames RxJS
/// gives for them. The spec's own calls count ten milliseconds a frame; run mode and the
/// guide count one.
@Suite struct RxJSMarbleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var marbles: String
        var frame = 1.0
        var values: [Character: StreamValue] = [:]
        /// Milliseconds and what happens then.
        var expected: [(Double, Timeline.Kind)]

        var testDescription: String { "\"\(marbles)\" at \(frame) ms a frame" }
    }

    static let cases: [Case] = [
        // TestScheduler spec, parseMarbles().
        Case(
            marbles: "-------a---b---|",
            frame: 10,
            values: ["a": "A", "b": "B"],
            expected: [(70, .value("A")), (110, .value("B")), (150, .finished)]
        ),
        Case(
            marbles: "--a--b--|   ",
            frame: 10,
            values: ["a": "A", "b": "B"],
            expected: [(20, .value("A")), (50, .value("B")), (80, .finished)]
        ),
        Case(
            marbles: "---^---a---b---|",
            frame: 10,
            values: ["a": "A", "b": "B"],
            expected: [(40, .value("A")), (80, .value("B")), (120, .finished)]
        ),
        Case(
            marbles: "-------a---b---#",
            frame: 10,
            values: ["a": "A", "b": "B", "#": "omg error!"],
            expected: [(70, .value("A")), (110, .value("B")), (150, .failure("omg error!"))]
        ),
        Case(
            marbles: "--a--b--c--",
            frame: 10,
            expected: [(20, .value("a")), (50, .value("b")), (80, .value("c"))]
        ),
        Case(
            marbles: "---(abc)---",
            frame: 10,
            expected: [(30, .value("a")), (30, .value("b")), (30, .value("c"))]
        ),
        Case(
            marbles: "  -a - b -    c |       ",
            frame: 10,
            values: ["a": "A", "b": "B", "c": "C"],
            expected: [(10, .value("A")), (30, .value("B")), (50, .value("C")), (60, .finished)]
        ),
        Case(
            marbles: "10.2ms a 1.2s b 1m c|",
            frame: 10,
            values: ["a": "A", "b": "B", "c": "C"],
            expected: [
                (10.2, .value("A")), (10.2 + 10 + 1_200, .value("B")),
                (10.2 + 10 + 1_200 + 10 + 60_000, .value("C")),
                (10.2 + 10 + 1_200 + 10 + 60_000 + 10, .finished),
            ]
        ),
        Case(
            marbles: "--🙈--🙉--🙊--|",
            frame: 10,
            expected: [(20, .value("🙈")), (50, .value("🙉")), (80, .value("🙊")), (110, .finished)]
        ),
        // TestScheduler spec, run().
        Case(
            marbles: "  -- 9ms a 9ms b 9ms (c|) ",
            expected: [(11, .value("a")), (21, .value("b")), (31, .value("c")), (31, .finished)]
        ),
        Case(marbles: "   ------ 4ms c---|", expected: [(10, .value("c")), (14, .finished)]),
        Case(marbles: "   ----------c---|", expected: [(10, .value("c")), (14, .finished)]),
        Case(marbles: "   - 10s (a|)", expected: [(10_001, .value("a")), (10_001, .finished)]),
        Case(
            marbles: " -abcdef|",
            expected: [
                (1, .value("a")), (2, .value("b")), (3, .value("c")), (4, .value("d")), (5, .value("e")),
                (6, .value("f")), (7, .finished),
            ]
        ),
        Case(
            marbles: " ^-b-d-f|",
            expected: [(2, .value("b")), (4, .value("d")), (6, .value("f")), (7, .finished)]
        ),
        Case(
            marbles: "-a-b-c--------|",
            expected: [(1, .value("a")), (3, .value("b")), (5, .value("c")), (14, .finished)]
        ),
        // The marble-testing guide.
        Case(marbles: "-", expected: []),
        Case(marbles: "------", expected: []),
        Case(marbles: "|", expected: [(0, .finished)]),
        Case(marbles: "#", expected: [(0, .failure("failed"))]),
        Case(marbles: "--a--", expected: [(2, .value("a"))]),
        Case(marbles: "--a--b--|", expected: [(2, .value("a")), (5, .value("b")), (8, .finished)]),
        Case(marbles: "--a--b--#", expected: [(2, .value("a")), (5, .value("b")), (8, .failure("failed"))]),
        Case(marbles: "-a-^-b--|", expected: [(-2, .value("a")), (2, .value("b")), (5, .finished)]),
        Case(
            marbles: "--(abc)-|",
            expected: [(2, .value("a")), (2, .value("b")), (2, .value("c")), (8, .finished)]
        ),
        Case(marbles: "-----(a|)", expected: [(5, .value("a")), (5, .finished)]),
        Case(
            marbles: "a 9ms b 9s c|",
            expected: [(0, .value("a")), (10, .value("b")), (9_011, .value("c")), (9_012, .finished)]
        ),
        Case(marbles: "--a 2.5m b", expected: [(2, .value("a")), (150_003, .value("b"))]),
        Case(
            marbles: " -a--b--c---|",
            expected: [(1, .value("a")), (4, .value("b")), (7, .value("c")), (11, .finished)]
        ),
        // The places where the issue found Tributary apart from RxJS.
        Case(
            marbles: "--(dc)-b-a",
            expected: [(2, .value("d")), (2, .value("c")), (7, .value("b")), (9, .value("a"))]
        ),
        Case(marbles: "^-b", expected: [(2, .value("b"))]),
        Case(marbles: "10ms a|", expected: [(10, .value("a")), (11, .finished)]),
        Case(marbles: " 1m a|", expected: [(60_000, .value("a")), (60_001, .finished)]),
        Case(marbles: "-a-|--", expected: [(1, .value("a")), (3, .finished)]),
        Case(
            marbles: "a10ms",
            expected: [(0, .value("a")), (1, .value(1)), (2, .value(0)), (3, .value("m")), (4, .value("s"))]
        ),
    ]

    @Test(arguments: cases)
    func readsFramesAsRxJSDoes(_ example: Case) throws {
        let events = try Marbles.read(example.marbles, frame: example.frame / 1_000, values: example.values)
        let milliseconds = events.map { (($0.time * 1e6).rounded() / 1e3, $0.kind) }
        #expect(milliseconds.map(\.0) == example.expected.map(\.0))
        #expect(milliseconds.map(\.1) == example.expected.map(\.1))
    }

    /// Subscription diagrams: where `^` and `!` stand, in milliseconds.
    @Test(
        arguments: [
            ("---^---!-", 10.0, 30.0, 70.0),
            ("---^-", 10, 30, nil),
            ("---(^!)-", 10, 30, 30),
            ("  - -  - -  ^ -   - !  -- -      ", 10, 40, 70),
            ("10.2ms ^ 1.2s - 1m !", 10, 10.2, 10.2 + 10 + 1_200 + 10 + 60_000),
            ("             ^---------!", 1, 0, 10),
            ("^-----!", 1, 0, 6),
            ("--^--", 1, 2, nil),
            ("--^--!-", 1, 2, 5),
            ("500ms ^ 1s !", 1, 500, 1_501),
        ] as [(String, Double, Double?, Double?)]
    )
    func readsSubscriptionsAsRxJSDoes(marbles: String, frame: Double, start: Double?, end: Double?) throws {
        let subscription = try Marbles.readSubscription(marbles, frame: frame / 1_000)
        func milliseconds(_ seconds: Double?) -> Double? { seconds.map { ($0 * 1e6).rounded() / 1e3 } }
        #expect(milliseconds(subscription.start) == start)
        #expect(milliseconds(subscription.end) == end)
    }

    @Test func aSubscriptionDiagramWithoutACaretNeverSubscribes() throws {
        #expect(try Marbles.readSubscription("-") == Marbles.Subscription(start: nil))
    }

    /// RxJS throws on these; so does Tributary.
    @Test(arguments: ["---^-^-!-", "---^---!-!"])
    func refusesSubscriptionsRxJSRefuses(marbles: String) {
        #expect(throws: StreamError.self) { try Marbles.readSubscription(marbles) }
    }

    /// RxJS reads these as values, or as spans where no one means them; Tributary refuses them
    /// rather than guess.
    @Test(arguments: [
        "a 10ms", " 1m", "10ms|", "(a 10ms b)", " .5s a", " 1.2.3s a", "-!-", "-a-|-b", "-a-|-(b)", "(a-b)",
        "((a))", "-1)", "-1-(2", "()", "^^", "(^a)", "a\tb", "a\nb",
    ])
    func refusesWhatRxJSWouldMisread(marbles: String) {
        #expect(throws: StreamError.self) { try Marbles.read(marbles) }
    }
}
