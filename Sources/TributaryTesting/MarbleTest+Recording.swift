import Dispatch
import Foundation
import Testing
import Tributary
import TributaryStreams

/// One event a marble diagram says or a publisher sent, `offset` nanoseconds after frame zero.
struct Recorded<Output, Failure: Error> {
    enum Event {
        case value(Output)
        case finished
        /// A failure; nil in an expectation that takes any failure.
        case failure(Failure?)
    }

    var offset: Int64
    var event: Event
}

extension Recorded.Event where Output: Equatable {
    /// Whether `actual` is what `self` expects.
    func matches(_ actual: Self) -> Bool {
        switch (self, actual) {
        case (.value(let expected), .value(let actual)): expected == actual
        case (.finished, .finished): true
        case (.failure(nil), .failure): true
        case (.failure(let expected?), .failure(let actual?)): sameError(expected, actual)
        default: false
        }
    }
}

/// Whether two errors are the same: equal where the error is `Equatable`, otherwise the same
/// when described in full.
func sameError(_ expected: any Error, _ actual: any Error) -> Bool {
    let boxed: Any = expected
    if let expected = boxed as? any Equatable { return expected.isEqual(to: actual) }
    return String(reflecting: expected) == String(reflecting: actual)
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}

/// What the characters of a diagram stand for.
struct ValueTable<Output> {
    let values: [Character: Output]
    /// The characters in order, so that a value two characters stand for prints the same way.
    let keys: [Character]

    init(_ values: [Character: Output]) {
        self.values = values
        keys = values.keys.sorted()
    }

    /// The value `character` stands for: its entry, or the character itself where the output
    /// is a `String` or a `Character`, or its digit where it is an `Int`.
    func value(for character: Character) -> Output? {
        if let value = values[character] { return value }
        if let value = String(character) as? Output { return value }
        if let value = character as? Output { return value }
        if let digit = character.wholeNumberValue, let value = digit as? Output { return value }
        return nil
    }
}

extension ValueTable where Output: Equatable {
    /// The character that stands for `value`, if one does.
    func character(for value: Output) -> Character? {
        if let key = keys.first(where: { values[$0] == value }) { return key }
        let text: String? =
            (value as? String) ?? (value as? Character).map(String.init) ?? (value as? Int).map(String.init)
        guard let text, text.count == 1, let character = text.first, values[character] == nil,
            self.value(for: character) == value
        else { return nil }
        return character
    }
}

extension MarbleTest {
    func make<Output, Failure: Error>(
        _ marbles: String,
        hot: Bool,
        values: [Character: Output],
        error: Failure?,
        sourceLocation: SourceLocation
    ) -> TestPublisher<Output, Failure> {
        let table = ValueTable(values)
        var planned: [TestPublisher<Output, Failure>.Planned] = []
        if let events = read(marbles, table: table, error: error, sourceLocation: sourceLocation) {
            if !hot, marbles.contains("^") {
                Issue.record(
                    "a cold publisher starts as each subscriber subscribes and has no ^: \(marbles.debugDescription)",
                    sourceLocation: sourceLocation
                )
            }
            for event in events {
                switch event.event {
                case .value(let value): planned.append(.init(offset: event.offset, event: .value(value)))
                case .finished: planned.append(.init(offset: event.offset, event: .completion(.finished)))
                case .failure(let failure?):
                    planned.append(.init(offset: event.offset, event: .completion(.failure(failure))))
                case .failure(nil):
                    Issue.record(
                        "\(marbles.debugDescription) fails at #, but no error was given for it: pass error:",
                        sourceLocation: sourceLocation
                    )
                }
            }
        }
        return TestPublisher(hot: hot, planned: planned, scheduler: virtualScheduler)
    }

