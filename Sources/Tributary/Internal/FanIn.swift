#if !canImport(Combine)
    public import DequeModule
    public import OpenCombine

    /// The subscription that merge, combineLatest and collect by time hand their downstream:
    /// it joins several upstreams through a ``FanInStateMachine`` and delivers serially.
    @usableFromInline
    final class FanIn<Downstream: Subscriber>: Subscription, CustomStringConvertible {
        @usableFromInline
        typealias Output = Downstream.Input
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let description: String
        @usableFromInline
        let lock = Lock()
        @usableFromInline
        var machine: FanInStateMachine
        @usableFromInline
        let downstream: Downstream
        /// Values waiting for demand or for the deliverer, oldest first.
        @usableFromInline
        var buffer = Deque<Output>()
        /// How the downstream ends, once it is owed nothing else.
        @usableFromInline
        var completion: Subscribers.Completion<Failure>?
        /// combineLatest's snapshot of every upstream's latest value; nil until each has
        /// produced one. It holds the sides, which hold this object, so termination clears it.
        @usableFromInline
        var combine: (() -> Output?)?
        /// The subscription the downstream holds, once handed over and until the stream ends.
        @usableFromInline
        var handle: FanInHandle<Downstream>?

        @inlinable
        init(
            downstream: Downstream,
            upstreamCount: Int,
            buffering: FanInStateMachine.Buffering,
            description: String
        ) {
            self.downstream = downstream
            self.description = description
            machine = FanInStateMachine(upstreamCount: upstreamCount, buffering: buffering)
        }

        /// A subscriber for upstream `index` whose values are published as they are.
        @inlinable
        func side(_ index: Int) -> FanInSide<Output, Downstream> {
            FanInSide(parent: self, index: index) { side, value in
                side.parent.upstream(side.index, produced: value)
            }
        }

        /// A subscriber for upstream `index` that records the latest value and publishes the
        /// combination once the closure given to ``setCombination(_:)`` can build one.
        @inlinable
        func latestSide<Input>(_ index: Int, _: Input.Type) -> FanInSide<Input, Downstream> {
            FanInSide(parent: self, index: index) { side, value in
                side.parent.upstream(side.index) {
                    side.latest = value
                    return side.parent.combine?()
                }
            }
        }

        /// Sets how combineLatest builds its output from the sides' latest values. Call it
        /// before subscribing to the upstreams.
        @inlinable
        func setCombination(_ combine: @escaping () -> Output?) {
            self.combine = combine
        }

        // MARK: Upstream events

        @inlinable
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

        /// A value from upstream `index`, published as it is.
        @inlinable
        func upstream(_ index: Int, produced output: Output) -> Subscribers.Demand {
            lock.lock()
            guard machine.acceptsValue(from: index) else {
                lock.unlock()
                return .none
            }
            return accept(output, from: index)
        }

        /// A value from upstream `index`; `produce` turns it into the downstream's value (nil
        /// when there is nothing to publish yet) and runs under the lock, only if it counts.
        @inlinable
        func upstream(_ index: Int, produce: () -> Output?) -> Subscribers.Demand {
            lock.lock()
            guard machine.acceptsValue(from: index), let output = produce() else {
                lock.unlock()
                return .none
            }
            return accept(output, from: index)
        }

        /// Delivers or buffers a value that counts; called with the lock held, which it
        /// releases.
        @inlinable
        func accept(_ output: Output, from index: Int) -> Subscribers.Demand {
            switch machine.valueArrived() {
            case .deliver:
                lock.unlock()
                return deliver(startingWith: output, onBehalfOf: index)
            case .enqueue:
                buffer.append(output)
            case .replaceNewest:
                buffer[buffer.index(before: buffer.endIndex)] = output
            }
            lock.unlock()
            return .none
        }

        @inlinable
        func upstream(_ index: Int, completed event: Subscribers.Completion<Failure>) {
            let isFailure: Bool
            if case .failure = event { isFailure = true } else { isFailure = false }
            lock.lock()
            let (cancel, record, claimed) = machine.upstreamCompleted(at: index, failed: isFailure)
            if record {
                completion = event
            }
            lock.unlock()
            for subscription in cancel {
                subscription.cancel()
            }
            if claimed {
                deliverWaiting()
            }
        }

        // MARK: Subscription

        @inlinable
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
                deliverWaiting()
            }
        }

        @inlinable
        func cancel() {
            lock.lock()
            let upstreams = machine.cancelled()
            let released = (buffer, combine)
            buffer = []
            combine = nil
            detachHandle()
            lock.unlock()
            withExtendedLifetime(released) {}
            for upstream in upstreams {
                upstream.cancel()
            }
        }

        // MARK: Delivery

        @inlinable
        func handOver() {
            let handle = FanInHandle(self)
            lock.withLock { self.handle = handle }
            downstream.receive(subscription: handle)
            deliverWaiting()
        }

        /// Makes the downstream's subscription let go of this object, now that the stream has
        /// ended; called with the lock held. The caller holds this object, so it lives on.
        @usableFromInline
        func detachHandle() {
            handle?.fanIn = nil
            handle = nil
        }

        /// Runs the delivery loop for a caller that became the deliverer with nothing in hand.
        @inlinable
        func deliverWaiting() {
            lock.lock()
            let action = machine.nextDelivery()
            guard action != .idle else {
                lock.unlock()
                return
            }
            if let output = takeNext(action) {
                _ = deliver(startingWith: output, onBehalfOf: nil)
            }
        }

        /// Runs the delivery loop of the caller, which holds the deliverer's role. Demand that
        /// the downstream returns goes to every running upstream; the share of the upstream
        /// whose value is being delivered is returned to it instead.
        ///
        /// The common step (deliver, find nothing waiting) touches no generic type but the
        /// value's own, so it costs no metadata lookups when running unspecialised.
        @inlinable
        func deliver(startingWith first: Output, onBehalfOf index: Int?) -> Subscribers.Demand {
            var returned = Subscribers.Demand.none
            var output = first
            while true {
                let more = downstream.receive(output)
                if more > .none {
                    returned += forward(more, except: index)
                }
                lock.lock()
                let action = machine.delivered(adding: more)
                if action == .idle {
                    lock.unlock()
                    return returned
                }
                guard advance(action, to: &output) else { return returned }
            }
        }

        /// ``takeNext(_:)`` for the delivery loop, which keeps optionals of the value's type
        /// off its common step.
        @usableFromInline
        func advance(_ action: FanInStateMachine.DeliveryAction, to output: inout Output) -> Bool {
            guard let next = takeNext(action) else { return false }
            output = next
            return true
        }

        /// Passes demand the downstream returned on to the upstreams; returns the share of
        /// the upstream at `index`, which gets it as its return value.
        @usableFromInline
        func forward(_ more: Subscribers.Demand, except index: Int?) -> Subscribers.Demand {
            let others = lock.withLock { machine.activeSubscriptions(except: index) }
            for upstream in others {
                upstream.request(more)
            }
            return index == nil ? .none : more
        }

        /// Carries out a delivery action other than `.idle`; called with the lock held, which
        /// it releases. Returns the value to deliver next; a completion it delivers itself.
        @usableFromInline
        func takeNext(_ action: FanInStateMachine.DeliveryAction) -> Output? {
            guard action == .complete else {
                let output = buffer.removeFirst()
                lock.unlock()
                return output
            }
            let ending = completion ?? .finished
            let released = (buffer, combine)
            buffer = []
            combine = nil
            detachHandle()
            lock.unlock()
            withExtendedLifetime(released) {}
            downstream.receive(completion: ending)
            return nil
        }
    }

    /// The subscription a ``FanIn`` hands its downstream. It passes requests and cancellation
    /// on until the stream ends, and then lets go of the fan-in: a subscriber that keeps its
    /// subscription, as many do, no longer keeps the fan-in alive, nor itself through it.
    @usableFromInline
    final class FanInHandle<Downstream: Subscriber>: Subscription, CustomStringConvertible {
        @usableFromInline
        let description: String
        /// The fan-in's own lock, which guards `fanIn`.
        @usableFromInline
        let lock: Lock
        @usableFromInline
        var fanIn: FanIn<Downstream>?

        @inlinable
        init(_ fanIn: FanIn<Downstream>) {
            description = fanIn.description
            lock = fanIn.lock
            self.fanIn = fanIn
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            let fanIn = fanIn
            lock.unlock()
            fanIn?.request(demand)
        }

        @inlinable
        func cancel() {
            lock.lock()
            let fanIn = fanIn
            lock.unlock()
            fanIn?.cancel()
        }
    }

    /// The subscriber a ``FanIn`` attaches to one of its upstreams.
    @usableFromInline
    final class FanInSide<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let parent: FanIn<Downstream>
        @usableFromInline
        let index: Int
        /// The latest value received, for combineLatest. Guarded by the parent's lock.
        @usableFromInline
        var latest: Input?
        /// Hands a value to the parent.
        @usableFromInline
        let receiveValue: (FanInSide, Input) -> Subscribers.Demand

        @inlinable
        init(
            parent: FanIn<Downstream>,
            index: Int,
            receiveValue: @escaping (FanInSide, Input) -> Subscribers.Demand
        ) {
            self.parent = parent
            self.index = index
            self.receiveValue = receiveValue
        }

        @inlinable
        var description: String { parent.description }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.upstream(index, subscribed: subscription)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            receiveValue(self, input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.upstream(index, completed: completion)
        }
    }
#endif
