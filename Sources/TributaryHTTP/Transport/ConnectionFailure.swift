/// Why a server could not be reached, in words a person can act on, whichever transport
/// failed; the transport's own error is kept in ``underlying``.
///
/// ```swift
/// if case .transport(let failure as ConnectionFailure) = error.kind, failure.reason == .refused {
///     print("Is the server running?")
/// }
/// ```
public struct ConnectionFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong with the connection.
    public enum Reason: Sendable, Hashable {
        /// Nothing listens at the address: the connection was refused.
        case refused
        /// The host name does not resolve to an address.
        case hostNotFound
        /// No route leads to the host, or this machine has no network.
        case unreachable
        /// The server closed or reset the connection before the response was whole.
        case closed
        /// The TLS handshake failed: a certificate that is not trusted or not for this host, or
        /// no protocol both sides speak.
        case secureConnectionFailed
        /// Anything else; ``ConnectionFailure/underlying`` says what.
        case other
    }

    /// What went wrong.
    public var reason: Reason
    /// The transport's own error.
    public var underlying: any Error

    /// Creates a failure for `reason`, keeping the transport's `underlying` error.
    public init(_ reason: Reason, underlying: any Error) {
        self.reason = reason
        self.underlying = underlying
    }

    public var description: String {
        switch reason {
        case .refused: "the connection was refused: nothing is listening there"
        case .hostNotFound: "the host name does not resolve to an address"
        case .unreachable: "there is no route to the host"
        case .closed: "the server closed the connection before the response was complete"
        case .secureConnectionFailed: "the secure connection could not be made (\(underlying))"
        case .other: "\(underlying)"
        }
    }
}
