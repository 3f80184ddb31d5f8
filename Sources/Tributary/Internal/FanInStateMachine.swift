#if !canImport(Combine)
    import DequeModule
    import OpenCombine

    /// The bookkeeping of an operator that joins several upstream publishers into one
    /// downstream subscriber (merge, combineLatest).
    ///
    /// It only decides; the owner performs what it returns (delivering downstream,
    /// requesting from or cancelling upstreams) after releasing its lock. One caller at a
    /// time is the *deliverer*: values and completions that arrive while somebody delivers
    /// wait in a queue, so nothing is lost, reordered or delivered re-entrantly.
    struct FanInStateMachine<Output, Failure: Error> {
        enum Buffering {
            /// Every value waits until it can be delivered (merge).
            case everyValue
            /// Values beyond the outstanding demand collapse into the newest (combineLatest).
            case latestOnly
        }

        enum SubscriptionAction {
            case none
            case cancel
            case handOver
            case cancelAndHandOver
        }

        enum ValueAction {
            case drop
            case buffered
            case deliver(Output)
        }

        enum DeliveryAction {
            case deliver(Output)
            case complete(Subscribers.Completion<Failure>)
            case idle
        }

        private enum Upstream {
            case awaitingSubscription
            case active(any Subscription)
            case done
        }

        private let buffering: Buffering
        private var upstreams: [Upstream]
        private var awaitingSubscriptions: Int
        private var unfinished: Int
        private var demand = Subscribers.Demand.none
        private var buffer = Deque<Output>()
        /// How the downstream is to end, once what it is owed has been delivered.
        private var completion: Subscribers.Completion<Failure>?
        /// Starts true: until the downstream holds its subscription, nothing may reach it.
        private var isDelivering = true
        private(set) var isTerminated = false

        init(upstreamCount: Int, buffering: Buffering) {
            precondition(upstreamCount > 0, "a fan-in needs at least one upstream")
            self.buffering = buffering
            upstreams = Array(repeating: .awaitingSubscription, count: upstreamCount)
            awaitingSubscriptions = upstreamCount
            unfinished = upstreamCount
        }

        /// An upstream handed over its subscription. The last one to do so hands the
        /// downstream its own subscription.
        mutating func upstreamSubscribed(
            _ subscription: any Subscription,
            at index: Int
        ) -> SubscriptionAction {
            guard !isTerminated, case .awaitingSubscription = upstreams[index] else {
                return .cancel
            }
            awaitingSubscriptions -= 1
            let handOver = awaitingSubscriptions == 0
            if completion != nil {
                upstreams[index] = .done
                return handOver ? .cancelAndHandOver : .cancel
            }
            upstreams[index] = .active(subscription)
            return handOver ? .handOver : .none
        }

        /// An upstream produced a value; `produce` turns it into the downstream's value
        /// (nil when there is nothing to publish yet) and runs only if the value counts.
        mutating func upstreamProduced(
            at index: Int,
            _ produce: () -> Output?
        ) -> ValueAction {
            guard completion == nil, !isTerminated, case .active = upstreams[index],
                let output = produce()
            else {
                return .drop
            }
            if !isDelivering, demand > .none, buffer.isEmpty {
                demand -= 1
                isDelivering = true
                return .deliver(output)
            }
            if buffering == .latestOnly, let limit = demand.max, buffer.count > limit {
                buffer[buffer.count - 1] = output
            } else {
                buffer.append(output)
            }
            return .buffered
        }

        /// An upstream finished or failed. Returns the upstreams to cancel and whether the
        /// caller became the deliverer.
        mutating func upstreamCompleted(
            at index: Int,
            _ event: Subscribers.Completion<Failure>
        ) -> (cancel: [any Subscription], deliver: Bool) {
            guard completion == nil, !isTerminated, case .active = upstreams[index] else {
                return ([], false)
            }
            upstreams[index] = .done
            var cancel: [any Subscription] = []
            switch event {
            case .finished:
                unfinished -= 1
                guard unfinished == 0 else { return ([], false) }
            case .failure:
                cancel = releaseUpstreams()
            }
            completion = event
            return (cancel, claimDelivery())
        }

        /// The downstream asked for more. Returns the upstreams to pass the demand on to and
        /// whether the caller became the deliverer.
        mutating func requested(
            _ more: Subscribers.Demand
        ) -> (upstreams: [any Subscription], deliver: Bool) {
            guard !isTerminated, more > .none else { return ([], false) }
            demand += more
            let deliver = (!buffer.isEmpty || completion != nil) && claimDelivery()
            return (activeSubscriptions(except: nil), deliver)
        }

        /// The deliverer finished handing over one value; `more` is the demand the
        /// downstream returned from it.
        mutating func delivered(adding more: Subscribers.Demand) -> DeliveryAction {
            demand += more
            return nextDelivery()
        }

        /// What the deliverer does next. When it returns `.idle` the caller has stopped
        /// being the deliverer.
        mutating func nextDelivery() -> DeliveryAction {
            precondition(isDelivering, "only the deliverer may deliver")
            if !isTerminated {
                if demand > .none, let output = buffer.popFirst() {
                    demand -= 1
                    return .deliver(output)
                }
                switch completion {
                case .failure(let error)?:
                    // Values beyond the demand are not owed: the failure ends the stream.
                    return terminate(with: .failure(error))
                case .finished? where buffer.isEmpty:
                    return terminate(with: .finished)
                case .finished?, nil:
                    // Buffered values are owed before `.finished`: wait for demand.
                    break
                }
            }
            isDelivering = false
            return .idle
        }

        /// The downstream cancelled. Returns the upstreams to cancel.
        mutating func cancelled() -> [any Subscription] {
            guard !isTerminated else { return [] }
            isTerminated = true
            buffer.removeAll()
            return releaseUpstreams()
        }

        /// The subscriptions of the upstreams still running, but for the one at `index`.
        func activeSubscriptions(except index: Int?) -> [any Subscription] {
            var result: [any Subscription] = []
            result.reserveCapacity(upstreams.count)
            for (position, upstream) in upstreams.enumerated() where position != index {
                if case .active(let subscription) = upstream {
                    result.append(subscription)
                }
            }
            return result
        }

        private mutating func claimDelivery() -> Bool {
            guard !isDelivering else { return false }
            isDelivering = true
            return true
        }

        private mutating func terminate(
            with completion: Subscribers.Completion<Failure>
        ) -> DeliveryAction {
            isTerminated = true
            isDelivering = false
            buffer.removeAll()
            _ = releaseUpstreams()
            return .complete(completion)
        }

        private mutating func releaseUpstreams() -> [any Subscription] {
            let subscriptions = activeSubscriptions(except: nil)
            for index in upstreams.indices {
                upstreams[index] = .done
            }
            return subscriptions
        }
    }
#endif
