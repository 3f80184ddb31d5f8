#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// Fetching the requests a publisher emits, publishing the state of the latest.
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

/// Fetching the requests a publisher emits with an async function, publishing the state of
/// the latest.
extension Publisher where Failure == Never {
    /// Fetches each request this publisher emits with an async function and publishes the
    /// ``Loadable`` state of the latest one, as the `loadLatest` that takes a publisher does.
    ///
    /// Each fetch runs in a task of its own; a newer request, or a nil one, cancels the task of
    /// the fetch under way, and its result never arrives.
    ///
    /// ```swift
    /// Observed { model.url }
    ///     .loadLatest { url async throws(APIError) in try await client.data(from: url) }
    ///     .sink { model.state = $0 }
    /// ```
    ///
    /// - Parameter load: Fetches one request.
    /// - Returns: A publisher of the state of the latest request.
    public func loadLatest<Request: Sendable, Value: Sendable, Failure: Error>(
        _ load: @escaping @Sendable (Request) async throws(Failure) -> Value
    ) -> AnyPublisher<Loadable<Request, Value, Failure>, Never>
    where Output == Request? {
        loadLatest { request in
            AsyncOperationPublisher { () async throws(Failure) -> Value in try await load(request) }
        }
    }
}
