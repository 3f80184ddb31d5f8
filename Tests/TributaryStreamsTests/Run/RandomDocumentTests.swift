import CombineSchedulers
import Foundation
import PropertyBased
import Testing
import Tributary
import TributaryStreams

/// Randomly generated documents run exactly as the same operators written by hand with
/// Combine, on combine-schedulers' TestScheduler, from a stream built by hand.
@Suite struct RandomDocumentTests {
    /// The operators the generator picks from, each with its hand-written twin.
    static let catalogue:
        [(
            StreamOperator,
            @Sendable (AnyPublisher<Int, Never>, TestSchedulerOf<DispatchQueue>) -> AnyPublisher<Int, Never>
        )] = [
            (.map(try! StreamExpression("$0 * 2")), { p, _ in p.map { $0 * 2 }.eraseToAnyPublisher() }),
            (
                .filter(try! StreamExpression("$0 % 2 == 0")),
                { p, _ in p.filter { $0 % 2 == 0 }.eraseToAnyPublisher() }
            ),
            (
                .scan(initial: 0, try! StreamExpression("acc + $0")),
                { p, _ in p.scan(0, +).eraseToAnyPublisher() }
            ),
            (.dropFirst(1), { p, _ in p.dropFirst(1).eraseToAnyPublisher() }),
            (.prefix(3), { p, _ in p.prefix(3).eraseToAnyPublisher() }),
            (.removeDuplicates, { p, _ in p.removeDuplicates().eraseToAnyPublisher() }),
            (
                .delay(seconds: 0.5),
                { p, s in p.delay(for: .milliseconds(500), scheduler: s).eraseToAnyPublisher() }
            ),
            (
                .debounce(seconds: 1.5),
                { p, s in p.debounce(for: .milliseconds(1_500), scheduler: s).eraseToAnyPublisher() }
            ),
            (
                .throttle(seconds: 2, latest: true),
                { p, s in p.throttle(for: .seconds(2), scheduler: s, latest: true).eraseToAnyPublisher() }
            ),
            (
                .throttle(seconds: 2, latest: false),
                { p, s in p.throttle(for: .seconds(2), scheduler: s, latest: false).eraseToAnyPublisher() }
            ),
        ]

    /// Joins of a chain with a second stream, each with its hand-written twin. `zip` is left
    /// out: OpenCombine's Zip can read a freed parent when a scheduler drops a pending action,
    /// which crashes the hand-written side (and is why documents zip without it); the
    /// document's zip is checked by the golden marbles, the fixed chains and
    /// ``randomZipsRun()``.
    static let joins:
        [(
            StreamOperator,
            @Sendable (AnyPublisher<Int, Never>, AnyPublisher<Int, Never>) -> AnyPublisher<String, Never>
        )] = [
            (.merge, { a, b in a.merge(with: b).map { "\($0)" }.eraseToAnyPublisher() }),
            (.append, { a, b in a.append(b).map { "\($0)" }.eraseToAnyPublisher() }),
            (.combineLatest, { a, b in a.combineLatest(b).map { "[\($0), \($1)]" }.eraseToAnyPublisher() }),
        ]

    /// The hand-written stream: one delayed `Just` appended per item.
    static func handWritten(
        _ values: [Int],
        _ delays: [Double],
        on scheduler: TestSchedulerOf<DispatchQueue>
    )
        -> AnyPublisher<Int, Never>
    {
        zip(values, delays).reduce(Empty<Int, Never>().eraseToAnyPublisher()) { previous, item in
            let next: AnyPublisher<Int, Never> =
                item.1 > 0
                ? Just(item.0).delay(for: .milliseconds(Int(item.1 * 1_000)), scheduler: scheduler)
                    .eraseToAnyPublisher()
                : Just(item.0).eraseToAnyPublisher()
            return previous.append(next).eraseToAnyPublisher()
        }
    }

    /// Nodes applying the catalogue's `operators` one after another to `input`.
    static func chain(_ operators: [Int], from input: String) -> [StreamNode] {
        operators.indices.map { index in
            StreamNode(
                id: "n\(index)",
                catalogue[operators[index]].0,
                inputs: [index == 0 ? input : "n\(index - 1)"]
            )
        }
    }

    /// The events of `lane` when the runner runs `document`, or nil when it cannot.
    static func run(_ streams: [StreamDefinition], _ nodes: [StreamNode], lane: String) -> [String]? {
        guard let document = try? StreamDocument(streams: streams, nodes: nodes),
            let timeline = try? StreamRunner().run(document, lanes: [lane])
        else { return nil }
        return timeline.events.map { "\($0.time):\($0.kind)" }
    }

