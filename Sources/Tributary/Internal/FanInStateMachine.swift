#if !canImport(Combine)
    public import OpenCombine

    /// The bookkeeping of an operator that joins several upstream publishers into one
    /// downstream subscriber (merge, combineLatest, collect by time).
    ///
    /// It only decides; its owner keeps the values and performs what it returns (delivering
    /// downstream, requesting from or cancelling upstreams) after releasing its lock. One
    /// caller at a time is the *deliverer*: values and completions that arrive while somebody
    /// delivers wait in the owner's buffer, so nothing is lost, reordered or delivered
    /// re-entrantly.
    ///
    /// It is not generic on purpose: operators run as unspecialised generic code behind
    /// protocol witnesses, where every generic type they touch costs a metadata lookup, so
    /// the per-value path keeps to plain types.
    @usableFromInline
    struct FanInStateMachine {
        @usableFromInline
        enum Buffering {
            /// Every value waits until it can be delivered (merge).
            case everyValue
            /// Values beyond the outstanding demand collapse into the newest (combineLatest).
            case latestOnly
        }

        @usableFromInline
        enum SubscriptionAction {
            case none
            case cancel
            case handOver
            case cancelAndHandOver
        }

        @usableFromInline
        enum ValueAction {
            /// The caller becomes the deliverer and delivers the value now.
            case deliver
            /// The value joins the end of the buffer.
            case enqueue
            /// The value replaces the newest buffered one.
            case replaceNewest
        }

        @usableFromInline
        enum DeliveryAction {
            /// Deliver the oldest buffered value.
            case deliverOldest
            /// Deliver the recorded completion; the downstream is done.
            case complete
            /// Nothing to do: the caller is no longer the deliverer.
            case idle
        }

        @usableFromInline
        enum Phase {
            case awaitingSubscription
            case active
            case done
        }

        @usableFromInline
        let buffering: Buffering
        /// Where each upstream is; a plain value so the per-value check retains nothing.
        @usableFromInline
        var phases: [Phase]
        /// The subscription of each active upstream.
        @usableFromInline
        var subscriptions: [(any Subscription)?]
        @usableFromInline
        var awaitingSubscriptions: Int
        @usableFromInline
        var unfinished: Int
        @usableFromInline
        var demand = Subscribers.Demand.none
        /// How many values wait in the owner's buffer.
        @usableFromInline
        var buffered = 0
        /// Whether the owner holds the completion the downstream gets once it is owed nothing else.
        @usableFromInline
        var isEnding = false
        @usableFromInline
        var endsInFailure = false
        /// Starts true: until the downstream holds its subscription, nothing may reach it.
        @usableFromInline
        var isDelivering = true
        @usableFromInline
        var isTerminated = false

        @inlinable
        init(upstreamCount: Int, buffering: Buffering) {
            precondition(upstreamCount > 0, "a fan-in needs at least one upstream")
            self.buffering = buffering
            phases = Array(repeating: .awaitingSubscription, count: upstreamCount)
            subscriptions = Array(repeating: nil, count: upstreamCount)
            awaitingSubscriptions = upstreamCount
            unfinished = upstreamCount
        }

        /// An upstream handed over its subscription. The last one to do so hands the
        /// downstream its own subscription.
        @inlinable
        mutating func upstreamSubscribed(
            _ subscription: any Subscription,
            at index: Int
        ) -> SubscriptionAction {
            guard !isTerminated, phases[index] == .awaitingSubscription else {
                return .cancel
            }
            awaitingSubscriptions -= 1
            let handOver = awaitingSubscriptions == 0
            if isEnding {
                phases[index] = .done
                return handOver ? .cancelAndHandOver : .cancel
            }
            phases[index] = .active
            subscriptions[index] = subscription
            return handOver ? .handOver : .none
        }

        /// Whether a value from upstream `index` still counts.
        @inlinable
        func acceptsValue(from index: Int) -> Bool {
            !isEnding && !isTerminated && phases[index] == .active
        }

        /// A value that counts arrived: where it goes.
        @inlinable
        mutating func valueArrived() -> ValueAction {
            if !isDelivering, demand > .none, buffered == 0 {
                demand -= 1
                isDelivering = true
                return .deliver
            }
            if buffering == .latestOnly, let limit = demand.max, buffered > limit {
                return .replaceNewest
            }
            buffered += 1
            return .enqueue
        }

        /// An upstream finished or failed. Returns the upstreams to cancel, whether the owner
        /// records this completion as the downstream's, and whether the caller became the
        /// deliverer.
        @inlinable
        mutating func upstreamCompleted(
            at index: Int,
            failed: Bool
        ) -> (cancel: [any Subscription], record: Bool, deliver: Bool) {
            guard !isEnding, !isTerminated, phases[index] == .active else {
                return ([], false, false)
            }
            phases[index] = .done
            subscriptions[index] = nil
            var cancel: [any Subscription] = []
            if failed {
                cancel = releaseUpstreams()
            } else {
                unfinished -= 1
                guard unfinished == 0 else { return ([], false, false) }
            }
            isEnding = true
            endsInFailure = failed
            return (cancel, true, claimDelivery())
        }

        /// The downstream asked for more. Returns the upstreams to pass the demand on to and
        /// whether the caller became the deliverer.
        @inlinable
        mutating func requested(
            _ more: Subscribers.Demand
        ) -> (upstreams: [any Subscription], deliver: Bool) {
            guard !isTerminated, more > .none else { return ([], false) }
            demand += more
            let deliver = (buffered > 0 || isEnding) && claimDelivery()
            return (activeSubscriptions(except: nil), deliver)
        }

        /// The deliverer finished handing over one value; `more` is the demand the
        /// downstream returned from it.
        @inlinable
        mutating func delivered(adding more: Subscribers.Demand) -> DeliveryAction {
            if more > .none {
                demand += more
            }
            return nextDelivery()
        }

        /// What the deliverer does next.
        @inlinable
        mutating func nextDelivery() -> DeliveryAction {
            precondition(isDelivering, "only the deliverer may deliver")
            if !isTerminated {
                if demand > .none, buffered > 0 {
                    demand -= 1
                    buffered -= 1
                    return .deliverOldest
                }
                // A failure ends the stream at once: values beyond the demand are not owed.
                // `.finished` waits until every buffered value has been delivered.
                if isEnding, endsInFailure || buffered == 0 {
                    terminate()
                    isDelivering = false
                    return .complete
                }
            }
            isDelivering = false
            return .idle
        }

        /// The downstream cancelled. Returns the upstreams to cancel. A delivery under way
        /// ends at its next step.
        @inlinable
        mutating func cancelled() -> [any Subscription] {
            guard !isTerminated else { return [] }
            let subscriptions = releaseUpstreams()
            terminate()
            return subscriptions
        }

        /// The subscriptions of the upstreams still running, but for the one at `index`.
        @inlinable
        func activeSubscriptions(except index: Int?) -> [any Subscription] {
            var result: [any Subscription] = []
            for (position, subscription) in subscriptions.enumerated() where position != index {
                if let subscription {
                    result.append(subscription)
                }
            }
            return result
        }

        @inlinable
        mutating func claimDelivery() -> Bool {
            guard !isDelivering else { return false }
            isDelivering = true
            return true
        }

        @inlinable
        mutating func terminate() {
            isTerminated = true
            buffered = 0
            _ = releaseUpstreams()
        }

        @inlinable
        mutating func releaseUpstreams() -> [any Subscription] {
            let released = activeSubscriptions(except: nil)
            for index in phases.indices {
                phases[index] = .done
                subscriptions[index] = nil
            }
            return released
        }
    }
#endif
