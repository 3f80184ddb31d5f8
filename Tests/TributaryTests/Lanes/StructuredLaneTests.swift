import CombineSchedulers
import Foundation
import Observation
import Testing
import Tributary
import TributaryTestSupport

/// A screen's state, as view models keep it: nested values, optionals, an enum with payloads.
struct SearchState: Codable, Equatable, Sendable {
    enum Phase: Codable, Equatable, Sendable {
        case idle
        case loading(query: String)
        case loaded([String], page: Int)
        case failed(String)
    }

    var query: String
    var results: [String]
    var phase: Phase
    var selected: Int?
    var scores: [String: Double]
    var flags: Set<String> = []
}

@Observable final class ScreenModel: @unchecked Sendable {
    // @unchecked: each test reads and writes it from one task only.
    var state = SearchState(query: "", results: [], phase: .idle, selected: nil, scores: [:])
}

/// A value whose JSON names another of its kind, so that a cycle nests without end.
final class Link: Encodable, @unchecked Sendable {
    // @unchecked: made and linked by one test, then only read.
    var name: String
    var next: Link?

    init(name: String) {
        self.name = name
    }
}

/// Fills a nested container after its parent has moved on, which a writer that writes as it
/// goes cannot follow.
struct Interleaved: Encodable {
    enum Keys: String, CodingKey { case first, second, after }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var first = container.nestedUnkeyedContainer(forKey: .first)
        var second = container.nestedUnkeyedContainer(forKey: .second)
        try first.encode(1)
        try second.encode(2)
        try first.encode(3)
        try container.encode("done", forKey: .after)
    }
}

