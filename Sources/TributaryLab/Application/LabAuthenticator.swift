import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Tributary
import TributaryLabWire

/// The one place the lab decides who a request is and whether it may go on.
///
/// A request is let in with the token as `Authorization: Bearer TOKEN`, or with the session
/// cookie that the printed `/?token=` link sets. A request that names an `Origin` — every
/// browser's write and WebSocket does — must name one of the lab's own: a page elsewhere can
/// make a visitor's browser send the cookie, never the token, and is refused either way.
///
/// `required` routes answer `401` without a credential; the others are let in anonymous, with
/// ``LabRequestContext/access`` saying so.
struct LabAuthenticator: RouterMiddleware {
    typealias Context = LabRequestContext

    let token: String
    let sessions: LabSessions
    let configuration: LabConfiguration
    let required: Bool

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        if let origin = request.headers[.origin], !Self.isOwnOrigin(origin, of: request, configuration) {
            throw LabError(
                status: .forbidden,
                code: "foreignOrigin",
                message: "The lab answers this only to its own pages, not to a page at \(origin)."
            )
        }
        if let header = request.headers[.authorization] {
            guard Self.isToken(header, token) else { throw LabError.unauthorized() }
            context.access = .token
        } else if Self.sessionCookies(of: request).contains(where: sessions.contains) {
            // Browsers name the origin of every write; a write by cookie that names none did not
            // come from a page of the lab's.
            guard request.method == .get || request.method == .head || request.headers[.origin] != nil else {
                throw LabError(
                    status: .forbidden,
                    code: "foreignOrigin",
                    message: "A write with the session cookie must come from the lab's own pages."
                )
            }
            context.access = .session
        } else if required {
            throw LabError.unauthorized()
        }
        return try await next(request, context)
    }

    /// Whether `origin` is the lab's own: its public URL's origin, or the scheme-less authority
    /// the request was sent to, on one of the lab's names. Clients that are not browsers may
    /// send a `ws:` origin of the host alone, as swift-websocket's does.
    static func isOwnOrigin(_ origin: String, of request: Request, _ configuration: LabConfiguration) -> Bool
    {
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased(), configuration.isOwnName(host)
        else { return false }
        if let publicURL = configuration.publicURL, let own = publicURL.host?.lowercased(), own == host,
            (url.port ?? Self.defaultPort(scheme)) == (publicURL.port ?? Self.defaultPort(publicURL.scheme))
        {
            return true
        }
        guard let authority = request.head.authority?.lowercased() else { return false }
        let named = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = url.port { return "\(named):\(port)" == authority }
        let served = LabHostMiddleware<LabRequestContext>.hostName(of: authority)
        switch scheme {
        case "ws", "wss": return served == named
        default: return authority == named
        }
    }

    private static func defaultPort(_ scheme: String?) -> Int {
        switch scheme?.lowercased() {
        case "https", "wss": 443
        default: 80
        }
    }

    /// The values of the session cookies a request sends, in every `Cookie` field: a browser
    /// that holds two (one set for another path, an old one) sends both, and either may be the
    /// session. At most ``maximumSessionCookies`` are checked, so a request cannot make the lab
    /// verify a signature for each of thousands.
    static func sessionCookies(of request: Request) -> [String] {
        sessionCookies(in: request.headers[values: .cookie])
    }

    /// The session cookies among the `Cookie` fields `fields`.
    static func sessionCookies(in fields: some Sequence<String>) -> [String] {
        var found: [String] = []
        for field in fields {
            for pair in field.split(separator: ";") {
                guard found.count < maximumSessionCookies else { return found }
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "="),
                    trimmed[..<equals] == LabSessions.cookieName[...]
                else { continue }
                found.append(String(trimmed[trimmed.index(after: equals)...]))
            }
        }
        return found
    }

    static let maximumSessionCookies = 4

    /// Compares `given` with `expected` in time that does not depend on where they differ.
    /// Whether a request with `authorization` and the `Cookie` fields `cookies` carries the
    /// token or a session: before its body is asked for, where ``handle(_:context:next:)``
    /// decides everything else.
    static func hasCredential(
        authorization: String?,
        cookies: some Sequence<String>,
        token: String,
        sessions: LabSessions
    ) -> Bool {
        if let authorization { return isToken(authorization, token) }
        return sessionCookies(in: cookies).contains(where: sessions.contains)
    }

    /// Whether an `Authorization` field gives `token` as `Bearer TOKEN`.
    static func isToken(_ authorization: String, _ token: String) -> Bool {
        authorization.lowercased().hasPrefix("bearer ")
            && same(authorization.dropFirst(7).trimmingCharacters(in: .whitespaces), token)
    }

    static func same(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for (index, byte) in expected.enumerated() {
            difference |= byte ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}

private let hostField = HTTPField.Name("Host")!

/// Answers `421 Misdirected Request` to a request whose `Host` is not one of the lab's names,
/// so that a page at a name an attacker points at this machine (DNS rebinding) gets nothing.
struct LabHostMiddleware<Context: RequestContext>: RouterMiddleware {
    let configuration: LabConfiguration

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // The first Host is the authority; any other is still among the fields.
        guard let authority = request.head.authority, !request.headers.contains(hostField) else {
            throw LabError.badRequest("badHost", "A request names its host in exactly one Host header.")
        }
        guard let name = Self.hostName(of: authority), configuration.isOwnName(name) else {
            throw LabError(
                status: .misdirectedRequest,
                code: "unknownHost",
                message:
                    "This lab does not answer to that name; use its own address, or start it with --public-url."
            )
        }
        if let codings = request.headers[.transferEncoding],
            codings.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces).lowercased() != "chunked"
            })
        {
            throw LabError(
                status: .notImplemented,
                code: "unknownTransferCoding",
                message: "The lab reads bodies sent whole or chunked, with no other transfer coding."
            )
        }
        return try await next(request, context)
    }

    /// The host of an authority such as `example.org:8080` or `[::1]:8080`, without the port;
    /// nil for anything else a Host header may hold — user information (`a@b`), a path, a port
    /// that is not a number up to 65535, characters no name or address has — which no browser
    /// sends, and which a lenient reading would take for one of the lab's names.
    static func hostName(of authority: String) -> String? {
        let lowered = authority.lowercased()
        let host: Substring
        let rest: Substring
        if lowered.hasPrefix("[") {
            guard let end = lowered.firstIndex(of: "]") else { return nil }
            host = lowered[...end]
            rest = lowered[lowered.index(after: end)...]
            let inside = host.dropFirst().dropLast()
            guard !inside.isEmpty, inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
        } else {
            host = lowered.prefix { $0 != ":" }
            rest = lowered[host.endIndex...]
            guard !host.isEmpty, host.utf8.allSatisfy(Self.isNameByte) else { return nil }
        }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII),
                port.allSatisfy(\.isNumber), let number = Int(port), number <= 65_535
            else { return nil }
        }
        return String(host)
    }

    /// Whether `byte` may be in a host name or a dotted IPv4 address, lowercased.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

