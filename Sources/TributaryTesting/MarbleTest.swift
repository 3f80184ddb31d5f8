public import CombineSchedulers
public import Dispatch
public import Testing
public import Tributary
import TributaryStreams

/// Marble tests for Combine pipelines in Swift Testing: publishers written as RxJS's marbles,
/// a scheduler whose time is virtual, and expectations that say in one line what a pipeline
/// sends and when.
///
/// ```swift
/// @Test func searchWaitsForTypingToStop() {
///     let test = MarbleTest()                                   // one frame = 1 ms of virtual time
///     let typed = test.hot("-a-b-----c---", values: ["a": "s", "b": "sw", "c": "swift"])
///     let results = typed.debounce(for: .milliseconds(3), scheduler: test.scheduler)
///     test.expect(results, toBe: "------b-----c", values: ["b": "sw", "c": "swift"])
///     test.expectSubscriptions(typed, toBe: "^")
/// }
/// ```
///
/// Marbles are read as `TributaryStreams` reads them, exactly as RxJS's `TestScheduler` does
/// in run mode: `-` a frame, a letter or digit a value, `|` the end, `#` the failure, `( )`
/// events in one frame, `^` frame zero of a hot publisher, `!` where a subscription ends, and
/// time progressions such as `100ms` or `2s` between spaces. A character that the `values`
/// table does not name stands for itself when the publisher's output is a `String` or a
/// `Character`, and for its digit when it is an `Int`.
///
/// Each expectation subscribes at the current virtual time, which is frame zero of its
/// marbles, runs the scheduler until nothing is left to do (RxJS's `flush`), and records a
/// Swift Testing issue that shows the expected and the actual marbles one above the other
/// when they differ. A second expectation starts where the first one's run ended.
public final class MarbleTest: @unchecked Sendable {
    // @unchecked: a test is driven by one task; the scheduler and the publishers it makes
    // keep their own state under locks.

    /// How much virtual time one frame stands for.
    public let frame: Duration
    /// The virtual-time scheduler the test runs.
    public let virtualScheduler: MarbleScheduler
    /// ``virtualScheduler`` where a pipeline takes `AnySchedulerOf<DispatchQueue>`, as view
    /// models that are handed the main queue do.
    public let scheduler: AnySchedulerOf<DispatchQueue>

    /// The subscriptions of finished expectations, cancelled when the test ends.
    private let kept = Protected<[any Cancellable]>([])

    /// Seconds per frame, as `TributaryStreams` reads marbles.
    let frameSeconds: Double

    /// Creates a test whose virtual clock stands at frame zero.
    ///
    /// - Parameter frame: How much virtual time a frame stands for; RxJS's run mode uses a
    ///   millisecond.
    public init(frame: Duration = .milliseconds(1)) {
        precondition(frame > .zero, "a frame must last some time")
        self.frame = frame
        frameSeconds = Double(frame.components.seconds) + Double(frame.components.attoseconds) / 1e18
        virtualScheduler = MarbleScheduler()
        scheduler = virtualScheduler.eraseToAnyScheduler()
    }

    deinit {
        for subscription in kept.withLock({ $0 }) { subscription.cancel() }
    }

    /// Keeps an expectation's subscription until the test ends.
    func keep(_ subscription: some Cancellable) {
        kept.withLock { $0.append(subscription) }
    }

    // MARK: Publishers