/// `lane(_:encoding:)`: values kept as JSON beside their description, and the changes between
/// them.
@Suite(.timeLimit(.minutes(5))) struct StructuredLaneTests {
    /// The JSON of a structured event, read back.
    private func object(_ event: LaneEvent) throws -> Any {
        guard case .json(let text)? = event.structure else {
            Issue.record("no structure in \(event)")
            return [:] as [String: Any]
        }
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
    }

    private func foundationJSON(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(value), options: .fragmentsAllowed)
    }

    private func json(_ value: some Encodable, limit: Int = LaneEncoding.labLimit) -> String? {
        guard case .json(let text) = LaneEncoding.json(limit: limit).structure(of: value) else { return nil }
        return text
    }

    @Test func keepsEachValueAsTheJSONThatFoundationWrites() throws {
        let memory = LaneMemory()
        let subject = PassthroughSubject<SearchState, Never>()
        let cancellable = subject.lane("state", encoding: .json, recorder: memory).sink { _ in }
        let states = [
            SearchState(query: "", results: [], phase: .idle, selected: nil, scores: [:]),
            SearchState(query: "sw", results: [], phase: .loading(query: "sw"), selected: nil, scores: [:]),
            SearchState(
                query: "swift",
                results: ["Swift 6", "Tributary \"lanes\"\n"],
                phase: .loaded(["a", "b"], page: 2),
                selected: 1,
                scores: ["Swift 6": 0.5, "é": -1e-7],
                flags: ["new"]
            ),
            SearchState(
                query: "x",
                results: [],
                phase: .failed("offline"),
                selected: 0,
                scores: ["z": 1e300]
            ),
        ]
        for state in states { subject.send(state) }
        let values = memory.events(lane: "state").filter { if case .value = $0.kind { true } else { false } }
        #expect(values.count == states.count)
        for (event, state) in zip(values, states) {
            #expect(event.kind == .value(String(describing: state)))
            #expect(
                try object(event) as? NSDictionary == foundationJSON(state) as? NSDictionary,
                "\(String(describing: event.structure))"
            )
        }
        // Keys in the order the value encodes them, as a reader expects them.
        #expect(
            json(states[1])?.hasPrefix(#"{"query":"sw","results":[],"phase":{"loading":{"query":"sw"}}"#)
                == true
        )
        cancellable.cancel()
    }

    @Test func writesScalarsAndFoundationTypesForAReader() throws {
        #expect(json(42) == "42")
        #expect(json("a\"b") == #""a\"b""#)
        #expect(json([1.5, -0.25]) == "[1.5,-0.25]")
        #expect(json(Optional<Int>.none) == "null")
        #expect(json([Double.nan, .infinity, -.infinity]) == #"["NaN","Infinity","-Infinity"]"#)
        #expect(json(Date(timeIntervalSince1970: 1_795_000_000.25)) == #""2026-11-18T11:06:40.250Z""#)
        #expect(json(Data([0, 1, 2, 250])) == #""AAEC+g==""#)
        #expect(json(URL(string: "https://example.com/a?b=1")!) == #""https://example.com/a?b=1""#)
        #expect(json(Decimal(string: "12.50")!) == "12.5")
        #expect(json(["k": [true, false]]) == #"{"k":[true,false]}"#)
        struct Empty: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        #expect(json(Empty()) == "{}")
        #expect(json([[Int]]()) == "[]")
    }

    @Test func aValueWrittenOutOfOrderIsWrittenByFoundation() throws {
        let text = try #require(json(Interleaved()))
        let read = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        #expect(read == (try foundationJSON(Interleaved())) as? NSDictionary)
        #expect((read?["first"] as? [Int]) == [1, 3])
    }

    @Test func aValueOverTheLimitsIsKeptAsItsDescriptionAndMarkedCut() async throws {
        let memory = LaneMemory()
        let subject = PassthroughSubject<[String], Never>()
        let cancellable = subject.lane("big", encoding: .json(limit: 100), recorder: memory).sink { _ in }
        subject.send(["short"])
        subject.send(Array(repeating: "0123456789", count: 20))
        let values = memory.events(lane: "big").filter { $0.structure != nil }
        #expect(values.map(\.structure) == [.json(#"["short"]"#), .cut])
        #expect(values.last?.kind == .value(String(describing: Array(repeating: "0123456789", count: 20))))
        cancellable.cancel()

        // Nesting past the depth limit, and a cycle, which nests without end, are cut too.
        struct Deep: Encodable {
            var levels: Int
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                if levels > 0 { try container.encode(Deep(levels: levels - 1)) }
            }
        }
        #expect(LaneEncoding.json.structure(of: Deep(levels: LaneEncoding.maximumDepth - 1)) != .cut)
        #expect(LaneEncoding.json.structure(of: Deep(levels: LaneEncoding.maximumDepth)) == .cut)
        let link = Link(name: "a")
        link.next = link
        #expect(LaneEncoding.json.structure(of: link) == .cut)
        link.next = nil
    }

    /// A value that throws, or writes two values in one place (which `JSONEncoder` stops the
    /// process for), is cut; the pipeline it passes through goes on.
    @Test func aValueThatCannotBeEncodedIsCutAndThePipelineGoesOn() {
        struct Throws: Encodable, CustomStringConvertible {
            struct Refused: Error {}
            var description: String { "throws" }
            func encode(to encoder: any Encoder) throws { throw Refused() }
        }
        struct TwiceInOnePlace: Encodable {
            enum Keys: String, CodingKey { case a }
            var single: Bool
            func encode(to encoder: any Encoder) throws {
                if single {
                    var container = encoder.singleValueContainer()
                    try container.encode(1)
                    try container.encode(2)
                } else {
                    var keyed = encoder.container(keyedBy: Keys.self)
                    try keyed.encode(1, forKey: .a)
                    var other = encoder.unkeyedContainer()
                    try other.encode(2)
                }
            }
        }
        #expect(LaneEncoding.json.structure(of: Throws()) == .cut)
        #expect(LaneEncoding.json.structure(of: TwiceInOnePlace(single: true)) == .cut)
        #expect(LaneEncoding.json.structure(of: TwiceInOnePlace(single: false)) == .cut)
        #expect(LaneEncoding.json.structure(of: [TwiceInOnePlace(single: true)]) == .cut)
        let memory = LaneMemory()
        let subject = PassthroughSubject<Throws, Never>()
        var seen = 0
        let cancellable = subject.lane("throws", encoding: .json, recorder: memory).sink { _ in seen += 1 }
        subject.send(Throws())
        subject.send(Throws())
        #expect(seen == 2)
        #expect(memory.events.compactMap(\.structure) == [.cut, .cut])
        cancellable.cancel()
    }

    /// An integer's JSON is its description: one text for both, within the limit.
    @Test func anIntegersJSONIsItsDescription() {
        let memory = LaneMemory()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.lane("n", encoding: .json, recorder: memory).sink { _ in }
        let small = subject.lane("small", encoding: .json(limit: 1), recorder: memory).sink { _ in }
        subject.send(7)
        subject.send(-12)
        #expect(memory.events(lane: "n").compactMap(\.structure) == [.json("7"), .json("-12")])
        #expect(memory.events(lane: "small").compactMap(\.structure) == [.json("7"), .cut])
        #expect(
            memory.events(lane: "n").filter { $0.structure != nil }.map(\.kind) == [
                .value("7"), .value("-12"),
            ]
        )
        cancellable.cancel()
        small.cancel()
    }

    @Test func aTextLaneKeepsNoStructure() {
        let memory = LaneMemory()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.lane("numbers", recorder: memory).sink { _ in }
        subject.send(1)
        #expect(memory.events.allSatisfy { $0.structure == nil })
        cancellable.cancel()
    }

    /// The state of an `@Observable` model, read through `Observed`, each change kept as JSON.
    @Test func recordsAnObservableModelsStateThroughObserved() async throws {
        let scheduler = DispatchQueue.test
        let model = ScreenModel()
        let memory = LaneMemory()
        let cancellable = Observed(on: scheduler) { model.state }
            .lane("state", encoding: .json, recorder: memory)
            .sink { _ in }
        model.state.query = "sw"
        await scheduler.advance()
        model.state.phase = .loaded(["Swift"], page: 1)
        await scheduler.advance()
        let texts = memory.events(lane: "state").compactMap { event -> String? in
            if case .json(let text)? = event.structure { text } else { nil }
        }
        #expect(texts.count == 3)
        #expect(
            LaneChange.changes(from: texts[0], to: texts[1])?.map(\.description) == [#"~ query: "" → "sw""#]
        )
        #expect(
            LaneChange.changes(from: texts[1], to: texts[2])?.map(\.description) == [
                #"- phase.idle: {}"#, #"+ phase.loaded: {"_0":["Swift"],"page":1}"#,
            ]
        )
        cancellable.cancel()
    }

    @Test func anAsyncLaneKeepsStructureToo() async throws {
        let memory = LaneMemory()
        var seen: [[String: Int]] = []
        for await value in Replayed([1, 2]).map({ ["count": $0] }).lane(
            "counts",
            encoding: .json,
            recorder: memory
        ) {
            seen.append(value)
        }
        #expect(seen == [["count": 1], ["count": 2]])
        #expect(
            memory.events(lane: "counts").compactMap(\.structure) == [
                .json(#"{"count":1}"#), .json(#"{"count":2}"#),
            ]
        )
    }

    /// JSON as RFC 8259 writes it, which JSONSerialization reads more loosely than a browser.
    @Test(arguments: [
        ("1", true), (#"{"a":[1,2.5e-3,-0,true,false,null,"\u00e9\n"]}"#, true), (" [ ] ", true),
        ("{}", true),
        ("[1,]", false), (#"{"a":1,}"#, false), ("\u{FEFF}{}", false), ("01", false), ("1.", false),
        (".5", false),
        ("NaN", false), ("[1] 2", false), (#"{"a" 1}"#, false), (#"{1:2}"#, false), (#""\x""#, false),
        (#""\u12""#, false), ("\"a\tb\"", false), ("", false), ("[", false), ("tru", false), ("1e", false),
    ])
    func readsTheGrammarAndNothingElse(text: String, valid: Bool) {
        #expect(JSONGrammar.isValid(Array(text.utf8), maximumDepth: 32) == valid, "\(text)")
    }

    @Test func theGrammarBoundsNesting() {
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(!JSONGrammar.isValid(Array(deep.utf8), maximumDepth: 32))
        #expect(JSONGrammar.isValid(Array(deep.utf8), maximumDepth: 33))
    }

    @Test func changesArePathsAddedRemovedAndChangedInReadingOrder() throws {
        let old =
            #"{"query":"s","results":[{"id":1,"title":"A"},{"id":2}],"error":"timeout","a key":1,"n":true}"#
        let new = #"{"query":"sw","results":[{"id":1,"title":"B"}],"a key":2,"n":1,"page":{"next":3}}"#
        let changes = try #require(LaneChange.changes(from: old, to: new))
        #expect(
            changes.map(\.description) == [
                #"~ ["a key"]: 1 → 2"#,
                #"- error: "timeout""#,
                #"~ n: true → 1"#,
                #"+ page: {"next":3}"#,
                #"~ query: "s" → "sw""#,
                #"~ results[0].title: "A" → "B""#,
                #"- results[1]: {"id":2}"#,
            ]
        )
        // Keys in the order of their Unicode scalars, as the lab's page orders them.
        #expect(
            LaneChange.changes(from: #"{"🙂":1,"count":1,"é":1}"#, to: #"{"🙂":2,"count":2,"é":2}"#)?
                .map(\.description) == [#"~ count: 1 → 2"#, #"~ é: 1 → 2"#, #"~ ["🙂"]: 1 → 2"#]
        )
        #expect(
            LaneChange.changes(from: #"{"a":{"🙂":"é","count":1}}"#, to: "{}")?.map(\.description) == [
                #"- a: {"count":1,"🙂":"é"}"#
            ]
        )
        #expect(LaneChange.changes(from: "1", to: "1") == [])
        #expect(
            LaneChange.changes(from: "[1]", to: #"{"a":1}"#)?.map(\.description) == [
                #"~ (the value): [1] → {"a":1}"#
            ]
        )
        #expect(LaneChange.changes(from: "not json", to: "1") == nil)
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(LaneChange.changes(from: deep, to: "1") == nil)
    }
}
