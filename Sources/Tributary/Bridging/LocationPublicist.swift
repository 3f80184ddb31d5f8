#if canImport(CoreLocation) && !os(tvOS)
    public import CoreLocation
    #if canImport(Combine)
        public import Combine
    #endif

    /// `CLLocationManager`'s delegate callbacks as publishers: the authorization status as a
    /// state (the current value first), locations, and errors.
    ///
    /// ```swift
    /// let location = LocationPublicist()
    /// location.authorization.sink { status in … }
    /// location.locations.sink { locations in … }   // updates run while someone listens
    /// ```
    ///
    /// The manager's previous delegate keeps receiving every callback this publicist handles.
    /// Make it on a thread with a run loop, such as the main thread, as `CLLocationManager`
    /// requires: whichever thread a subscriber comes from, the manager is started and stopped
    /// on that run loop.
    public final class LocationPublicist: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
        // @unchecked: the publishers are thread-safe; the manager is touched only on the run
        // loop of the thread that made the publicist (the hooks hop there); the status new
        // subscribers start with is a copy under a lock, written from the delegate callback.

        /// The manager whose callbacks are published.
        public let manager: CLLocationManager
        /// The authorization status: the current value first, then each change.
        public private(set) var authorization: DelegateState<CLAuthorizationStatus>!
        /// Location updates; they are requested while anyone is subscribed.
        public var locations: AnyPublisher<[CLLocation], Never> { locationEvents.eraseToAnyPublisher() }
        /// The manager's errors.
        public var errors: AnyPublisher<any Error, Never> { errorEvents.eraseToAnyPublisher() }

        private let forwarded: ForwardedDelegate<any CLLocationManagerDelegate>
        private let runLoop: RunLoop
        private let status: Protected<CLAuthorizationStatus>
        private var locationEvents: DelegateEvents<[CLLocation], Never>!
        private let errorEvents = DelegateEvents<any Error, Never>(buffering: .newest(1))

        /// Takes `manager`'s delegate slot, keeping its previous delegate informed.
        public init(manager: CLLocationManager = CLLocationManager(), retainingExistingDelegate: Bool = false)
        {
            self.manager = manager
            forwarded = ForwardedDelegate(
                manager.delegate,
                retention: retainingExistingDelegate ? .strong : .weak
            )
            runLoop = RunLoop.current
            status = Protected(manager.authorizationStatus)
            super.init()
            authorization = DelegateState { [status] in status.withLock { $0 } }
            locationEvents = DelegateEvents(
                buffering: .newest(1),
                onActive: { [weak self] in self?.onManagersThread { $0.startUpdatingLocation() } },
                onInactive: { [weak self] in self?.onManagersThread { $0.stopUpdatingLocation() } }
            )
            manager.delegate = self
        }

        deinit {
            if manager.delegate === self { manager.delegate = forwarded.delegate }
        }

        /// Runs `body` with the manager on the run loop it belongs to.
        private func onManagersThread(_ body: @escaping @Sendable (CLLocationManager) -> Void) {
            // The manager crosses to its own run loop, where it is used; nowhere else.
            nonisolated(unsafe) let manager = manager
            if RunLoop.current === runLoop {
                body(manager)
            } else {
                runLoop.perform { body(manager) }
            }
        }

        public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            forwarded.delegate?.locationManagerDidChangeAuthorization?(manager)
            let current = manager.authorizationStatus
            status.withLock { $0 = current }
            authorization.send(current)
        }

        public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
        {
            forwarded.delegate?.locationManager?(manager, didUpdateLocations: locations)
            locationEvents.send(locations)
        }

        public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
            forwarded.delegate?.locationManager?(manager, didFailWithError: error)
            errorEvents.send(error)
        }
    }
#endif
