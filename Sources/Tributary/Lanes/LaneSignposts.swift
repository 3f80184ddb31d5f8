#if canImport(os)
    import os

    /// A recorder that writes each subscription as an `os_signpost` interval and each value as a
    /// signpost event, so Instruments' Points of Interest and os_signpost instruments show lanes.
    ///
    /// ```swift
    /// Lanes.recorder = LaneSignposts()
    /// ```
    @available(macOS 12, iOS 15, tvOS 15, watchOS 8, visionOS 1, *)
    public final class LaneSignposts: LaneRecording {
        private struct Key: Hashable {
            var lane: String
            var subscription: Int
        }

        private let signposter: OSSignposter
        private let intervals = Protected<[Key: OSSignpostIntervalState]>([:])

        /// - Parameters:
        ///   - subsystem: The log subsystem Instruments groups the lanes under.
        ///   - category: The log category.
        public init(subsystem: String = "Tributary", category: String = "PointsOfInterest") {
            signposter = OSSignposter(subsystem: subsystem, category: category)
        }

        public func record(_ event: LaneEvent) {
            let key = Key(lane: event.lane, subscription: event.subscription)
            switch event.kind {
            case .subscribed:
                let state = signposter.beginInterval(
                    "Subscription",
                    id: signposter.makeSignpostID(),
                    "\(event.lane, privacy: .public) #\(event.subscription)"
                )
                intervals.withLock { $0[key] = state }
            case .value(let value):
                signposter.emitEvent("Value", "\(event.lane, privacy: .public): \(value, privacy: .public)")
            case .requested(let demand):
                signposter.emitEvent(
                    "Demand",
                    "\(event.lane, privacy: .public): \(String(describing: demand), privacy: .public)"
                )
            case .finished, .failed, .cancelled:
                guard let state = intervals.withLock({ $0.removeValue(forKey: key) }) else { return }
                signposter.endInterval(
                    "Subscription",
                    state,
                    "\(String(describing: event.kind), privacy: .public)"
                )
            }
        }
    }
#endif
