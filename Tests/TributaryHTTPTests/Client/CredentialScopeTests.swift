import Foundation
import HTTPTypes
import Testing
import TributaryHTTP
import TributaryHTTPTesting

/// Credentials reach the client's own origin and nothing else: not an absolute URL elsewhere,
/// not a redirect to another origin, through both transports.
@Suite(.timeLimit(.minutes(5)))
struct CredentialScopeTests {
    static let transports = TransportKind.allCases
    let key = "s3cr3t-key"
    let keyHeader = HTTPField.Name("X-Api-Key")!

    /// A client of `api` that sends the key in a header, as a bearer token and in the query.
    func client(
        _ api: URL,
        _ transport: any HTTPTransporting,
        scope: Authentication.Scope = .baseURL
    ) -> APIClient {
        makeClient(
            api,
            transport,
            middleware: [
                Authentication(.apiKey(key, header: keyHeader), scope: scope),
                Authentication(.bearer(key), scope: scope),
                Authentication(.apiKeyInQuery(key, name: "apiKey"), scope: scope),
            ]
        )
    }

    func expectNoCredentials(_ echo: Echo, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(echo.headers["x-api-key"] == nil, sourceLocation: sourceLocation)
        #expect(echo.headers["authorization"] == nil, sourceLocation: sourceLocation)
        #expect(!echo.query.contains(key), "\(echo.query)", sourceLocation: sourceLocation)
    }

    @Test(arguments: transports)
    func sendsTheCredentialsToItsOwnOrigin(kind: TransportKind) async throws {
        try await TestServer.run { api, _ in
            try await kind.with { transport in
                let echo = try await client(api, transport).send(Request<Echo>("echo"))
                #expect(echo.headers["x-api-key"] == key)
                #expect(echo.headers["authorization"] == "Bearer \(key)")
                #expect(echo.query == "apiKey=\(key)")
            }
        }
    }

    @Test(arguments: transports)
    func keepsThemOffAnAbsoluteURLElsewhere(kind: TransportKind) async throws {
        try await TestServer.run { api, _ in
            try await TestServer.run { other, _ in
                try await kind.with { transport in
                    let echo = try await client(api, transport).send(
                        Request<Echo>(.url(other.appendingPathComponent("echo")))
                    )
                    expectNoCredentials(echo)
                }
            }
        }
    }

    /// `localhost` and `127.0.0.1` are one machine but two origins.
    @Test(arguments: transports)
    func treatsAnotherHostNameOfTheSameServerAsAnotherOrigin(kind: TransportKind) async throws {
        try await TestServer.run { api, _ in
            try await kind.with { transport in
                let port = try #require(api.port)
                let echo = try await client(api, transport).send(
                    Request<Echo>(.url(URL(string: "http://localhost:\(port)/echo")!))
                )
                expectNoCredentials(echo)
            }
        }
    }

    @Test(arguments: transports, [301, 302, 303, 307, 308])
    func dropsThemOnARedirectToAnotherOrigin(kind: TransportKind, status: Int) async throws {
        try await TestServer.run { api, _ in
            try await TestServer.run { other, _ in
                try await kind.with { transport in
                    // The redirect carries the key along in its query, as a careless server might.
                    let target = other.absoluteString + "/echo?apiKey=\(key)&page=2"
                    let echo = try await client(api, transport).send(
                        Request<Echo>(
                            "bounce",
                            query: [
                                URLQueryItem(name: "to", value: target),
                                URLQueryItem(name: "status", value: "\(status)"),
                            ]
                        )
                    )
                    expectNoCredentials(echo)
                    #expect(echo.query == "page=2")
                }
            }
        }
    }

    @Test(arguments: transports)
    func keepsThemOnARedirectWithinTheOrigin(kind: TransportKind) async throws {
        try await TestServer.run { api, _ in
            try await kind.with { transport in
                let echo = try await client(api, transport).send(
                    Request<Echo>("bounce", query: [URLQueryItem(name: "to", value: "/echo")])
                )
                #expect(echo.headers["x-api-key"] == key)
                #expect(echo.headers["authorization"] == "Bearer \(key)")
            }
        }
    }

    @Test(arguments: transports)
    func sendsThemWhereTheScopeIsWidenedExplicitly(kind: TransportKind) async throws {
        try await TestServer.run { api, _ in
            try await TestServer.run { other, _ in
                try await kind.with { transport in
                    let widened = client(api, transport, scope: .origins([HTTPOrigin(other)!]))
                    let direct = try await widened.send(
                        Request<Echo>(.url(other.appendingPathComponent("echo")))
                    )
                    #expect(direct.headers["x-api-key"] == key)
                    let redirected = try await widened.send(
                        Request<Echo>(
                            "bounce",
                            query: [URLQueryItem(name: "to", value: other.absoluteString + "/echo")]
                        )
                    )
                    #expect(redirected.headers["authorization"] == "Bearer \(key)")
                }
            }
        }
    }

    /// A 303, and a 302 after a POST, continue as a GET without the body.
    @Test(arguments: transports)
    func turnsAPostRedirectedBy303IntoAGet(kind: TransportKind) async throws {
        try await TestServer.run { api, _ in
            try await kind.with { transport in
                let echo = try await makeClient(api, transport).send(
                    Request<Echo>(
                        "bounce",
                        method: .post,
                        query: [
                            URLQueryItem(name: "to", value: "/echo?after=post"),
                            URLQueryItem(name: "status", value: "303"),
                        ],
                        body: .json(["a": 1])
                    )
                )
                #expect(echo.query == "after=post")
                #expect(echo.headers["content-type"] == nil)
            }
        }
    }

    @Test(arguments: transports)
    func stopsAtTheRedirectLimit(kind: TransportKind) async throws {
        try await TestServer.run { api, log in
            try await kind.with { transport in
                let error = await apiError {
                    try await makeClient(api, transport, retryPolicy: .never).send(Request<Echo>("loop"))
                }
                #expect(log.count("loop") == TransportRequest.redirectLimit + 1)
                guard case .transport(let failure as TransportFailure)? = error?.kind,
                    case .tooManyRedirects = failure
                else {
                    Issue.record("expected too many redirects, got \(String(describing: error))")
                    return
                }
            }
        }
    }

    /// The query travels exactly as `APIClient` encoded it: `+` stays a plus, and a key holding
    /// `+`, `&` or `=` arrives whole.
    @Test(arguments: transports)
    func appendsAKeyToTheQueryWithoutReencodingIt(kind: TransportKind) async throws {
        try await TestServer.run { api, _ in
            try await kind.with { transport in
                let client = makeClient(
                    api,
                    transport,
                    middleware: [Authentication(.apiKeyInQuery("a+b&c=d", name: "apiKey"))]
                )
                let echo = try await client.send(
                    Request<Echo>("echo", query: [URLQueryItem(name: "q", value: "+bitcoin -ethereum")])
                )
                #expect(echo.query == "q=%2Bbitcoin%20-ethereum&apiKey=a%2Bb%26c%3Dd")
            }
        }
    }
}
