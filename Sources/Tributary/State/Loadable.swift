/// The state of a value that is fetched asynchronously: exactly one of idle, loading,
/// loaded or failed.
///
/// `Request` is what is being fetched — a URL, an endpoint, a query. Results are applied only
/// to the fetch they answer: once the request has changed, a late result for an earlier one
/// is ignored, so a stale response never lands in the UI.
///
/// ```swift
/// var background: Loadable<URL, Image, ImageError> = .idle
/// background.start(url)                  // .loading(url)
/// background.succeed(image, for: oldURL) // false: not what is being fetched
/// background.succeed(image, for: url)    // true: .loaded(image)
/// ```
public enum Loadable<Request, Value, Failure: Error> {
    /// Nothing has been asked for.
    case idle
    /// The request is being fetched.
    case loading(Request)
    /// The fetch produced a value.
    case loaded(Value)
    /// The fetch failed.
    case failed(Failure)

    /// The value, if loaded.
    public var value: Value? {
        guard case .loaded(let value) = self else { return nil }
        return value
    }

    /// What is being fetched, if loading.
    public var request: Request? {
        guard case .loading(let request) = self else { return nil }
        return request
    }

    /// Why the fetch failed, if it failed.
    public var failure: Failure? {
        guard case .failed(let failure) = self else { return nil }
        return failure
    }

    /// Whether a fetch is under way.
    public var isLoading: Bool {
        guard case .loading = self else { return false }
        return true
    }

    /// Whether nothing has been asked for.
    public var isIdle: Bool {
        guard case .idle = self else { return false }
        return true
    }

    /// Forgets the current state and returns to ``idle``.
    public mutating func reset() {
        self = .idle
    }

    /// Transforms a loaded value, keeping every other state as it is.
    ///
    /// - Parameter transform: A closure applied to the value when loaded.
    /// - Returns: The same state with the value transformed.
    public func map<NewValue>(
        _ transform: (Value) throws -> NewValue
    ) rethrows -> Loadable<Request, NewValue, Failure> {
        switch self {
        case .idle: .idle
        case .loading(let request): .loading(request)
        case .loaded(let value): .loaded(try transform(value))
        case .failed(let failure): .failed(failure)
        }
    }
}

extension Loadable where Request: Equatable {
    /// Starts fetching `request`, replacing whatever state came before.
    ///
    /// - Parameter request: What to fetch.
    /// - Returns: `false` when `request` was already being fetched, so the fetch under way
    ///   can go on; `true` when a new fetch should start.
    @discardableResult
    public mutating func start(_ request: Request) -> Bool {
        if case .loading(let current) = self, current == request {
            return false
        }
        self = .loading(request)
        return true
    }

    /// Applies the value that `request` produced, if `request` is still being fetched.
    ///
    /// - Returns: Whether the value was applied; `false` means the result was stale.
    @discardableResult
    public mutating func succeed(_ value: Value, for request: Request) -> Bool {
        guard isLoading(request) else { return false }
        self = .loaded(value)
        return true
    }

    /// Applies the failure of `request`, if `request` is still being fetched.
    ///
    /// - Returns: Whether the failure was applied; `false` means the result was stale.
    @discardableResult
    public mutating func fail(_ failure: Failure, for request: Request) -> Bool {
        guard isLoading(request) else { return false }
        self = .failed(failure)
        return true
    }

    /// Applies the outcome of `request`, if `request` is still being fetched.
    ///
    /// - Returns: Whether the outcome was applied; `false` means the result was stale.
    @discardableResult
    public mutating func complete(_ result: Result<Value, Failure>, for request: Request) -> Bool {
        switch result {
        case .success(let value): succeed(value, for: request)
        case .failure(let failure): fail(failure, for: request)
        }
    }

    /// Whether `request` is what is being fetched.
    public func isLoading(_ request: Request) -> Bool {
        self.request == request
    }
}

extension Loadable: Sendable where Request: Sendable, Value: Sendable, Failure: Sendable {}

extension Loadable: Equatable where Request: Equatable, Value: Equatable, Failure: Equatable {}

extension Loadable: Hashable where Request: Hashable, Value: Hashable, Failure: Hashable {}

extension Loadable: CustomStringConvertible {
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading(let request): "loading \(request)"
        case .loaded(let value): "loaded \(value)"
        case .failed(let failure): "failed: \(failure)"
        }
    }
}
