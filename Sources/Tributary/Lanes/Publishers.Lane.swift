#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// Recording the subscriptions through a point of a pipeline as a lane.
extension Publisher {
    /// Records the life of each subscription through this point of a pipeline: when it begins,
    /// the demand, each value, and how it ends.
    ///
    /// The lane changes nothing about the pipeline: values, demand, completion and cancellation
    /// pass as they would without it. With nobody recording (no `recorder` and no
    /// ``Lanes/recorder``) it subscribes straight through and costs nothing per value.
    ///
    /// ```swift
    /// $query
    ///     .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
    ///     .lane("search", recorder: recorder)
    ///     .flatMap(search)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The lane's name, as recordings and the lab show it.
    ///   - filter: Which events to record.
    ///   - recorder: Where to record; `nil` uses ``Lanes/recorder`` as it is when subscribed.
    ///   - file: The source file named in each event.
    ///   - line: The source line named in each event.
    ///   - describe: How a value is written down; called only for values that are recorded.
    /// - Returns: A publisher that publishes what this one does.
    public func lane(
        _ name: String,
        filter: LaneFilter = .all,
        recorder: (any LaneRecording)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        describe: @escaping (Output) -> String = { String(describing: $0) }
    ) -> Publishers.Lane<Self> {
        Publishers.Lane(
            upstream: self,
            name: name,
            filter: filter,
            recorder: recorder,
            source: "\(file):\(line)",
            describe: describe
        )
    }
}

/// Recording a lane that writes values by their `description`.
extension Publisher where Output: CustomStringConvertible {
    /// Records the life of each subscription through this point of a pipeline, writing values
    /// by their `description`, which for such values is what `String(describing:)` writes, read
    /// directly rather than looked up on every value.
    ///
    /// - Parameters:
    ///   - name: The lane's name, as recordings and the lab show it.
    ///   - filter: Which events to record.
    ///   - recorder: Where to record; `nil` uses ``Lanes/recorder`` as it is when subscribed.
    ///   - file: The source file named in each event.
    ///   - line: The source line named in each event.
    /// - Returns: A publisher that publishes what this one does.
    public func lane(
        _ name: String,
        filter: LaneFilter = .all,
        recorder: (any LaneRecording)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Publishers.Lane<Self> {
        lane(name, filter: filter, recorder: recorder, file: file, line: line, describe: { $0.description })
    }
}

/// Recording a lane that keeps each value's structure as JSON.
extension Publisher where Output: Encodable {
    /// Records the life of each subscription through this point of a pipeline, keeping each
    /// value's structure as JSON beside its description, so that the lab shows each change of
    /// the value as a diff from the one before.
    ///
    /// A lane keeps structure only when asked, with this method: a value's JSON costs more than
    /// its description, and most lanes are read as marbles, where the description is enough.
    ///
    /// ```swift
    /// Observed { model.state }
    ///     .lane("state", encoding: .json)
    ///     .sink { render($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The lane's name, as recordings and the lab show it.
    ///   - encoding: How values are written as JSON, and up to how many bytes.
    ///   - filter: Which events to record.
    ///   - recorder: Where to record; `nil` uses ``Lanes/recorder`` as it is when subscribed.
    ///   - file: The source file named in each event.
    ///   - line: The source line named in each event.
    ///   - describe: How a value is written down; called only for values that are recorded.
    /// - Returns: A publisher that publishes what this one does.
    public func lane(
        _ name: String,
        encoding: LaneEncoding,
        filter: LaneFilter = .all,
        recorder: (any LaneRecording)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        describe: @escaping (Output) -> String = { String(describing: $0) }
    ) -> Publishers.Lane<Self> {
        var lane = Publishers.Lane(
            upstream: self,
            name: name,
            filter: filter,
            recorder: recorder,
            source: "\(file):\(line)",
            describe: describe
        )
        lane.structure = { encoding.structure(of: $0) }
        return lane
    }
}

/// Recording a lane that keeps each value's structure as JSON beside its `description`.
extension Publisher where Output: Encodable & CustomStringConvertible {
    /// Records the life of each subscription through this point of a pipeline, keeping each
    /// value's structure as JSON beside its `description`, which is read directly rather than
    /// looked up on every value; for an integer or a flag, whose JSON is its description, the
    /// two are one text.
    ///
    /// - Parameters:
    ///   - name: The lane's name, as recordings and the lab show it.
    ///   - encoding: How values are written as JSON, and up to how many bytes.
    ///   - filter: Which events to record.
    ///   - recorder: Where to record; `nil` uses ``Lanes/recorder`` as it is when subscribed.
    ///   - file: The source file named in each event.
    ///   - line: The source line named in each event.
    /// - Returns: A publisher that publishes what this one does.
    public func lane(
        _ name: String,
        encoding: LaneEncoding,
        filter: LaneFilter = .all,
        recorder: (any LaneRecording)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Publishers.Lane<Self> {
        var lane = lane(
            name,
            encoding: encoding,
            filter: filter,
            recorder: recorder,
            file: file,
            line: line,
            describe: { $0.description }
        )
        lane.structureIsDescription = LaneEncoding.describesAsJSON(Output.self) && encoding.limit >= 40
        return lane
    }
}

/// The publisher that records a lane.
extension Publishers {
    /// A publisher that records the subscriptions through it into a ``LaneRecording``.
    public struct Lane<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher whose subscriptions are recorded.
        public let upstream: Upstream
        /// The lane's name.
        public let name: String
        /// Which events are recorded.
        public let filter: LaneFilter
        /// Where events go; `nil` for ``Lanes/recorder``.
        public let recorder: (any LaneRecording)?
        /// Where the lane was attached, as `file:line`.
        public let source: String
        let describe: (Output) -> String
        /// How a value's structure is kept, for a lane that keeps it.
        var structure: ((Output) -> LaneEvent.Structure)?
        /// Whether a value's JSON is its description, as an integer's is.
        var structureIsDescription = false

