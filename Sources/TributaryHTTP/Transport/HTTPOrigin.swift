public import Foundation
public import HTTPTypes

/// The scheme, host and port of a URL: what a browser calls an origin, and the unit that
/// credentials are scoped to.
///
/// ```swift
/// let origin = HTTPOrigin(URL(string: "https://newsapi.org/v2")!)
/// // https://newsapi.org:443
/// ```
///
/// Hosts compare case-insensitively and without IPv6 brackets; a missing port is the scheme's
/// default, so `https://example.com` and `https://example.com:443` are one origin.
public struct HTTPOrigin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, in lower case.
    public let scheme: String
    /// The host name or address, in lower case, IPv6 addresses without brackets.
    public let host: String
    /// The port, the scheme's default when the URL names none.
    public let port: Int

    /// The origin of `url`; nil unless it is an `http` or `https` URL with a host.
    public init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        self.init(scheme: components.scheme, host: components.host, port: components.port)
    }

    /// The origin a request goes to; nil unless its scheme is `http` or `https` and it names a
    /// host.
    public init?(_ request: HTTPRequest) {
        guard let scheme = request.scheme, let authority = request.authority,
            let components = URLComponents(string: "\(scheme)://\(authority)/")
        else { return nil }
        self.init(scheme: components.scheme, host: components.host, port: components.port)
    }

    /// An origin from its parts; nil unless `scheme` is `http` or `https` and `host` is not
    /// empty.
    public init?(scheme: String?, host: String?, port: Int? = nil) {
        guard let scheme = scheme?.lowercased(), let defaultPort = Self.defaultPorts[scheme],
            var host = host?.lowercased(), !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        self.scheme = scheme
        self.host = host
        self.port = port ?? defaultPort
    }

    /// The host as it stands in a URL: IPv6 addresses in brackets.
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    public var description: String { "\(scheme)://\(urlHost):\(port)" }

    private static let defaultPorts = ["http": 80, "https": 443]
}
