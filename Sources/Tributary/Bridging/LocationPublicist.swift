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
    public final class LocationPublicist: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
        // @unchecked: the publishers are thread-safe, and the manager is used as
        // CLLocationManager documents, from the thread that made it.

        /// The manager whose callbacks are published.
        public let manager: CLLocationManager
        /// The authorization status: the current value first, then each change.
        public private(set) var authorization: DelegateState<CLAuthorizationStatus>!
        /// Location updates; they are requested while anyone is subscribed.
        public var locations: AnyPublisher<[CLLocation], Never> { locationEvents.eraseToAnyPublisher() }
        /// The manager's errors.
        public var errors: AnyPublisher<any Error, Never> { errorEvents.eraseToAnyPublisher() }

        private let forwarded: ForwardedDelegate<any CLLocationManagerDelegate>
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
            super.init()
            authorization = DelegateState { [unowned self] in self.manager.authorizationStatus }
            locationEvents = DelegateEvents(
                buffering: .newest(1),
                onActive: { [weak self] in self?.manager.startUpdatingLocation() },
                onInactive: { [weak self] in self?.manager.stopUpdatingLocation() }
            )
            manager.delegate = self
        }

        deinit {
            if manager.delegate === self { manager.delegate = forwarded.delegate }
        }

        public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            forwarded.delegate?.locationManagerDidChangeAuthorization?(manager)
            authorization.send(manager.authorizationStatus)
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
