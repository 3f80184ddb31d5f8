import Foundation
package import HTTPTypes

extension TransportRequest {
    /// The most redirects one exchange follows.
    public static let redirectLimit = 10

    /// Carries out this exchange one hop at a time through `hop`, following up to
    /// ``redirectLimit`` redirects, with one deadline for all of them.
    ///
    /// Before each hop the ``addressPolicy`` is checked; `hop` gets the addresses it allowed
    /// (empty when it restricts nothing), so that a transport can connect to exactly those. A
    /// redirect to an origin the ``credentials`` may not reach loses them.
    package func followingRedirects(
        _ hop: (
            _ request: TransportRequest,
            _ addresses: [IPAddress],
            _ deadline: ContinuousClock.Instant
        ) async throws(TransportFailure) -> TransportResponse
    ) async throws(TransportFailure) -> TransportResponse {
        let deadline = ContinuousClock.now + timeout
        let original = HTTPOrigin(head)
        var current = self
        var visited: Set<String> = []
        while true {
            let addresses = try await addressPolicy.check(HTTPOrigin(current.head))
            let response = try await hop(current, addresses, deadline)
            guard let next = current.redirected(by: response.head, from: original) else { return response }
            visited.insert("\(current.head.method) \(current.head.url?.absoluteString ?? "")")
            guard visited.count <= Self.redirectLimit,
                !visited.contains("\(next.head.method) \(next.head.url?.absoluteString ?? "")")
            else { throw .tooManyRedirects(visited.count) }
            current = next
        }
    }

    /// The request a redirecting `response` asks for, or nil when it is no redirect that can be
    /// followed: a 301, 302, 303, 307 or 308 with a `Location` that is an `http` or `https` URL.
    ///
    /// A 303, and a 301 or 302 after a POST, become a GET without a body, as browsers and
    /// curl do. Credentials the new origin may not receive are removed from the header fields
    /// and the query.
    package func redirected(by response: HTTPResponse, from original: HTTPOrigin?) -> TransportRequest? {
        guard [301, 302, 303, 307, 308].contains(response.status.code),
            let location = response.headerFields[.location], let here = head.url,
            let target = URL(string: location, relativeTo: here)?.absoluteURL,
            var components = URLComponents(url: target, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            components.host?.isEmpty == false
        else { return nil }
        var next = self
        components.fragment = nil
        let changesMethod =
            (response.status.code == 303 && head.method != .head)
            || ([301, 302].contains(response.status.code) && head.method == .post)
        if changesMethod {
            next.head.method = .get
            next.body = nil
            for name in [HTTPField.Name.contentType, .contentLength, .contentEncoding] {
                next.head.headerFields[name] = nil
            }
        }
        let origin = HTTPOrigin(scheme: scheme, host: components.host, port: components.port)
        if !credentials.mayReach(origin, from: original) {
            for name in credentials.headerFields {
                next.head.headerFields[name] = nil
            }
            if let query = components.percentEncodedQuery, !credentials.queryItems.isEmpty {
                let secret = Set(credentials.queryItems.map { $0.lowercased() })
                let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { item in
                    let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                    return !secret.contains((name.removingPercentEncoding ?? name).lowercased())
                }
                components.percentEncodedQuery = kept.isEmpty ? nil : kept.joined(separator: "&")
            }
        }
        guard let url = components.url else { return nil }
        next.head.url = url
        return next
    }
}