    /// The events `marbles` say, or nil after recording why they cannot be read.
    func read<Output, Failure: Error>(
        _ marbles: String,
        table: ValueTable<Output>,
        error: Failure?,
        sourceLocation: SourceLocation
    ) -> [Recorded<Output, Failure>]? {
        // Each character is read as a string of itself, so that it can be looked up after.
        var characters: [Character: StreamValue] = [:]
        for character in marbles where character != "#" { characters[character] = .string(String(character)) }
        let events: [Marbles.Event]
        do {
            events = try Marbles.read(marbles, frame: frameSeconds, values: characters)
        } catch {
            Issue.record(
                "\(marbles.debugDescription) cannot be read: \(error)",
                sourceLocation: sourceLocation
            )
            return nil
        }
        var recorded: [Recorded<Output, Failure>] = []
        for event in events {
            let offset = Int64((event.time * 1e9).rounded())
            switch event.kind {
            case .value(let marble):
                guard case .string(let text) = marble, let character = text.first,
                    let value = table.value(for: character)
                else {
                    Issue.record(
                        "\(marbles.debugDescription) uses \"\(marble)\", which values: does not name",
                        sourceLocation: sourceLocation
                    )
                    return nil
                }
                recorded.append(.init(offset: offset, event: .value(value)))
            case .finished:
                recorded.append(.init(offset: offset, event: .finished))
            case .failure:
                recorded.append(.init(offset: offset, event: .failure(error)))
            }
        }
        return recorded
    }

    /// Subscribes to `publisher` now, or as `subscription` says, runs virtual time until
    /// nothing is left to do, and returns what it sent, timed from now.
    func run<P: Publisher>(
        _ publisher: P,
        subscription: String?,
        sourceLocation: SourceLocation
    ) -> [Recorded<P.Output, P.Failure>]? {
        var window = Marbles.Subscription(start: 0)
        if let subscription {
            do {
                if subscription.contains("^") {
                    window = try Marbles.readSubscription(subscription, frame: frameSeconds)
                } else {
                    // As in RxJS, a diagram without ^ subscribes at frame zero; the ^ put in
                    // front to read it takes a frame, which the end gives back.
                    let read = try Marbles.readSubscription("^" + subscription, frame: frameSeconds)
                    window = Marbles.Subscription(start: 0, end: read.end.map { $0 - frameSeconds })
                }
            } catch {
                Issue.record(
                    "\(subscription.debugDescription) cannot be read: \(error)",
                    sourceLocation: sourceLocation
                )
                return nil
            }
        }
        let zero = virtualScheduler.now
        let recording = Recording<P.Output, P.Failure>(scheduler: virtualScheduler, zero: zero)
        if window.start == 0 {
            // At once, so that a hot publisher's events at frame zero reach it.
            publisher.subscribe(recording)
        } else if let start = window.start {
            virtualScheduler.schedule(after: zero.advanced(by: .nanoseconds(Int(nanoseconds(start))))) {
                publisher.subscribe(recording)
            }
        }
        if let end = window.end {
            virtualScheduler.schedule(after: zero.advanced(by: .nanoseconds(Int(nanoseconds(end))))) {
                recording.cancel()
            }
        }
        virtualScheduler.flush()
        // The subscription stays, as RxJS's does after its flush, so that the publisher's log
        // says the subscriber never left; later events are not recorded.
        recording.stop()
        keep(recording)
        return recording.events
    }