        /// Creates a lane; `lane(_:filter:recorder:file:line:describe:)` is the usual way to make one.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose subscriptions are recorded.
        ///   - name: The lane's name, as recordings and the lab show it.
        ///   - filter: Which events to record.
        ///   - recorder: Where to record; `nil` uses ``Lanes/recorder`` as it is when subscribed.
        ///   - source: Where the lane was attached, as `file:line`.
        ///   - describe: How a value is written down; called only for values that are recorded.
        public init(
            upstream: Upstream,
            name: String,
            filter: LaneFilter,
            recorder: (any LaneRecording)?,
            source: String,
            describe: @escaping (Output) -> String
        ) {
            self.upstream = upstream
            self.name = name
            self.filter = filter
            self.recorder = recorder
            self.source = source
            self.describe = describe
        }

        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
            guard let recorder = recorder ?? Lanes.recorder, !filter.isEmpty else {
                upstream.subscribe(subscriber)
                return
            }
            let log = LaneLog(
                recorder: recorder,
                lane: name,
                subscription: Lanes.nextSubscription(of: name),
                filter: filter,
                source: source
            )
            upstream.subscribe(
                Inner(
                    downstream: subscriber,
                    log: log,
                    describe: describe,
                    structure: structure,
                    structureIsDescription: structureIsDescription
                )
            )
        }
    }
}

/// One subscription's events, stamped and handed to the recorder in the order they happen.
///
/// The lock is held only while an event is stamped and recorded, never while the pipeline is
/// called, so the order recorded is the order in which the lane saw things, whatever threads
/// the upstream and downstream call from.
final class LaneLog: @unchecked Sendable {
    // @unchecked: `ended` is reached only under `lock`; the rest never changes.
    private let lock = Lock()
    private var ended = false
    let recorder: any LaneRecording
    let lane: String
    let subscription: Int
    let filter: LaneFilter
    let source: String
    private let began: ContinuousClock.Instant

    init(recorder: any LaneRecording, lane: String, subscription: Int, filter: LaneFilter, source: String) {
        self.recorder = recorder
        self.lane = lane
        self.subscription = subscription
        self.filter = filter
        self.source = source
        self.began = recorder.began
    }

    var recordsValues: Bool { filter.contains(.events) }

    func record(_ kind: LaneEvent.Kind, structure: LaneEvent.Structure? = nil) {
        guard filter.admits(kind) else {
            if kind.isEnd { lock.withLock { ended = true } }
            return
        }
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return }
        ended = kind.isEnd
        recorder.record(
            LaneEvent(
                lane: lane,
                subscription: subscription,
                kind: kind,
                time: ContinuousClock.now - began,
                source: source,
                structure: structure
            )
        )
    }
}

extension Publishers.Lane {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        // @unchecked: `upstream` is set once, under `lock`, before anything can read it; Combine
        // serialises the calls on `downstream`.
        typealias Input = Output

        private let downstream: Downstream
        private let log: LaneLog
        private let describe: (Output) -> String
        private let structure: ((Output) -> LaneEvent.Structure)?
        private let structureIsDescription: Bool
        private let lock = Lock()
        private var upstream: (any Subscription)?

        init(
            downstream: Downstream,
            log: LaneLog,
            describe: @escaping (Output) -> String,
            structure: ((Output) -> LaneEvent.Structure)?,
            structureIsDescription: Bool
        ) {
            self.downstream = downstream
            self.log = log
            self.describe = describe
            self.structure = structure
            self.structureIsDescription = structureIsDescription
        }

        var description: String { "Lane" }

        func receive(subscription: any Subscription) {
            log.record(.subscribed)
            lock.withLock { upstream = subscription }
            downstream.receive(subscription: self)
        }

        func receive(_ input: Output) -> Subscribers.Demand {
            if log.recordsValues {
                let text = describe(input)
                log.record(.value(text), structure: structureIsDescription ? .json(text) : structure?(input))
            }
            let more = downstream.receive(input)
            if more > .none {
                log.record(.requested(more))
            }
            return more
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            switch completion {
            case .finished: log.record(.finished)
            case .failure(let error): log.record(.failed(String(describing: error)))
            }
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            log.record(.requested(demand))
            lock.withLock { upstream }?.request(demand)
        }

        func cancel() {
            log.record(.cancelled)
            let subscription = lock.withLock { () -> (any Subscription)? in
                defer { upstream = nil }
                return upstream
            }
            subscription?.cancel()
        }
    }
}
