public import Foundation
public import HTTPTypes

/// Which header fields and query items hold secrets, so that logs and error descriptions
/// never show them.
public struct Redaction: Sendable {
    /// Header field names whose values are hidden, compared case-insensitively.
    public var headerFields: Set<String>
    /// Query item names whose values are hidden, compared case-insensitively.
    public var queryItems: Set<String>

    /// Creates a redaction; names are compared case-insensitively.
    public init(headerFields: Set<String>, queryItems: Set<String>) {
        self.headerFields = Set(headerFields.map { $0.lowercased() })
        self.queryItems = Set(queryItems.map { $0.lowercased() })
    }

    /// The usual places for credentials.
    public static let standard = Redaction(
        headerFields: [
            "authorization", "proxy-authorization", "x-api-key", "cookie", "set-cookie",
            "x-auth-token",
        ],
        queryItems: [
            "apikey", "api_key", "api-key", "key", "token", "access_token", "auth", "password",
            "secret", "signature", "sig", "client_secret",
        ]
    )

    /// The text shown in place of a secret.
    public static let placeholder = "<redacted>"

    /// `url` with the values of secret query items replaced, and any user and password removed.
    public func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.user = nil
        components.password = nil
        let query = components.percentEncodedQuery
        let fragment = components.percentEncodedFragment
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        var text = components.string ?? url.absoluteString
        if let query {
            text += "?" + redactedQuery(query[...])
        }
        if let fragment {
            text += "#" + fragment
        }
        return text
    }

    /// The request's method and URL with secrets hidden, as errors and logs show it.
    public func describe(_ request: HTTPRequest) -> String {
        "\(request.method) \(redactedURL(of: request))"
    }

    /// A percent-encoded query with the values of secret items replaced; rebuilt by hand, as
    /// the placeholder is for reading, not a valid query character.
    func redactedQuery(_ query: Substring) -> String {
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let decoded = (name.removingPercentEncoding ?? name).lowercased()
            let isSecret = queryItems.contains(decoded) && item.contains("=")
            return isSecret ? "\(name)=\(Self.placeholder)" : String(item)
        }
        return items.joined(separator: "&")
    }

    /// The request's URL with secrets hidden.
    public func redactedURL(of request: HTTPRequest) -> String {
        // Written from the request's parts where they hold no user or password: building a URL
        // and reading it back took most of what describing an exchange cost.
        if let scheme = request.scheme, let authority = request.authority, !authority.contains("@"),
            let target = request.path, target.hasPrefix("/"), !target.contains("#")
        {
            guard let mark = target.firstIndex(of: "?") else { return "\(scheme)://\(authority)\(target)" }
            return
                "\(scheme)://\(authority)\(target[..<mark])?\(redactedQuery(target[target.index(after: mark)...]))"
        }
        if let url = request.url {
            return redact(url)
        }
        return "\(request.scheme ?? "http")://\(request.authority ?? "")\(request.path ?? "")"
    }

    /// `fields` with the values of secret fields replaced.
    public func redact(_ fields: HTTPFields) -> HTTPFields {
        var result = HTTPFields()
        for field in fields {
            let hidden = headerFields.contains(field.name.canonicalName)
            result.append(HTTPField(name: field.name, value: hidden ? Self.placeholder : field.value))
        }
        return result
    }
}