    func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(max(0, (seconds * 1e9).rounded()))
    }

    /// The message of an expectation that failed: both diagrams one above the other, what
    /// their characters stand for, and the first event that differs.
    func difference<Output: Equatable, Failure: Error>(
        expected: [Recorded<Output, Failure>],
        actual: [Recorded<Output, Failure>],
        table: ValueTable<Output>
    ) -> String {
        var lines = ["the publisher's events differ from the marbles"]
        let events =
            expected.map { timelineEvent($0, lane: "expected", table: table) }
            + actual.map { timelineEvent($0, lane: "actual", table: table) }
        do {
            let drawing = try TextLanes.draw(
                Timeline(lanes: ["expected", "actual"], events: events.sorted { $0.time < $1.time }),
                titles: [:],
                frame: frameSeconds
            )
            lines.append(drawing.text)
        } catch {
            lines.append("(the events cannot be drawn as marbles: \(error))")
        }
        let named = table.keys.filter { key in
            events.contains { $0.kind == .value(StreamValue(marble: key)) }
        }
        if !named.isEmpty {
            lines.append(
                "values: "
                    + named.map { "\($0) = \(String(reflecting: table.values[$0]!))" }.joined(separator: ", ")
            )
        }
        let index =
            Array(zip(expected, actual)).firstIndex {
                !($0.offset == $1.offset && $0.event.matches($1.event))
            }
            ?? min(expected.count, actual.count)
        let expectedText = index < expected.count ? describe(expected[index], table: table) : "nothing more"
        let actualText = index < actual.count ? describe(actual[index], table: table) : "nothing more"
        lines.append("first difference: expected \(expectedText); got \(actualText)")
        return lines.joined(separator: "\n")
    }

    /// An event as one line: what it is, and when, in frames.
    func describe<Output: Equatable, Failure: Error>(
        _ recorded: Recorded<Output, Failure>,
        table: ValueTable<Output>
    ) -> String {
        let frames = Double(recorded.offset) / (frameSeconds * 1e9)
        let when = frames == frames.rounded() ? "frame \(Int(frames))" : "frame \(frames)"
        switch recorded.event {
        case .value(let value): return "\(String(reflecting: value)) at \(when)"
        case .finished: return "the end at \(when)"
        case .failure(let error?): return "failure \(String(reflecting: error)) at \(when)"
        case .failure(nil): return "a failure at \(when)"
        }
    }

    /// An event as the marble printer takes it: a value under its character, or written out
    /// in full so that the printer gives it a stand-in and a line in the legend.
    func timelineEvent<Output: Equatable, Failure: Error>(
        _ recorded: Recorded<Output, Failure>,
        lane: String,
        table: ValueTable<Output>
    ) -> Timeline.Event {
        let kind: Timeline.Kind
        switch recorded.event {
        case .value(let value):
            kind = .value(
                table.character(for: value).map(StreamValue.init(marble:))
                    ?? .string(String(reflecting: value))
            )
        case .finished: kind = .finished
        case .failure(let error?): kind = .failure(String(reflecting: error))
        case .failure(nil): kind = .failure("any failure")
        }
        return Timeline.Event(time: Double(recorded.offset) / 1e9, lane: lane, kind: kind)
    }

    /// A subscription as a diagram, frame zero being the test's.
    func diagram<Output, Failure>(of visit: TestPublisher<Output, Failure>.Visit) -> String {
        let frameNanoseconds = frameSeconds * 1e9
        func frames(_ nanoseconds: UInt64) -> String {
            let frames = Double(nanoseconds) / frameNanoseconds
            guard frames == frames.rounded(), frames < 200 else { return " \(Double(nanoseconds) / 1e6)ms " }
            return String(repeating: "-", count: Int(frames))
        }
        guard let end = visit.end else { return frames(visit.start) + "^" }
        guard end > visit.start else { return frames(visit.start) + "(^!)" }
        return frames(visit.start) + "^"
            + frames(end - visit.start - min(UInt64(frameNanoseconds), end - visit.start)) + "!"
    }
}

/// The subscriber an expectation subscribes: it asks for every value and keeps each event
/// with its virtual time.
final class Recording<Output, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: reached on the thread that runs the test's scheduler, one action at a time.
    private let scheduler: MarbleScheduler
    private let zero: DispatchQueue.SchedulerTimeType
    private var subscription: (any Subscription)?
    private var isDone = false
    private(set) var events: [Recorded<Output, Failure>] = []

    init(scheduler: MarbleScheduler, zero: DispatchQueue.SchedulerTimeType) {
        self.scheduler = scheduler
        self.zero = zero
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func receive(subscription: any Subscription) {
        guard !isDone else { return subscription.cancel() }
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        guard !isDone else { return .unlimited }
        events.append(.init(offset: offset, event: .value(input)))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard !isDone else { return }
        isDone = true
        subscription = nil
        switch completion {
        case .finished: events.append(.init(offset: offset, event: .finished))
        case .failure(let error): events.append(.init(offset: offset, event: .failure(error)))
        }
    }

    func cancel() {
        isDone = true
        subscription?.cancel()
        subscription = nil
    }

    /// Stops recording, keeping the subscription.
    func stop() {
        isDone = true
    }

    private var offset: Int64 {
        Int64(zero.distance(to: scheduler.now).magnitude)
    }
}
