import DequeModule
public import Tributary

extension StreamDocument {
    /// The stream or node `id` as a real publisher, assembled from Combine's (or OpenCombine's
    /// and Tributary's) operators, with time on `scheduler`.
    ///
    /// ```swift
    /// let doubled = try document.publisher(for: "doubled", scheduler: DispatchQueue.main)
    /// ```
    ///
    /// Each subscription runs the document's streams afresh. An expression that fails on a
    /// value ends the publisher with a ``StreamFailure``. The document is checked again first,
    /// as its properties may have changed since it was decoded.
    public func publisher<S: Scheduler>(
        for id: String,
        scheduler: S
    ) throws(StreamError) -> AnyPublisher<StreamValue, StreamFailure> {
        _ = try operatorCounts()
        // Inside the pipeline failures travel as `any Error` (each one already a
        // StreamFailure naming its origin), so that they are converted once here rather than
        // after every operator.
        return try pipeline(for: id, in: elements, scheduler: scheduler)
            .mapError { Self.failure($0, node: id) }
            .eraseToAnyPublisher()
    }

    /// The publisher of `id` with failures as `any Error`, each a ``StreamFailure``, from a
    /// checked document's `elements`. With a `deadline`, every item a stream publishes is
    /// checked against it first: every value starts as an item, so a run stops on time even
    /// where operators work synchronously, with no scheduled action between.
    func pipeline<S: Scheduler>(
        for id: String,
        in elements: [String: Element],
        scheduler: S,
        deadline: RunDeadline? = nil
    ) throws(StreamError) -> AnyPublisher<StreamValue, any Error> {
        guard let element = elements[id] else {
            throw StreamError(.danglingReference(id), path: "$")
        }
        switch element {
        case .stream(let stream):
            let items = Self.publisher(for: stream, scheduler: scheduler)
            guard let deadline else { return items }
            return items.tryMap { value in
                try deadline.check()
                return value
            }
            .eraseToAnyPublisher()
        case .node(let node):
            var inputs: [AnyPublisher<StreamValue, any Error>] = []
            for input in node.inputs {
                inputs.append(
                    try pipeline(for: input, in: elements, scheduler: scheduler, deadline: deadline)
                )
            }
            return Self.apply(node, to: inputs, scheduler: scheduler)
        }
    }

    /// The publisher of the last node, or of the last stream when there are no nodes.
    public func publisher<S: Scheduler>(
        scheduler: S
    ) throws(StreamError) -> AnyPublisher<StreamValue, StreamFailure> {
        guard let last = ids.last else { return Empty().eraseToAnyPublisher() }
        return try publisher(for: last, scheduler: scheduler)
    }

    static func publisher<S: Scheduler>(
        for stream: StreamDefinition,
        scheduler: S
    ) -> AnyPublisher<StreamValue, any Error> {
        let items = TimedItems<S, any Error>(items: stream.items, scheduler: scheduler).eraseToAnyPublisher()
        /// A signal `seconds` later on the scheduler, after which the stream ends.
        func after(_ seconds: Double) -> AnyPublisher<Void, any Error> {
            Just(()).delay(for: .seconds(seconds), scheduler: scheduler).setFailureType(to: (any Error).self)
                .eraseToAnyPublisher()
        }
        switch stream.ending {
        case .finished(let seconds) where seconds == 0:
            return items
        case .finished(let seconds):
            return items.append(after(seconds).flatMap { Empty<StreamValue, any Error>() })
                .eraseToAnyPublisher()
        case .failed(let seconds, let message):
            let failure = StreamFailure(origin: stream.id, message: message)
            return items.append(after(seconds).flatMap { Fail<StreamValue, any Error>(error: failure) })
                .eraseToAnyPublisher()
        case .never:
            return items.append(Empty(completeImmediately: false)).eraseToAnyPublisher()
        }
    }

    static func apply<S: Scheduler>(
        _ node: StreamNode,
        to inputs: [AnyPublisher<StreamValue, any Error>],
        scheduler: S
    ) -> AnyPublisher<StreamValue, any Error> {
        let id = node.id
        let input = inputs[0]
        switch node.operator {
        case .map(let expression):
            return input.tryMap { try Self.evaluate(expression, value: $0, node: id) }.eraseToAnyPublisher()
        case .scan(let initial, let expression):
            return FallibleScan(upstream: input, initial: initial) { accumulator, value in
                try Self.evaluate(expression, value: value, accumulator: accumulator, node: id)
            }
            .eraseToAnyPublisher()
        case .filter(let expression):
            return input.tryFilter { value in
                let result = try Self.evaluate(expression, value: value, node: id)
                guard case .boolean(let keep) = result else {
                    throw StreamFailure(
                        origin: id,
                        message: "filter needs a boolean, not \(result.typeNameWithArticle)"
                    )
                }
                return keep
            }
            .eraseToAnyPublisher()
        case .dropFirst(let count):
            return input.dropFirst(count).eraseToAnyPublisher()
        case .prefix(let count):
            return input.prefix(count).eraseToAnyPublisher()
        case .removeDuplicates:
            return input.removeDuplicates().eraseToAnyPublisher()
        case .delay(let seconds):
            return input.delay(for: .seconds(seconds), scheduler: scheduler).eraseToAnyPublisher()
        case .debounce(let seconds):
            return input.debounce(for: .seconds(seconds), scheduler: scheduler).eraseToAnyPublisher()
        case .throttle(let seconds, let latest):
            return input.throttle(for: .seconds(seconds), scheduler: scheduler, latest: latest)
                .eraseToAnyPublisher()
        case .merge:
            return Publishers.MergeMany(inputs).eraseToAnyPublisher()
        case .append:
            return Concatenation(inputs: inputs).eraseToAnyPublisher()
        case .zip:
            return zipped(inputs, node: id)
        case .combineLatest:
            return combinedLatest(inputs, node: id)
        }
    }

