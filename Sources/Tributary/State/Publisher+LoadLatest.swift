#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

extension Publisher where Failure == Never {
    /// Fetches each request this publisher emits and publishes the ``Loadable`` state of the
    /// latest one.
    ///
    /// Every request first yields ``Loadable/loading(_:)``, then ``Loadable/loaded(_:)`` or
    /// ``Loadable/failed(_:)``. A new request cancels the fetch of the previous one, so a
    /// result for a request that is no longer wanted never arrives. A nil request yields
    /// ``Loadable/idle`` and cancels the fetch under way.
    ///
    /// ```swift
    /// $backgroundURL
    ///     .loadLatest { url in client.publisher(for: .image(url)) }
    ///     .receive(on: DispatchQueue.main)
    ///     .assign(to: &$background)
    /// ```
    ///
    /// - Parameter load: Makes the publisher that fetches one request.
    /// - Returns: A publisher of the state of the latest request.
    public func loadLatest<Request, Fetch: Publisher>(
        _ load: @escaping (Request) -> Fetch
    ) -> AnyPublisher<Loadable<Request, Fetch.Output, Fetch.Failure>, Never>
    where Output == Request? {
        map { request -> AnyPublisher<Loadable<Request, Fetch.Output, Fetch.Failure>, Never> in
            guard let request else {
                return Just(.idle).eraseToAnyPublisher()
            }
            return load(request)
                .map { Loadable.loaded($0) }
                .catch { Just(Loadable.failed($0)) }
                .prepend(.loading(request))
                .eraseToAnyPublisher()
        }
        .switchToLatest()
        .eraseToAnyPublisher()
    }
}