    /// What `publisher` publishes on `scheduler`, with times.
    static func record(
        _ publisher: AnyPublisher<String, Never>,
        on scheduler: TestSchedulerOf<DispatchQueue>
    ) -> [String] {
        let start = scheduler.now
        var events: [String] = []
        func now() -> Double { Double(start.distance(to: scheduler.now).magnitude) / 1e9 }
        let cancellable = publisher.sink(
            receiveCompletion: { _ in events.append("\(now()):finished") },
            receiveValue: { events.append("\(now()):\($0)") }
        )
        scheduler.advance(by: .seconds(1_000))
        cancellable.cancel()
        return events
    }

    @Test func randomJoinsRunAsHandWrittenCombine() async {
        await propertyCheck(
            count: 150,
            input: Gen.int(in: 0...4).array(of: 1...6),
            Gen.int(in: 0...3).array(of: 1...6),
            Gen.int(in: 0...(Self.catalogue.count - 1)).array(of: 0...2),
            Gen.int(in: 0...(Self.joins.count - 1))
        ) { values, gaps, operators, join in
            let delays = values.indices.map { Double(gaps[$0 % gaps.count]) }
            let otherDelays = delays.reversed().map { $0 + 0.5 }
            let first = StreamDefinition(
                id: "a",
                items: zip(values, delays).map { StreamItem(.integer($0), delay: $1) }
            )
            let second = StreamDefinition(
                id: "b",
                items: zip(values.reversed(), otherDelays).map { StreamItem(.integer($0), delay: $1) }
            )
            var nodes = Self.chain(operators, from: "a")
            nodes.append(StreamNode(id: "joined", Self.joins[join].0, inputs: [nodes.last?.id ?? "a", "b"]))
            guard let actual = Self.run([first, second], nodes, lane: "joined") else {
                Issue.record("the generated document did not run")
                return
            }

            let scheduler = DispatchQueue.test
            var chain = Self.handWritten(values, delays, on: scheduler)
            for pick in operators { chain = Self.catalogue[pick].1(chain, scheduler) }
            let other = Self.handWritten(values.reversed(), otherDelays, on: scheduler)
            let expected = Self.record(Self.joins[join].1(chain, other), on: scheduler)
            #expect(
                actual == expected,
                "\(operators.map { Self.catalogue[$0].0.label }) then \(Self.joins[join].0.label)"
            )
        }
    }

    /// Random zips through the runner alone: they run to their end.
    @Test func randomZipsRun() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 0...4).array(of: 1...6),
            Gen.int(in: 0...3).array(of: 1...6),
            Gen.int(in: 0...(Self.catalogue.count - 1)).array(of: 0...2)
        ) { values, gaps, operators in
            let delays = values.indices.map { Double(gaps[$0 % gaps.count]) }
            let first = StreamDefinition(
                id: "a",
                items: zip(values, delays).map { StreamItem(.integer($0), delay: $1) }
            )
            let second = StreamDefinition(
                id: "b",
                items: values.reversed().map { StreamItem(.integer($0), delay: 0.5) }
            )
            var nodes = Self.chain(operators, from: "a")
            nodes.append(StreamNode(id: "zipped", .zip, inputs: [nodes.last?.id ?? "a", "b"]))
            let events = Self.run([first, second], nodes, lane: "zipped")
            #expect(events?.last?.hasSuffix("finished") == true)
        }
    }

    @Test func randomChainsRunAsHandWrittenCombine() async {
        await propertyCheck(
            count: 150,
            input: Gen.int(in: 0...4).array(of: 1...10),
            Gen.int(in: 0...3).array(of: 1...10),
            Gen.int(in: 0...(Self.catalogue.count - 1)).array(of: 1...4)
        ) { values, gaps, operators in
            let delays = values.indices.map { Double(gaps[$0 % gaps.count]) }
            let stream = StreamDefinition(
                id: "s",
                items: zip(values, delays).map { StreamItem(.integer($0), delay: $1) }
            )
            let nodes = Self.chain(operators, from: "s")
            guard let actual = Self.run([stream], nodes, lane: nodes.last!.id) else {
                Issue.record("the generated document did not run")
                return
            }

            let scheduler = DispatchQueue.test
            var chain = Self.handWritten(values, delays, on: scheduler)
            for pick in operators { chain = Self.catalogue[pick].1(chain, scheduler) }
            let expected = Self.record(chain.map { "\($0)" }.eraseToAnyPublisher(), on: scheduler)
            #expect(actual == expected, "\(operators.map { Self.catalogue[$0].0.label })")
        }
    }
}
