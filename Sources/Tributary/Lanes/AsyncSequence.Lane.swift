/// Recording an async sequence's iterations as a lane.
extension AsyncSequence {
    /// Records each iteration of this sequence as a lane: when it begins, each `next()` as a
    /// demand of one, each element, and how it ends — finished, failed, or cancelled, which is
    /// also how an iteration left early (a `break`, a thrown error, a task cancelled) ends.
    ///
    /// The events, their order and their cost are those of
    /// `Publisher.lane(_:filter:recorder:file:line:describe:)`, whose parameters it takes, so a
    /// recording shows an async pipeline and a Combine one side by side. With nobody recording
    /// (no `recorder` and no ``Lanes/recorder`` when iteration begins), the sequence iterates its
    /// base directly and costs one branch per element.
    ///
    /// ```swift
    /// for await location in locations.lane("locations", recorder: recorder) {
    ///     map.center(on: location)
    /// }
    /// ```
    public func lane(
        _ name: String,
        filter: LaneFilter = .all,
        recorder: (any LaneRecording)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        describe: @escaping @Sendable (Element) -> String = { String(describing: $0) }
    ) -> AsyncLaneSequence<Self> {
        AsyncLaneSequence(
            base: self,
            name: name,
            filter: filter,
            recorder: recorder,
            source: "\(file):\(line)",
            describe: describe
        )
    }
}

/// Recording an async sequence's iterations as a lane that keeps each element's structure.
extension AsyncSequence where Element: Encodable {
    /// Records each iteration of this sequence as a lane, keeping each element's structure as
    /// JSON beside its description; see `Combine.Publisher.lane(_:encoding:filter:recorder:file:line:describe:)`.
    ///
    /// ```swift
    /// for await state in model.states.lane("state", encoding: .json) { render(state) }
    /// ```
    public func lane(
        _ name: String,
        encoding: LaneEncoding,
        filter: LaneFilter = .all,
        recorder: (any LaneRecording)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        describe: (@Sendable (Element) -> String)? = nil
    ) -> AsyncLaneSequence<Self> {
        var sequence = AsyncLaneSequence(
            base: self,
            name: name,
            filter: filter,
            recorder: recorder,
            source: "\(file):\(line)",
            describe: describe ?? LaneDescription<Element>().describe
        )
        sequence.structure = LaneStructuring<Element>(encoding: encoding).structure
        return sequence
    }
}

/// Writes an element down as `String(describing:)` does, without capturing its type in a
/// closure.
struct LaneDescription<Value>: Sendable {
    func describe(_ value: Value) -> String { String(describing: value) }
}

/// Keeps an element's structure by its encoding, without capturing its type in a closure.
struct LaneStructuring<Value: Encodable>: Sendable {
    let encoding: LaneEncoding
    func structure(_ value: Value) -> LaneEvent.Structure { encoding.structure(of: value) }
}

/// An async sequence whose iterations are recorded into a ``LaneRecording``, one subscription
/// each; made by ``_Concurrency/AsyncSequence/lane(_:filter:recorder:file:line:describe:)``.
public struct AsyncLaneSequence<Base: AsyncSequence>: AsyncSequence {
    public typealias Element = Base.Element
    public typealias Failure = Base.Failure

    let base: Base
    /// The lane's name.
    public let name: String
    /// Which events are recorded.
    public let filter: LaneFilter
    /// Where events go; `nil` for ``Lanes/recorder``.
    public let recorder: (any LaneRecording)?
    /// Where the lane was attached, as `file:line`.
    public let source: String
    let describe: @Sendable (Element) -> String
    /// How an element's structure is kept, for a lane that keeps it.
    var structure: (@Sendable (Element) -> LaneEvent.Structure)?

    public func makeAsyncIterator() -> AsyncIterator {
        guard let recorder = recorder ?? Lanes.recorder, !filter.isEmpty else {
            return AsyncIterator(base: base.makeAsyncIterator(), iteration: nil, describe: describe)
        }
        let log = LaneLog(
            recorder: recorder,
            lane: name,
            subscription: Lanes.nextSubscription(of: name),
            filter: filter,
            source: source
        )
        return AsyncIterator(
            base: base.makeAsyncIterator(),
            iteration: Iteration(log, structure: structure),
            describe: describe
        )
    }

    /// One iteration's recording: begun with the first `next()`, and ended as cancelled when
    /// the iterator is let go before the sequence ended.
    @usableFromInline
    final class Iteration {
        let log: LaneLog
        let structure: (@Sendable (Element) -> LaneEvent.Structure)?
        private var begun = false

        init(_ log: LaneLog, structure: (@Sendable (Element) -> LaneEvent.Structure)?) {
            self.log = log
            self.structure = structure
        }

        func demand() {
            if !begun {
                begun = true
                log.record(.subscribed)
            }
            log.record(.requested(.max(1)))
        }

        deinit {
            // Recorded only when begun and not ended: the log ignores what follows an end.
            if begun { log.record(.cancelled) }
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline var base: Base.AsyncIterator
        @usableFromInline let iteration: Iteration?
        let describe: @Sendable (Element) -> String

        init(
            base: Base.AsyncIterator,
            iteration: Iteration?,
            describe: @escaping @Sendable (Element) -> String
        ) {
            self.base = base
            self.iteration = iteration
            self.describe = describe
        }

        // Inlined where it is iterated, so that with nobody recording the loop is its base's
        // loop and one branch; what a recorded iteration does is called.
        @inlinable
        public mutating func next(
            isolation actor: isolated (any Actor)? = #isolation
        ) async throws(Failure) -> Element? {
            guard let iteration else { return try await base.next(isolation: actor) }
            return try await recordedNext(iteration, isolation: actor)
        }

        @usableFromInline
        mutating func recordedNext(
            _ iteration: Iteration,
            isolation actor: isolated (any Actor)?
        ) async throws(Failure) -> Element? {
            iteration.demand()
            let element: Element?
            do {
                element = try await base.next(isolation: actor)
            } catch {
                let kind: LaneEvent.Kind =
                    error is CancellationError ? .cancelled : .failed(String(describing: error))
                iteration.log.record(kind)
                throw error
            }
            if let element {
                if iteration.log.recordsValues {
                    iteration.log.record(.value(describe(element)), structure: iteration.structure?(element))
                }
            } else {
                // A sequence that ends because its task was cancelled did not finish.
                iteration.log.record(Task.isCancelled ? .cancelled : .finished)
            }
            return element
        }

        @inlinable
        public mutating func next() async throws(Failure) -> Element? {
            try await next(isolation: nil)
        }
    }
}

extension AsyncLaneSequence: Sendable where Base: Sendable {}
