import NIOCore
import NIOHTTP1
import Testing

@testable import TributaryLab

/// The rules ``RequestFraming`` keeps, event by event, without a connection: each transition
/// the hostile suite relies on.
@Suite struct RequestFramingStateMachineTests {
    typealias Machine = RequestFraming.StateMachine

    static func head(
        _ method: HTTPMethod = .GET,
        _ uri: String = "/api/health",
        version: HTTPVersion = .http1_1,
        _ headers: [(String, String)] = []
    ) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: method, uri: uri, headers: HTTPHeaders(headers))
    }

    static func answer(
        _ status: HTTPResponseStatus,
        _ headers: [(String, String)] = []
    ) -> HTTPServerResponsePart {
        .head(HTTPResponseHead(version: .http1_1, status: status, headers: HTTPHeaders(headers)))
    }

    static let handshake: [(String, String)] = [
        ("Host", "lab"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
    ]

    @Test func answersRequestsOneAfterAnotherOnAConnectionKeptOpen() {
        var machine = Machine()
        for _ in 0..<3 {
            let head = Self.head()
            #expect(machine.read(.head(head)) == .forward(.head(head)))
            #expect(machine.read(.end(nil)) == .forward(.end(nil)))
            #expect(machine.write(Self.answer(.ok)) == .write(Self.answer(.ok)))
            #expect(machine.write(.end(nil)) == .write(.end(nil)))
            #expect(machine.mode == .requests)
        }
    }

    /// A client that pipelines more requests than the lab keeps waiting for their answers is
    /// answered the oldest, which says the connection closes, and nothing more of it is read.
    @Test func closesAConnectionThatPipelinesMoreThanItReads() {
        var machine = Machine()
        for _ in 0..<Machine.mostUnanswered {
            let head = Self.head()
            #expect(machine.read(.head(head)) == .forward(.head(head)))
            #expect(machine.read(.end(nil)) == .forward(.end(nil)))
        }
        #expect(machine.mode == .requests)
        #expect(machine.read(.head(Self.head())) == .drop)
        #expect(machine.read(.end(nil)) == .drop)
        #expect(machine.reading == .stopped)
        guard case .write(.head(let head)) = machine.write(Self.answer(.ok)) else {
            Issue.record("the oldest request is answered")
            return
        }
        #expect(head.headers["connection"] == ["close"])
        #expect(machine.write(.end(nil)) == .writeAndClose(.end(nil), lingering: false))
        #expect(machine.write(Self.answer(.ok)) == .fail)
    }

    /// An answer that comes before its request's body has been read is the last: it says so,
    /// and the connection closes after it, lingering so that the client reads it.
    @Test func closesAfterAnsweringARequestWhoseBodyIsUnread() {
        var machine = Machine()
        _ = machine.read(.head(Self.head(.POST, "/api/streams", [("Content-Length", "1000000")])))
        _ = machine.read(.body(ByteBuffer(string: "{")))
        guard case .write(.head(let head)) = machine.write(Self.answer(.payloadTooLarge)) else {
            Issue.record("the answer was not written")
            return
        }
        #expect(head.headers["connection"] == ["close"])
        #expect(machine.mode == .closing)
        // Nothing more is read while the answer goes out, nor after.
        #expect(machine.read(.body(ByteBuffer(string: "x"))) == .drop)
        #expect(machine.reading == .stopped)
        #expect(machine.write(.end(nil)) == .writeAndClose(.end(nil), lingering: true))
        #expect(machine.write(Self.answer(.ok)) == .fail)
        #expect(machine.writing == .stopped)
    }

    @Test(arguments: [
        (HTTPVersion.http1_1, [("Connection", "CLOSE")]),
        (HTTPVersion.http1_0, []),
        (HTTPVersion.http1_1, [("Upgrade", "h2c"), ("Connection", "Upgrade")]),
    ])
    func closesAfterTheAnswerToARequestThatEndsTheConnection(
        version: HTTPVersion,
        headers: [(String, String)]
    ) {
        var machine = Machine()
        // The first request on the connection, so that an upgrade is read on a second one.
        if headers.contains(where: { $0.0 == "Upgrade" }) {
            _ = machine.read(.head(Self.head()))
            _ = machine.read(.end(nil))
            _ = machine.write(Self.answer(.ok))
            _ = machine.write(.end(nil))
        }
        guard case .forward(.head(let forwarded)) = machine.read(.head(Self.head(version: version, headers)))
        else {
            Issue.record("the request was not passed on")
            return
        }
        // No protocol but WebSocket is offered: the request is answered as HTTP/1.1.
        #expect(!forwarded.headers.contains(name: "upgrade"))
        _ = machine.read(.end(nil))
        guard case .write(.head(let head)) = machine.write(Self.answer(.ok)) else {
            Issue.record("the answer was not written")
            return
        }
        #expect(head.headers["connection"] == ["close"])
        #expect(machine.write(.end(nil)) == .writeAndClose(.end(nil), lingering: false))
    }

    @Test func takesAnAbsoluteTargetsAuthorityAsTheHost() {
        var machine = Machine()
        let head = Self.head(.GET, "http://lab.example:8080/api/health?x", [("Host", "evil.example")])
        guard case .forward(.head(let forwarded)) = machine.read(.head(head)) else {
            Issue.record("the request was not passed on")
            return
        }
        #expect(forwarded.headers["host"] == ["lab.example:8080"])
        #expect(Machine.authority(ofAbsoluteTarget: "/path") == nil)
        #expect(Machine.authority(ofAbsoluteTarget: "http:///path") == nil)
    }

    @Test func closesAfterAConnectWhatEverItsHeadersSay() {
        var machine = Machine()
        _ = machine.read(.head(Self.head(.CONNECT, "lab:443", [("Connection", "keep-alive")])))
        _ = machine.read(.end(nil))
        guard case .write(.head(let head)) = machine.write(Self.answer(.notFound)) else {
            Issue.record("the answer was not written")
            return
        }
        #expect(head.headers["connection"] == ["close"])
    }

    @Test func passesAWebSocketHandshakeOnAndThenEverything() {
        var machine = Machine()
        let head = Self.head(.GET, "/api/pulse", Self.handshake)
        #expect(machine.read(.head(head)) == .forward(.head(head)))
        #expect(machine.mode == .upgrading && machine.reading == .through)
        #expect(machine.write(Self.answer(.switchingProtocols)) == .write(Self.answer(.switchingProtocols)))
        #expect(machine.mode == .upgraded && machine.reading == .through && machine.writing == .through)
    }

    /// A handshake Hummingbird declines is answered, and that answer ends the connection.
    @Test func closesAfterADeclinedHandshake() {
        var machine = Machine()
        _ = machine.read(.head(Self.head(.GET, "/api/streams/x/live", Self.handshake)))
        guard case .write(.head(let head)) = machine.write(Self.answer(.badRequest)) else {
            Issue.record("the answer was not written")
            return
        }
        #expect(head.headers["connection"] == ["close"])
        #expect(machine.write(.end(nil)) == .writeAndClose(.end(nil), lingering: false))
    }

    @Test(arguments: [
        ("a body", [("Content-Length", "5")], HTTPResponseStatus.badRequest),
        ("chunks", [("Transfer-Encoding", "chunked")], .badRequest),
        ("a short key", [("Sec-WebSocket-Key", "c2hvcnQ=")], .badRequest),
        ("another version", [("Sec-WebSocket-Version", "8")], .upgradeRequired),
        ("no Connection: Upgrade", [("Connection", "keep-alive")], .badRequest),
    ])
    func refusesAHandshakeItCannotComplete(
        _ what: String,
        _ change: [(String, String)],
        _ status: HTTPResponseStatus
    ) {
        var machine = Machine()
        var headers = Self.handshake.filter { field in !change.contains { $0.0 == field.0 } }
        headers += change
        guard case .answerAndClose(let answer) = machine.read(.head(Self.head(.GET, "/api/pulse", headers)))
        else {
            Issue.record("a handshake with \(what) was passed on")
            return
        }
        #expect(answer.status == status)
        #expect(answer.headers["content-length"] == ["0"] && answer.headers["connection"] == ["close"])
        if status == .upgradeRequired { #expect(answer.headers["sec-websocket-version"] == ["13"]) }
        #expect(machine.mode == .closed && machine.reading == .stopped && machine.writing == .stopped)
    }

    @Test func refusesAHandshakeThatIsNotAGet() {
        var machine = Machine()
        guard
            case .answerAndClose(let answer) = machine.read(
                .head(Self.head(.POST, "/api/pulse", Self.handshake))
            )
        else {
            Issue.record("a POST handshake was passed on")
            return
        }
        #expect(answer.status == .badRequest)
    }

    /// `100 Continue` goes at once to the first request that waits for it, and to a later one
    /// once the answers before it are out.
    @Test func continuesEachRequestInItsTurn() {
        var machine = Machine()
        let waiting = Self.head(
            .PUT,
            "/api/streams/x",
            [("Expect", "100-continue"), ("Content-Length", "2")]
        )
        #expect(machine.read(.head(waiting)) == .continueAndForward(.head(waiting)))
        _ = machine.read(.body(ByteBuffer(string: "{}")))
        _ = machine.read(.end(nil))
        // A second request, pipelined, waits for the first's answer.
        #expect(machine.read(.head(waiting)) == .forward(.head(waiting)))
        #expect(machine.write(Self.answer(.ok)) == .write(Self.answer(.ok)))
        #expect(machine.write(.end(nil)) == .writeAndContinue(.end(nil)))
        // HTTP/1.0 knows no 100 Continue.
        var old = Machine()
        let oldHead = Self.head(.PUT, "/x", version: .http1_0, [("Expect", "100-continue")])
        #expect(old.read(.head(oldHead)) == .forward(.head(oldHead)))
    }

    /// A request without a credential the lab takes is never asked for its body: its answer
    /// comes first, and then the connection's reading ends with it.
    @Test func continuesOnlyARequestWithACredential() {
        var machine = Machine { $0.first(name: "authorization") == "Bearer right" }
        let anonymous = Self.head(.POST, "/api/run", [("Expect", "100-continue"), ("Content-Length", "2")])
        #expect(machine.read(.head(anonymous)) == .forward(.head(anonymous)))
        guard case .write(.head(let written)) = machine.write(Self.answer(.unauthorized)),
            written.headers["connection"] == ["close"]
        else {
            Issue.record("the answer does not say the connection closes")
            return
        }
        guard case .writeAndClose(_, _) = machine.write(.end(nil)) else {
            Issue.record("the connection stays open with an unread body after it")
            return
        }
        var withToken = Machine { $0.first(name: "authorization") == "Bearer right" }
        let authorized = Self.head(
            .POST,
            "/api/run",
            [("Expect", "100-continue"), ("Content-Length", "2"), ("Authorization", "Bearer right")]
        )
        #expect(withToken.read(.head(authorized)) == .continueAndForward(.head(authorized)))
    }

    @Test func passesInformationalAnswersOn() {
        var machine = Machine()
        _ = machine.read(.head(Self.head()))
        #expect(machine.write(Self.answer(.processing)) == .write(Self.answer(.processing)))
        #expect(machine.mode == .requests)
    }

    /// A first head that cannot be read is answered, `431` when it is too large; after a
    /// readable request Hummingbird answers what came before, then the error.
    @Test func answersAFirstHeadThatCannotBeRead() {
        var tooLarge = Machine()
        guard case .answerAndClose(let answer) = tooLarge.failedToDecode(headerOverflow: true) else {
            Issue.record("a head too large was not answered")
            return
        }
        #expect(answer.status == .requestHeaderFieldsTooLarge && tooLarge.mode == .closed)
        #expect(tooLarge.failedToDecode(headerOverflow: false) == .ignore)

        var garbage = Machine()
        guard case .answerAndClose(let badRequest) = garbage.failedToDecode(headerOverflow: false) else {
            Issue.record("bytes that are not HTTP were not answered")
            return
        }
        #expect(badRequest.status == .badRequest)

        var later = Machine()
        _ = later.read(.head(Self.head()))
        #expect(later.failedToDecode(headerOverflow: false) == .forward)

        var upgraded = Machine()
        _ = upgraded.read(.head(Self.head(.GET, "/api/pulse", Self.handshake)))
        #expect(upgraded.failedToDecode(headerOverflow: false) == .close)
    }
}
