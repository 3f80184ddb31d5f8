#if !canImport(Combine)
    public import OpenCombine

    /// Collecting values into groups by time, or by time or count, where Combine is absent.
    extension Publisher {
        /// Collects elements by a given time-grouping strategy, and emits a single array of
        /// the collection.
        ///
        /// Every `interval` (measured on the scheduler from subscription) the elements
        /// received since the last group are published as one array; an interval with no
        /// elements publishes nothing. With `Publishers.TimeGroupingStrategy.byTimeOrCount(_:_:_:)`
        /// a group is also published as soon as it holds `count` elements. When the upstream
        /// finishes, the elements not yet published form a last group; when it fails, they
        /// are discarded and the failure is forwarded.
        ///
        /// ```swift
        /// let batches = events.collect(.byTimeOrCount(DispatchQueue.main, .seconds(1), 50))
        /// ```
        ///
        /// - Parameters:
        ///   - strategy: The timing group strategy used by the operator to collect and publish
        ///     elements.
        ///   - options: Scheduler options to use for the strategy.
        /// - Returns: A publisher that collects elements by a given strategy, and emits a
        ///   single array of the collection.
        public func collect<S: Scheduler>(
            _ strategy: Publishers.TimeGroupingStrategy<S>,
            options: S.SchedulerOptions? = nil
        ) -> Publishers.CollectByTime<Self, S> {
            Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
        }
    }

    /// The time-grouping strategies and the publisher that collects by them, where Combine is absent.
    extension Publishers {
        /// A strategy for collecting received elements.
        public enum TimeGroupingStrategy<Context: Scheduler> {
            /// A grouping that collects and periodically publishes items.
            case byTime(Context, Context.SchedulerTimeType.Stride)
            /// A grouping that collects and publishes items periodically or when a buffer
            /// reaches a maximum size.
            case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
        }

        /// A publisher that buffers and periodically publishes its items.
        ///
        /// The upstream is asked for one element at a time, as Combine's does: nothing when
        /// subscribed, one element for each request of the downstream, and one more after each
        /// element it sends. Groups that are ready while the downstream has no demand wait, in
        /// order, until it asks for more.
        public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
            public typealias Output = [Upstream.Output]
            public typealias Failure = Upstream.Failure

            /// The publisher from which this publisher receives elements.
            public let upstream: Upstream
            /// The strategy with which to collect and publish elements.
            public let strategy: TimeGroupingStrategy<Context>
            /// Scheduler options to use for the strategy.
            public let options: Context.SchedulerOptions?

            /// Creates a publisher that buffers and periodically publishes its items.
            public init(
                upstream: Upstream,
                strategy: TimeGroupingStrategy<Context>,
                options: Context.SchedulerOptions?
            ) {
                self.upstream = upstream
                self.strategy = strategy
                self.options = options
            }

            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: 1,
                    buffering: .everyValue,
                    description: "CollectByTime"
                )
                upstream.subscribe(Grouper(parent: fanIn, strategy: strategy, options: options))
            }
        }
    }

    extension Publishers.CollectByTime {
        /// Cuts the upstream's elements into groups and feeds them to a one-way ``FanIn``,
        /// which owns demand and serial delivery. It is also the subscription the fan-in holds
        /// for the upstream, so cancelling reaches both the upstream and the timer.
        private final class Grouper<Downstream: Subscriber>: Subscriber, Subscription,
            CustomStringConvertible
        where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
            typealias Input = Upstream.Output
            typealias Failure = Upstream.Failure

            private let parent: FanIn<Downstream>
            private let context: Context
            private let interval: Context.SchedulerTimeType.Stride
            private let maximumCount: Int
            private let options: Context.SchedulerOptions?
            private let lock = Lock()
            private var upstream: (any Subscription)?
            private var timer: (any Cancellable)?
            private var isStopped = false
            /// The group being filled. Guarded by the parent's lock, under which it is read.
            private var group: [Input] = []

            init(
                parent: FanIn<Downstream>,
                strategy: Publishers.TimeGroupingStrategy<Context>,
                options: Context.SchedulerOptions?
            ) {
                self.parent = parent
                self.options = options
                switch strategy {
                case .byTime(let context, let interval):
                    (self.context, self.interval, maximumCount) = (context, interval, .max)
                case .byTimeOrCount(let context, let interval, let count):
                    precondition(count > 0, "collect(.byTimeOrCount) needs a count above zero")
                    (self.context, self.interval, maximumCount) = (context, interval, count)
                }
                precondition(interval > .zero, "collect(.byTime) needs an interval above zero")
            }

            var description: String { "CollectByTime" }

            func receive(subscription: any Subscription) {
                let isFirst = lock.withLock {
                    guard upstream == nil, !isStopped else { return false }
                    upstream = subscription
                    return true
                }
                guard isFirst else {
                    subscription.cancel()
                    return
                }
                parent.upstream(0, subscribed: self)
                let timer = context.schedule(
                    after: context.now.advanced(by: interval),
                    interval: interval,
                    tolerance: context.minimumTolerance,
                    options: options
                ) { [weak self] in
                    self?.publishGroup()
                }
                let isCancelled = lock.withLock {
                    guard !isStopped else { return true }
                    self.timer = timer
                    return false
                }
                if isCancelled { timer.cancel() }
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                _ = parent.upstream(0) {
                    group.append(input)
                    return group.count >= maximumCount ? takeGroup() : nil
                }
                return .max(1)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                if case .finished = completion {
                    publishGroup()
                }
                stop()
                parent.upstream(0, completed: completion)
            }

            /// Each request of the downstream, which comes through the fan-in, asks the upstream for
            /// one more element.
            func request(_ demand: Subscribers.Demand) {
                lock.withLock { upstream }?.request(.max(1))
            }

            func cancel() {
                let upstream = lock.withLock { self.upstream }
                stop()
                upstream?.cancel()
            }

            private func publishGroup() {
                _ = parent.upstream(0) { group.isEmpty ? nil : takeGroup() }
            }

            private func takeGroup() -> [Input] {
                defer { group = [] }
                return group
            }

            private func stop() {
                let timer = lock.withLock {
                    defer {
                        self.timer = nil
                        upstream = nil
                        isStopped = true
                    }
                    return self.timer
                }
                timer?.cancel()
            }
        }
    }
#endif
