#if !canImport(Combine)
    import OpenCombine

    /// The subscription that merge and combineLatest hand their downstream: it joins
    /// several upstreams through ``FanInStateMachine`` and delivers serially.
    final class FanIn<Downstream: Subscriber>: Subscription, CustomStringConvertible {
        typealias Machine = FanInStateMachine<Downstream.Input, Downstream.Failure>

        let description: String
        private let lock = Lock()
        private var machine: Machine
        private let downstream: Downstream
        /// combineLatest's snapshot of every upstream's latest value; nil until each has
        /// produced one. It holds the sides, which hold this object, so termination clears it.
        private var combine: (() -> Downstream.Input?)?

        init(
            downstream: Downstream,
            upstreamCount: Int,
            buffering: Machine.Buffering,
            description: String
        ) {
            self.downstream = downstream
            self.description = description
            machine = Machine(upstreamCount: upstreamCount, buffering: buffering)
        }

        /// A subscriber for upstream `index` whose values are published as they are.
        func side(_ index: Int) -> FanInSide<Downstream.Input, Downstream> {
            FanInSide(parent: self, index: index) { _, value in value }
        }

        /// A subscriber for upstream `index` that records the latest value and publishes the
        /// combination once ``setCombination(_:)`` can build one.
        func latestSide<Input>(_ index: Int, _: Input.Type) -> FanInSide<Input, Downstream> {
            FanInSide(parent: self, index: index) { side, value in
                side.latest = value
                return side.parent.combine?()
            }
        }

        /// Sets how combineLatest builds its output from the sides' latest values. Call it
        /// before subscribing to the upstreams.
        func setCombination(_ combine: @escaping () -> Downstream.Input?) {
            self.combine = combine
        }

        // MARK: Upstream events

        func upstream(_ index: Int, subscribed subscription: any Subscription) {
            lock.lock()
            let action = machine.upstreamSubscribed(subscription, at: index)
            lock.unlock()
            switch action {
            case .none:
                break
            case .cancel:
                subscription.cancel()
            case .handOver:
                handOver()
            case .cancelAndHandOver:
                subscription.cancel()
                handOver()
            }
        }

        func upstream(_ index: Int, produced produce: () -> Downstream.Input?) -> Subscribers.Demand {
            lock.lock()
            let action = machine.upstreamProduced(at: index, produce)
            lock.unlock()
            guard case .deliver(let output) = action else { return .none }
            return deliver(startingWith: output, onBehalfOf: index)
        }

        func upstream(_ index: Int, completed completion: Subscribers.Completion<Downstream.Failure>) {
            lock.lock()
            let (cancel, claimed) = machine.upstreamCompleted(at: index, completion)
            lock.unlock()
            for subscription in cancel {
                subscription.cancel()
            }
            if claimed {
                _ = deliver(startingWith: nil, onBehalfOf: nil)
            }
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            let (upstreams, claimed) = machine.requested(demand)
            lock.unlock()
            // Upstreams that answer synchronously find the delivery claimed and queue behind
            // what was already waiting, so order is kept.
            for upstream in upstreams {
                upstream.request(demand)
            }
            if claimed {
                _ = deliver(startingWith: nil, onBehalfOf: nil)
            }
        }

        func cancel() {
            lock.lock()
            let upstreams = machine.cancelled()
            combine = nil
            lock.unlock()
            for upstream in upstreams {
                upstream.cancel()
            }
        }

        // MARK: Delivery

        private func handOver() {
            downstream.receive(subscription: self)
            _ = deliver(startingWith: nil, onBehalfOf: nil)
        }

        /// Runs the delivery loop of the caller, which holds the deliverer's role. Demand that
        /// the downstream returns goes to every running upstream; the share of the upstream
        /// whose value is being delivered is returned to it instead.
        private func deliver(
            startingWith first: Downstream.Input?,
            onBehalfOf index: Int?
        ) -> Subscribers.Demand {
            var returned = Subscribers.Demand.none
            var next: Machine.DeliveryAction
            if let first {
                next = .deliver(first)
            } else {
                lock.lock()
                next = machine.nextDelivery()
                lock.unlock()
            }
            while true {
                switch next {
                case .deliver(let output):
                    let more = downstream.receive(output)
                    lock.lock()
                    next = machine.delivered(adding: more)
                    let others = more > .none ? machine.activeSubscriptions(except: index) : []
                    lock.unlock()
                    if more > .none {
                        if index != nil {
                            returned += more
                        }
                        for upstream in others {
                            upstream.request(more)
                        }
                    }
                case .complete(let completion):
                    lock.withLock { combine = nil }
                    downstream.receive(completion: completion)
                    return returned
                case .idle:
                    return returned
                }
            }
        }
    }

    /// The subscriber a ``FanIn`` attaches to one of its upstreams.
    final class FanInSide<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
        typealias Failure = Downstream.Failure

        let parent: FanIn<Downstream>
        let index: Int
        /// The latest value received, for combineLatest. Guarded by the parent's lock.
        var latest: Input?
        /// Turns a value into the downstream's; runs under the parent's lock.
        private let output: (FanInSide, Input) -> Downstream.Input?

        init(
            parent: FanIn<Downstream>,
            index: Int,
            output: @escaping (FanInSide, Input) -> Downstream.Input?
        ) {
            self.parent = parent
            self.index = index
            self.output = output
        }

        var description: String { parent.description }

        func receive(subscription: any Subscription) {
            parent.upstream(index, subscribed: subscription)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            parent.upstream(index) { output(self, input) }
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            parent.upstream(index, completed: completion)
        }
    }
#endif
