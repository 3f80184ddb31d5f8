import Foundation
import HTTPTypes
import Testing
import TributaryHTTP
import TributaryHTTPTesting

/// A server that fetches what its users typed reaches the public internet only: not itself,
/// not its network, not by a name or a redirect that leads there.
@Suite(.timeLimit(.minutes(5)))
struct AddressPolicyTests {
    static let transports = TransportKind.allCases

    @Test(arguments: [
        ("127.0.0.1", false), ("127.8.9.10", false), ("0.0.0.0", false), ("10.1.2.3", false),
        ("172.16.0.1", false), ("172.31.255.255", false), ("192.168.1.1", false), ("169.254.169.254", false),
        ("100.64.0.1", false), ("224.0.0.1", false), ("255.255.255.255", false), ("192.0.2.7", false),
        ("::1", false), ("::", false), ("fe80::1", false), ("fd00::1", false), ("fc12:3456::1", false),
        ("ff02::1", false), ("::ffff:127.0.0.1", false), ("::ffff:10.0.0.1", false),
        ("64:ff9b::a00:1", false), ("2002:c0a8:101::1", false), ("2001:db8::1", false),
        ("8.8.8.8", true), ("93.184.216.34", true), ("172.32.0.1", true), ("100.128.0.1", true),
        ("2606:4700:4700::1111", true), ("::ffff:8.8.8.8", true), ("[2a00:1450::1]", true),
    ])
    func judgesAddresses(text: String, isPublic: Bool) throws {
        let address = try #require(IPAddress(text))
        #expect(address.isPublic == isPublic)
    }

    @Test func readsNoAddressFromANameOrGarbage() {
        #expect(IPAddress("localhost") == nil)
        #expect(IPAddress("1.2.3") == nil)
        #expect(IPAddress("::g") == nil)
    }

    func guarded(_ base: URL, _ transport: any HTTPTransporting, allowing: Set<HTTPOrigin> = []) -> APIClient
    {
        var client = makeClient(base, transport, retryPolicy: .never)
        client.addressPolicy = .publicOnly(allowing: allowing)
        return client
    }

    func expectRefused(
        _ error: APIError?,
        host: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .addressNotAllowed(let refused, let reason)? = error?.kind else {
            Issue.record(
                "expected a refused address, got \(String(describing: error))",
                sourceLocation: sourceLocation
            )
            return
        }
        #expect(refused == host, sourceLocation: sourceLocation)
        #expect(reason.contains("not a public address"), "\(reason)", sourceLocation: sourceLocation)
        #expect(error?.isRetryable == false, sourceLocation: sourceLocation)
    }

    @Test(arguments: transports)
    func refusesALoopbackAddressWithoutSendingAnything(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let error = await apiError {
                    try await guarded(url, transport).send(
                        Request<Echo>("echo", query: [URLQueryItem(name: "id", value: "x")])
                    )
                }
                expectRefused(error, host: "127.0.0.1")
                #expect(log.count("/echo#x") == 0)
                // The same request goes through without the policy.
                _ = try await makeClient(url, transport).send(
                    Request<Echo>("echo", query: [URLQueryItem(name: "id", value: "x")])
                )
                #expect(log.count("/echo#x") == 1)
            }
        }
    }

    /// The name is resolved and every address it has is judged.
    @Test(arguments: transports)
    func refusesANameThatResolvesToLoopback(kind: TransportKind) async throws {
        try await TestServer.run { url, log in
            try await kind.with { transport in
                let port = try #require(url.port)
                let error = await apiError {
                    try await guarded(url, transport).send(
                        Request<Echo>(.url(URL(string: "http://localhost:\(port)/echo?id=name")!))
                    )
                }
                expectRefused(error, host: "localhost")
                #expect(log.count("/echo#name") == 0)
            }
        }
    }

    @Test(arguments: transports)
    func reachesAnAllowedOriginButNotWhereItsRedirectLeads(kind: TransportKind) async throws {
        try await TestServer.run { allowed, _ in
            try await TestServer.run { inner, innerLog in
                try await kind.with { transport in
                    let client = guarded(allowed, transport, allowing: [HTTPOrigin(allowed)!])
                    let echo = try await client.send(Request<Echo>("echo"))
                    #expect(echo.query.isEmpty)
                    let error = await apiError {
                        try await client.send(
                            Request<Echo>(
                                "bounce",
                                query: [
                                    URLQueryItem(name: "to", value: inner.absoluteString + "/echo?id=inner")
                                ]
                            )
                        )
                    }
                    expectRefused(error, host: "127.0.0.1")
                    #expect(innerLog.count("/echo#inner") == 0)
                }
            }
        }
    }

    @Test func resolvesANameToEveryAddress() async throws {
        let policy = AddressPolicy.publicOnly()
        await #expect(throws: TransportFailure.self) {
            _ = try await policy.check(HTTPOrigin(URL(string: "http://localhost:8080")!))
        }
        let allowed = AddressPolicy.publicOnly(allowing: [HTTPOrigin(URL(string: "http://localhost:8080")!)!])
        #expect(try await allowed.check(HTTPOrigin(URL(string: "http://localhost:8080/x")!)) == [])
        #expect(try await AddressPolicy.unrestricted.check(nil) == [])
        let literal = try await policy.check(HTTPOrigin(URL(string: "https://8.8.8.8")!))
        #expect(literal == [IPAddress("8.8.8.8")!])
    }

    @Test func refusesANameThatDoesNotResolve() async {
        do {
            _ = try await AddressPolicy.publicOnly().check(
                HTTPOrigin(URL(string: "http://no-such-host.invalid")!)
            )
            Issue.record("expected a refusal")
        } catch {
            guard case .addressNotAllowed(let host, let reason) = error else {
                Issue.record("expected a refused address, got \(error)")
                return
            }
            #expect(host == "no-such-host.invalid")
            #expect(reason.contains("does not resolve"))
        }
    }

    @Test func comparesOriginsAsBrowsersDo() {
        #expect(
            HTTPOrigin(URL(string: "https://Example.com/a")!)
                == HTTPOrigin(URL(string: "https://example.com:443/b")!)
        )
        #expect(
            HTTPOrigin(URL(string: "http://example.com")!) != HTTPOrigin(URL(string: "https://example.com")!)
        )
        #expect(HTTPOrigin(URL(string: "http://[::1]:8080/")!)?.host == "::1")
        #expect(HTTPOrigin(URL(string: "ftp://example.com")!) == nil)
        #expect(HTTPOrigin(URL(string: "http://[::1]:8080/")!)?.description == "http://[::1]:8080")
    }
}