    /// The latest values of any number of inputs, as a list: two inputs, the usual case, in one
    /// step, more by combining them pairwise.
    private static func combinedLatest(
        _ inputs: [AnyPublisher<StreamValue, any Error>],
        node: String
    ) -> AnyPublisher<StreamValue, any Error> {
        if inputs.count == 2 {
            return inputs[0].combineLatest(inputs[1])
                .tryMap { try StreamValue.joined([$0, $1], node: node) }
                .eraseToAnyPublisher()
        }
        let first = inputs[0].map { [$0] }.eraseToAnyPublisher()
        return inputs.dropFirst()
            .reduce(first) { joined, next in joined.combineLatest(next) { $0 + [$1] }.eraseToAnyPublisher() }
            .tryMap { try StreamValue.joined($0, node: node) }
            .eraseToAnyPublisher()
    }

    /// Pairs the inputs' values by position, from merge, scan and prefix(while:).
    ///
    /// OpenCombine's own Zip keeps an unowned reference to its parent that a scheduler can
    /// outlive, which crashes; this one is made of operators without that flaw. It publishes
    /// a list once every input has a value waiting, and finishes once an input has finished
    /// with none waiting, as Combine's zip does.
    private static func zipped(
        _ inputs: [AnyPublisher<StreamValue, any Error>],
        node: String
    ) -> AnyPublisher<StreamValue, any Error> {
        let tagged = inputs.enumerated().map { index, input in
            input.map { ZipState.Event.value(index, $0) }
                .append(Just(.finished(index)).setFailureType(to: (any Error).self))
                .eraseToAnyPublisher()
        }
        // One state per subscription, made when subscribed, so that each run starts afresh.
        return Deferred {
            let state = ZipState(inputs: inputs.count)
            return Publishers.MergeMany(tagged)
                .flatMap(maxPublishers: .unlimited) {
                    Publishers.Sequence<[ZipState.Signal], any Error>(sequence: state.next($0))
                }
                .prefix { if case .value = $0 { true } else { false } }
                .tryCompactMap { signal -> StreamValue? in
                    guard case .value(.list(let values)) = signal else { return nil }
                    return try StreamValue.joined(values, node: node)
                }
        }
        .eraseToAnyPublisher()
    }

    /// Evaluates `expression`; a failure names `node` as its origin.
    private static func evaluate(
        _ expression: StreamExpression,
        value: StreamValue,
        accumulator: StreamValue? = nil,
        node: String
    ) throws(StreamFailure) -> StreamValue {
        do {
            return try expression.evaluate(value, accumulator: accumulator)
        } catch {
            throw failure(error, node: node)
        }
    }

    static func failure(_ error: any Error, node: String) -> StreamFailure {
        if let failure = error as? StreamFailure { return failure }
        let expressionError = error as? ExpressionError
        return StreamFailure(origin: node, message: "\(error)", expressionError: expressionError)
    }
}

/// The bookkeeping of a zip: what each input has waiting, and which have finished.
///
/// An event costs O(1) but for the list it completes, which holds one value of every input, so
/// a zip of K inputs costs O(events × K) at most. A run is one thread's at a time, as
/// everything on a ``VirtualTimeScheduler`` is.
final class ZipState {
    enum Event {
        case value(Int, StreamValue)
        case finished(Int)
    }

    enum Signal {
        case value(StreamValue)
        case done
    }

    /// Each input's values not yet zipped, oldest first.
    private var waiting: [Deque<StreamValue>]
    /// How many inputs have no value waiting.
    private var empty: Int
    /// Whether an input has finished with none waiting: nothing more can be zipped.
    private var isDone = false
    private var finished: [Bool]

    init(inputs: Int) {
        waiting = Array(repeating: [], count: inputs)
        empty = inputs
        finished = Array(repeating: false, count: inputs)
    }

    /// What `event` makes the zip publish: a list, the end, both, or nothing.
    func next(_ event: Event) -> [Signal] {
        guard !isDone else { return [] }
        switch event {
        case .value(let index, let value):
            if waiting[index].isEmpty { empty -= 1 }
            waiting[index].append(value)
            guard empty == 0 else { return [] }
            var list: [StreamValue] = []
            list.reserveCapacity(waiting.count)
            for input in waiting.indices {
                list.append(waiting[input].removeFirst())
                if waiting[input].isEmpty {
                    empty += 1
                    if finished[input] { isDone = true }
                }
            }
            return isDone ? [.value(.list(list)), .done] : [.value(.list(list))]
        case .finished(let index):
            finished[index] = true
            guard waiting[index].isEmpty else { return [] }
            isDone = true
            return [.done]
        }
    }
}