/// The sessions the printed link opens. A session's cookie carries an expiry, a random nonce
/// and a signature of both made with a key drawn from the token — never the token itself — so a
/// session outlives a restart of the lab as long as its token does: `--new-token` ends them all,
/// and each ends after ``lifetime`` in any case.
final class LabSessions: Sendable {
    static let cookieName = "tributary_lab"

    /// How long a session lasts.
    let lifetime: Duration
    private let key: SymmetricKey
    private let now: @Sendable () -> Date

    init(
        token: String,
        lifetime: Duration = .seconds(30 * 86_400),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        key = SymmetricKey(data: SHA256.hash(data: Data("tributary lab session key\u{0}\(token)".utf8)))
        self.lifetime = lifetime
        self.now = now
    }

    /// A new session's cookie value.
    func open() -> String {
        let expiry = Int(now().timeIntervalSince1970) + Int(lifetime.components.seconds)
        let claim = "\(expiry).\(DocumentID.random().description)"
        return claim + "." + signature(of: claim)
    }

    /// Whether `value` is a session this lab's token signed that has not expired.
    func contains(_ value: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, value.utf8.count <= 128, let expiry = Int(parts[0]),
            expiry > Int(now().timeIntervalSince1970)
        else { return false }
        return LabAuthenticator.same(String(parts[2]), signature(of: "\(parts[0]).\(parts[1])"))
    }

    private func signature(of claim: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(claim.utf8), using: key)
        return Data(code).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