    /// A publisher that plays `marbles` for each subscriber from the moment it subscribes;
    /// each character stands for itself.
    public func cold(
        _ marbles: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestPublisher<String, Never> {
        make(marbles, hot: false, values: [:], error: nil, sourceLocation: sourceLocation)
    }

    /// A publisher that plays `marbles` for each subscriber from the moment it subscribes.
    ///
    /// - Parameters:
    ///   - marbles: What it sends, such as `"-a-b|"`.
    ///   - values: What each character stands for.
    ///   - sourceLocation: Where a marble that cannot be read is reported.
    public func cold<Output>(
        _ marbles: String,
        values: [Character: Output],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestPublisher<Output, Never> {
        make(marbles, hot: false, values: values, error: nil, sourceLocation: sourceLocation)
    }

    /// A publisher that plays `marbles` for each subscriber from the moment it subscribes,
    /// failing with `error` at `#`.
    ///
    /// - Parameters:
    ///   - marbles: What it sends, such as `"-a-b#"`.
    ///   - values: What each character stands for.
    ///   - error: The failure `#` sends.
    ///   - sourceLocation: Where a marble that cannot be read is reported.
    public func cold<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output],
        error: Failure,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestPublisher<Output, Failure> {
        make(marbles, hot: false, values: values, error: error, sourceLocation: sourceLocation)
    }

    /// A publisher of the characters of `marbles`, played for each subscriber from the moment
    /// it subscribes, failing with `error` at `#`.
    public func cold<Failure: Error>(
        _ marbles: String,
        error: Failure,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestPublisher<String, Failure> {
        make(marbles, hot: false, values: [:], error: error, sourceLocation: sourceLocation)
    }

    /// A publisher that plays `marbles` once, from now, to whoever is subscribed as each event
    /// comes; each character stands for itself.
    public func hot(
        _ marbles: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestPublisher<String, Never> {
        make(marbles, hot: true, values: [:], error: nil, sourceLocation: sourceLocation)
    }

    /// A publisher that plays `marbles` once, to whoever is subscribed as each event comes.
    /// Its `^`, or its first character, is now; events before `^` have passed.
    ///
    /// - Parameters:
    ///   - marbles: What it sends, such as `"-a-^-b-|"`.
    ///   - values: What each character stands for.
    ///   - sourceLocation: Where a marble that cannot be read is reported.
    public func hot<Output>(
        _ marbles: String,
        values: [Character: Output],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestPublisher<Output, Never> {
        make(marbles, hot: true, values: values, error: nil, sourceLocation: sourceLocation)
    }

    /// A publisher that plays `marbles` once, to whoever is subscribed as each event comes,
    /// failing with `error` at `#`.
    public func hot<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output],
        error: Failure,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestPublisher<Output, Failure> {
        make(marbles, hot: true, values: values, error: error, sourceLocation: sourceLocation)
    }

    /// A publisher of the characters of `marbles`, played once to whoever is subscribed,
    /// failing with `error` at `#`.
    public func hot<Failure: Error>(
        _ marbles: String,
        error: Failure,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> TestPublisher<String, Failure> {
        make(marbles, hot: true, values: [:], error: error, sourceLocation: sourceLocation)
    }

    /// The virtual time `marbles` take up to their end (`|`), as RxJS's `time` helper reads
    /// it: `time("---|")` is three frames.
    public func time(
        _ marbles: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> DispatchQueue.SchedulerTimeType.Stride {
        do {
            let events = try Marbles.read(marbles, frame: frameSeconds)
            let end = events.first { $0.kind == .finished }?.time ?? events.last?.time ?? 0
            return .nanoseconds(Int((end * 1e9).rounded()))
        } catch {
            Issue.record(
                "\(marbles.debugDescription) cannot be read: \(error)",
                sourceLocation: sourceLocation
            )
            return .zero
        }
    }

    // MARK: Expectations

    /// Checks that `publisher` sends what `marbles` say, when they say it: subscribes now (or
    /// as `subscription` says), runs virtual time until nothing is left to do, and records an
    /// issue showing the expected and actual marbles one above the other when they differ.
    ///
    /// ```swift
    /// test.expect(source.map { $0 * 10 }, toBe: "-a-b|", values: ["a": 10, "b": 20])
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The pipeline under test.
    ///   - marbles: What it should send, frame zero being now.
    ///   - values: What each character stands for.
    ///   - error: The failure `#` stands for; without it, `#` stands for any failure.
    ///   - subscription: When to subscribe and cancel, such as `"--^---!"`, or `"---!"` to
    ///     subscribe now and cancel at frame 3; frame zero is now.
    ///   - sourceLocation: Where a failed expectation is reported.
    public func expect<P: Publisher>(
        _ publisher: P,
        toBe marbles: String,
        values: [Character: P.Output] = [:],
        error: P.Failure? = nil,
        subscription: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) where P.Output: Equatable {
        let table = ValueTable(values)
        guard let expected = read(marbles, table: table, error: error, sourceLocation: sourceLocation) else {
            return
        }
        guard let actual = run(publisher, subscription: subscription, sourceLocation: sourceLocation) else {
            return
        }
        let matches =
            expected.count == actual.count
            && zip(expected, actual).allSatisfy { $0.offset == $1.offset && $0.event.matches($1.event) }
        guard !matches else { return }
        Issue.record(
            Comment(rawValue: difference(expected: expected, actual: actual, table: table)),
            sourceLocation: sourceLocation
        )
    }

    /// Checks when `publisher`'s subscribers subscribed and left, one subscription diagram
    /// each, in the order they subscribed, frame zero being the test's: `"^"` subscribed at
    /// frame zero and stayed, `"--^--!"` subscribed at frame 2 and left at frame 5. A
    /// subscriber leaves when it cancels or when the publisher ends.
    ///
    /// Virtual time runs until nothing is left to do first.
    public func expectSubscriptions<Output, Failure>(
        _ publisher: TestPublisher<Output, Failure>,
        toBe marbles: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        virtualScheduler.flush()
        var expected: [TestPublisher<Output, Failure>.Visit] = []
        for diagram in marbles {
            do {
                let window = try Marbles.readSubscription(diagram, frame: frameSeconds)
                guard let start = window.start else { continue }
                expected.append(.init(start: nanoseconds(start), end: window.end.map(nanoseconds)))
            } catch {
                Issue.record(
                    "\(diagram.debugDescription) cannot be read: \(error)",
                    sourceLocation: sourceLocation
                )
                return
            }
        }
        let actual = publisher.visits
        let matches =
            expected.count == actual.count
            && zip(expected, actual).allSatisfy { $0.start == $1.start && $0.end == $1.end }
        guard !matches else { return }
        let lines =
            ["the subscriptions differ from the marbles", "expected:"]
            + (expected.isEmpty ? ["  (none)"] : expected.map { "  " + diagram(of: $0) })
            + ["actual:"]
            + (actual.isEmpty ? ["  (none)"] : actual.map { "  " + diagram(of: $0) })
        Issue.record(Comment(rawValue: lines.joined(separator: "\n")), sourceLocation: sourceLocation)
    }

    /// What `publisher` sends, as marbles, for code that compares them itself: subscribes
    /// now, runs virtual time until nothing is left to do, and prints each value as its
    /// character in `values`, or by a stand-in letter when it has none.
    public func marbles<P: Publisher>(
        of publisher: P,
        values: [Character: P.Output] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> String where P.Output: Equatable {
        guard let actual = run(publisher, subscription: nil, sourceLocation: sourceLocation) else {
            return ""
        }
        let table = ValueTable(values)
        do {
            return try Marbles.print(
                actual.map { timelineEvent($0, lane: "actual", table: table) },
                frame: frameSeconds
            )
            .marbles
        } catch {
            Issue.record("the events cannot be drawn: \(error)", sourceLocation: sourceLocation)
            return ""
        }
    }

    /// Runs virtual time until nothing is left to do, as RxJS's `flush` does; a timer that
    /// repeats for ever stops after an hour of it.
    public func flush() {
        virtualScheduler.flush()
    }
}
