import Foundation
import HTTPTypes
import NIOWebSocket
import Testing
import Tributary
import TributaryLab
import TributaryLabWire
import TributaryTestSupport

/// What anyone who reaches the lab's port might send it: absurd numbers, unbudgeted runs,
/// forged names, half-sent requests, viewers that never read. None of it may crash, stall or
/// exhaust the lab.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct HostileTests {
    /// A zip of one stream with itself `inputs` times.
    static func wideZip(inputs: Int, values: Int = 20) -> Data {
        let items = (1...values).map { #"{"value": \#($0)}"# }.joined(separator: ",")
        let names = Array(repeating: #""n""#, count: inputs).joined(separator: ",")
        return Data(
            #"""
            {"schemaVersion": 1, "streams": [{"id": "n", "items": [\#(items)]}],
             "nodes": [{"id": "z", "operator": "zip", "inputs": [\#(names)]}]}
            """#.utf8
        )
    }

    /// `count` nodes that each wait a day: a run that records little but spans a day a lane.
    static func longDelays(count: Int) -> Data {
        let nodes = (0..<count).map {
            #"{"id": "d\#($0)", "operator": "delay", "input": "n", "seconds": 86000}"#
        }
        return Data(
            #"""
            {"schemaVersion": 1, "streams": [{"id": "n", "items": [{"value": 1}]}],
             "nodes": [\#(nodes.joined(separator: ","))]}
            """#.utf8
        )
    }

    @Test(arguments: ["9223372036854775807", "-9223372036854775808", "0", "15", "2049", "-1", "abc", ""])
    func refusesAbsurdThumbnailWidths(width: String) async throws {
        try await withNewsLab { lab, _, _ in
            let answer = try await lab.send(.get, "/img?url=http%3A%2F%2Fexample.org%2Fa.jpg&w=\(width)")
            #expect(answer.status == 400 && answer.errorCode == "badWidth")
            #expect(try await lab.send(.get, "/api/health").status == 200)
        }
    }

    @Test func runsNeedTheTokenAndJSON() async throws {
        try await withLab { lab in
            for path in ["/api/run", "/api/diagram.svg", "/api/marbles"] {
                let anonymous = try await lab.send(.post, path, body: document(named: "x"), authorized: false)
                #expect(anonymous.status == 401, "\(path)")
                // A page elsewhere can post text/plain without asking first; the lab refuses it.
                let plain = try await lab.send(
                    .post,
                    path,
                    body: document(named: "x"),
                    headers: [.contentType: "text/plain"]
                )
                #expect(plain.status == 415 && plain.errorCode == "notJSON", "\(path)")
                let foreign = try await lab.send(
                    .post,
                    path,
                    body: document(named: "x"),
                    headers: [.origin: "https://evil.example"]
                )
                #expect(foreign.status == 403, "\(path)")
            }
            #expect(try await lab.send(.post, "/api/run", body: document(named: "x")).status == 200)
        }
    }

    /// A zip costs what its events cost: a zip of one stream 4,000 times runs within a budget
    /// that a zip costing what its inputs squared cost (over a minute here) never met.
    @Test(
        .unsanitized("CPU-bound; its logic runs in the plain pass")
    ) func aWideZipRunsWithinItsBudget() async throws {
        var configuration = LabConfiguration()
        configuration.runs.time = .seconds(30)
        try await withLab(configuration: configuration) { lab in
            let answer = try await lab.send(.post, "/api/run", body: Self.wideZip(inputs: 4_000))
            #expect(answer.status == 200)
            let zipped = (answer.json["timeline"] as? [[String: Any]] ?? []).filter {
                $0["lane"] as? String == "z"
            }
            #expect(zipped.count == 21)  // twenty lists and the end
        }
    }

    /// Quiet days print as time spans, not as a dash a second: 200 day-long delays, whose text
    /// lanes took 17 MB of dashes and were refused, are answered in a few kilobytes; only text
    /// that is still too long once compressed is refused, naming the limit.
    @Test func wideQuietTimelinesAreAnsweredCompressed() async throws {
        try await withLab { lab in
            let answer = try await lab.send(.post, "/api/run", body: Self.longDelays(count: 200))
            #expect(answer.status == 200, "\(answer.errorMessage)")
            let marbles = answer.json["marbles"] as? String ?? ""
            #expect(marbles.utf8.count < 16 << 10)
            #expect(marbles.contains("d199 = delay(86000s)  ---- 85996s (1|)"), "\(marbles.prefix(300))")
        }
        var configuration = LabConfiguration()
        configuration.runs.outputBytes = 4 << 10
        try await withLab(configuration: configuration) { lab in
            let refused = try await lab.send(.post, "/api/run", body: Self.longDelays(count: 200))
            #expect(refused.status == 422 && refused.errorCode == "runBudgetExceeded")
            #expect(
                refused.errorMessage.contains("the output would take about")
                    && refused.errorMessage.contains("limit of \(4 << 10)"),
                "\(refused.errorMessage)"
            )
            #expect(try await lab.send(.post, "/api/run", body: Self.longDelays(count: 2)).status == 200)
        }
    }

    /// A run past its budget is refused, naming the limit, and costs no more than the budget:
    /// 5,000 day-long delays draw no more than the limit, and a run that would take seconds
    /// stops at its time.
    @Test(
        .unsanitized("CPU-bound; its logic runs in the plain pass")
    ) func aRunPastItsBudgetIsRefusedNamingTheLimit() async throws {
        var configuration = LabConfiguration()
        configuration.runs.time = .milliseconds(500)
        try await withLab(configuration: configuration) { lab in
            let drawn = try await lab.send(.post, "/api/diagram.svg", body: Self.longDelays(count: 5_000))
            #expect(drawn.body.count <= 4 << 20)
            for path in ["/api/run", "/api/diagram.svg"] {
                let slow = try await lab.send(.post, path, body: Self.wideZip(inputs: 2_000, values: 400))
                #expect(slow.status == 422 && slow.errorCode == "runBudgetExceeded", "\(path)")
                #expect(slow.errorMessage.contains("running time"), "\(slow.errorMessage)")
            }
        }
    }

    /// Runs go to threads of their own: a health check answers while heavy runs are still
    /// running, and runs past the pool's queue are refused at once with `Retry-After`.
    @Test(
        .unsanitized("CPU-bound; its logic runs in the plain pass")
    ) func heavyRunsNeitherDelayOtherRequestsNorQueueWithoutEnd() async throws {
        try await withLab(configuration: .oneRunThread(runningFor: .seconds(1))) { lab in
            let finished = Locked<[String]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let answer = try await lab.send(
                            .post,
                            "/api/run",
                            body: Self.wideZip(inputs: 2_000, values: 400)
                        )
                        finished.withLock {
                            $0.append("\(answer.status) \(answer.headers[.retryAfter] ?? "")")
                        }
                    }
                }
                // Six find no room at once; the health check goes while the other two run.
                try await waitUntil { finished.current.count >= 6 }
                #expect(try await lab.send(.get, "/api/health", authorized: false).status == 200)
                let whenHealthy = finished.current
                try await group.waitForAll()
                // Those that found no room were refused at once; the rest were still running.
                #expect(whenHealthy.allSatisfy { $0 == "503 1" })
                // One thread and one place in the queue: at most two ran, each cut off at its
                // second; the rest were refused.
                let ran = finished.current.filter { $0.hasPrefix("422") }.count
                #expect((1...2).contains(ran))
                #expect(finished.current.filter { $0 == "503 1" }.count == 8 - ran)
            }
        }
    }

    /// Many people opening one share link at once: every read is answered, and the lab goes on
    /// answering (reads made in place once held every shared thread waiting for a reader).
    @Test func answersManyReadsOfOneDocumentAtOnce() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Shared link"))
            let id = try #require(created.json["id"] as? String)
            let statuses = Locked<[Int]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        let path = index % 2 == 0 ? "/api/streams/\(id)" : "/api/streams/\(id)/versions"
                        let status = try await lab.send(.get, path, authorized: false).status
                        statuses.withLock { $0.append(status) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(statuses.current.count == 60 && statuses.current.allSatisfy { $0 == 200 })
            #expect(try await lab.send(.get, "/api/health", authorized: false).status == 200)
        }
    }

    /// A body that stops arriving, or says it is larger than the limit, does not hold its
    /// connection.
    @Test func refusesABodyThatNeverArrivesOrIsTooLarge() async throws {
        try await withLab { lab in
            let port = lab.base.port ?? 0
            let declared = try RawConnection(port: port)
            declared.post("/api/streams", token: lab.token, "Content-Length: 99999999\r\n\r\n{")
            #expect(await declared.status() == 413)
            // Chunks sent past the limit, without a length given first.
            let chunked = try RawConnection(port: port)
            let chunk = String(repeating: " ", count: 64 * 1_024)
            chunked.post(
                "/api/streams",
                token: lab.token,
                "Transfer-Encoding: chunked\r\n\r\n" + String(repeating: "10000\r\n\(chunk)\r\n", count: 20)
            )
            #expect(await chunked.status() == 413)
            // A chunk size that is not a number is a body that cannot be read, not a large one.
            let malformed = try RawConnection(port: port)
            malformed.post(
                "/api/streams",
                token: lab.token,
                "Transfer-Encoding: chunked\r\n\r\nZZZ\r\n{}\r\n0\r\n\r\n"
            )
            let answer = await malformed.readUntilClosed(timeout: .seconds(10))
            #expect(answer.closed && answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text.prefix(80))")
            #expect(answer.text.contains("malformedBody"), "\(answer.text)")
            // A transfer coding the lab does not read is not read as if it were none.
            let gzip = try RawConnection(port: port)
            gzip.post(
                "/api/run",
                token: lab.token,
                "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
            )
            #expect(await gzip.status() == 501)
        }
    }

    @Test func aHugeMarbleDiagramIsRefused() async throws {
        try await withLab { lab in
            let marbles = String(repeating: "a", count: 1 << 20)
            let answer = try await lab.send(
                .post,
                "/api/marbles",
                body: try JSONSerialization.data(withJSONObject: ["marbles": marbles])
            )
            #expect(answer.status == 413)
        }
    }

    /// A page at a name that an attacker points at this machine gets `421` (its WebSocket
    /// upgrade is refused); the lab's own names and the public URL's get through.
    @Test func answersOnlyToItsOwnNames() async throws {
        var configuration = LabConfiguration()
        configuration.publicURL = URL(string: "https://lab.example")
        try await withLab(configuration: configuration) { lab in
            let port = lab.base.port ?? 0
            for (host, status) in [
                ("rebind.attacker.example:\(port)", 421), ("127.0.0.1:\(port)", 200),
                ("localhost:\(port)", 200),
                ("lab.example", 200), ("[::1]:\(port)", 200),
                // What no browser sends, read leniently, would pass for one of its names.
                ("127.0.0.1:\(port)@rebind.attacker.example", 421), ("127.000.000.001:\(port)", 421),
                ("127.0.0.1:\(port)/x", 421), ("127.0.0.1:80000000", 421), ("[::1", 421),
                ("[::1]x", 421), ("[evil.example]", 421), ("127.0.0.1:", 421),
            ] {
                let connection = try RawConnection(port: port)
                connection.send("GET /api/health HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                #expect(await connection.status() == status, "\(host)")
            }
            // A target in absolute form names the host, whatever the Host header says; a request
            // names one Host, no more and no fewer.
            for (head, status) in [
                ("GET http://rebind.attacker.example/api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n", 421),
                (
                    "GET http://127.0.0.1:\(port)/api/health HTTP/1.1\r\nHost: rebind.attacker.example\r\n",
                    200
                ),
                ("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: rebind.attacker.example\r\n", 400),
                ("GET /api/health HTTP/1.1\r\n", 400),
                // A port no address has.
                ("GET /api/health HTTP/1.1\r\nHost: localhost:99999\r\n", 421),
                ("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:+8080\r\n", 421),
            ] {
                let connection = try RawConnection(port: port)
                connection.send(head + "\r\n")
                #expect(await connection.status() == status, "\(head)")
            }
            // The news socket of a lab with news, opened through a rebinding name, is refused too.
            let connection = try RawConnection(port: port)
            connection.send(
                "GET /api/streams/AAAAAAAAAAAAAAAAAAAAAA/live HTTP/1.1\r\nHost: rebind.attacker.example:\(port)\r\n"
                    + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n"
            )
            let refused = await connection.status()
            #expect(refused == 421 || refused == 400, "\(refused ?? 0)")
        }
    }

    @Test func theNewsSocketNeedsTheTokenOrTheSession() async throws {
        try await withNewsLab { lab, live, _ in
            let anonymous = LiveViewer(LiveEndpoint(url: live.url, token: nil))
            await anonymous.ended()
            #expect(anonymous.messages.isEmpty)
            let session = try await lab.session()
            let page = LiveViewer(LiveEndpoint(url: live.url, token: nil), headers: [.cookie: session])
            page.send(#"{"type":"input","feed":{"kind":"top","country":"us"},"searchText":""}"#)
            try await waitUntil { !page.messages(of: "articles").isEmpty }
            page.close()
        }
    }

    /// A request head must arrive within the idle timeout, and an idle connection closes after
    /// it: half-sent requests do not pile up.
    @Test func closesHalfSentRequestsAndIdleConnections() async throws {
        var configuration = LabConfiguration()
        configuration.idleTimeout = .seconds(1)
        try await withLab(configuration: configuration) { lab in
            let port = lab.base.port ?? 0
            let half = try RawConnection(port: port)
            half.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            // Empty lines before a request line are no head: they do not stop the clock.
            let blank = try RawConnection(port: port)
            blank.send("\r\n\r\n\r\n\r\n")
            let late = try RawConnection(port: port)
            late.send("\r\n\r\nGET /api/hea")
            let idle = try RawConnection(port: port)
            idle.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await half.readUntilClosed(timeout: .seconds(10)).closed)
            #expect(await blank.readUntilClosed(timeout: .seconds(10)).closed)
            #expect(await late.readUntilClosed(timeout: .seconds(10)).closed)
            let answered = await idle.readUntilClosed(timeout: .seconds(10))
            #expect(answered.closed && answered.text.hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A client that asks for many answers and reads none of them holds its connection only for
    /// the write timeout: then it closes, and its place is free again.
    @Test func closesAConnectionWhoseClientReadsNothing() async throws {
        var configuration = LabConfiguration()
        configuration.maximumConnections = 1
        configuration.writeTimeout = .seconds(1)
        configuration.idleTimeout = .seconds(60)
        try await withLab(configuration: configuration) { lab in
            let port = lab.base.port ?? 0
            let stalled = try RawConnection(port: port, receiveBuffer: 4_096)
            let request = "GET /app/streams.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            stalled.send(String(repeating: request, count: 200))
            // Its answers have begun, so it holds the lab's one place: a few KB of 9 MB read.
            let begun = await stalled.readBytes(timeout: .seconds(30)) { !$0.isEmpty }
            #expect(String(decoding: begun.bytes.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
            try await waitUntil {
                guard let probe = try? RawConnection(port: port) else { return false }
                probe.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                return await probe.status() == 200
            }
            // Read now, the answers stop short of the 200 asked for.
            let read = await stalled.readBytes(timeout: .seconds(30))
            #expect(read.bytes.count < 200 * 40_000)
        }
    }

    /// A head the lab cannot read is answered, saying why, and its connection closed, on the
    /// page routes and the WebSocket ones alike; none of them is held open, so they do not use up
    /// the connections.
    @Test func answersAndClosesAHeadItCannotRead() async throws {
        var configuration = LabConfiguration()
        configuration.maximumConnections = 4
        try await withLab(configuration: configuration) { lab in
            let port = lab.base.port ?? 0
            let big = String(repeating: "a", count: 90_000)
            let heads = [
                (
                    "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(big)\r\n\r\n", "431",
                    "headTooLarge"
                ),
                (
                    "GET /api/streams/abc/live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Big: \(big)\r\n\r\n",
                    "431", "headTooLarge"
                ),
                ("NOT HTTP AT ALL\r\n\r\n", "400", "malformedRequest"),
                (
                    "GET /api/streams/abc/live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Version: 8\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
                    "426", "webSocketVersion"
                ),
            ]
            for _ in 0..<3 {
                for (head, status, code) in heads {
                    let connection = try RawConnection(port: port)
                    connection.send(head)
                    let read = await connection.readUntilClosed(timeout: .seconds(10))
                    #expect(
                        read.closed && read.text.hasPrefix("HTTP/1.1 \(status)"),
                        "\(read.text.prefix(80))"
                    )
                    // Said why, as the API's errors are.
                    #expect(read.text.contains(#"{"error":{"code":"\#(code)""#), "\(read.text)")
                }
            }
            let after = try RawConnection(port: port)
            after.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await after.status() == 200)
        }
    }

    /// Requests sent one after another on a connection, the last of them unreadable: each
    /// readable one is answered in order, then the unreadable one `400`, and the connection
    /// closes. Whether the unreadable bytes arrive with the first request or after its answer,
    /// on a page route or a document route, nothing already asked goes unanswered.
    @Test func answersRequestsBeforeAnUnreadableOneOnTheSameConnection() async throws {
        try await withLab { lab in
            let port = lab.base.port ?? 0
            let health = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let examples = "GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let garbage = "GARBAGE\u{1} nonsense\r\n\r\n"
            for sent in [health + garbage, examples + garbage, health + examples + garbage] {
                let connection = try RawConnection(port: port)
                connection.send(sent)
                let read = await connection.readUntilClosed(timeout: .seconds(10))
                let statuses = read.text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
                let asked = sent.components(separatedBy: "GET ").count - 1
                #expect(read.closed, "\(sent.prefix(30))")
                #expect(
                    statuses == Array(repeating: "200", count: asked) + ["400"],
                    "\(read.text.prefix(200))"
                )
            }
            // The unreadable bytes after an answer has been read.
            let connection = try RawConnection(port: port)
            connection.send(health)
            #expect(await connection.status() == 200)
            connection.send(garbage)
            let read = await connection.readUntilClosed(timeout: .seconds(10))
            #expect(read.closed && read.text.contains("HTTP/1.1 400"), "\(read.text.prefix(200))")
        }
    }

    /// An answer written before its request's body has been read is the connection's last:
    /// otherwise Hummingbird reads and discards a body nobody asked for, however long, for as
    /// long as it keeps coming. So is the answer to a request that asked to close, however it
    /// said so.
    @Test func closesAfterAnsweringARequestWhoseBodyIsUnreadOrThatAskedToClose() async throws {
        try await withLab { lab in
            let port = lab.base.port ?? 0
            let huge = try RawConnection(port: port)
            huge.send(
                "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 9223372036854775807\r\n\r\n"
                    + String(repeating: "x", count: 10_000)
            )
            let unread = await huge.readUntilClosed(timeout: .seconds(10))
            #expect(unread.closed && unread.text.hasPrefix("HTTP/1.1 200"), "\(unread.text.prefix(80))")
            #expect(unread.text.lowercased().contains("connection: close"))

            let large = try RawConnection(port: port)
            large.post("/api/streams", token: lab.token, "Content-Length: 2000000\r\n\r\n{")
            let refused = await large.readUntilClosed(timeout: .seconds(10))
            #expect(refused.closed && refused.text.hasPrefix("HTTP/1.1 413"), "\(refused.text.prefix(80))")
            // Sent whole, the body still arriving when the answer goes out: the answer is not
            // lost to a reset.
            let whole = try RawConnection(port: port)
            whole.post(
                "/api/streams",
                token: lab.token,
                "Content-Length: 3000000\r\n\r\n" + String(repeating: " ", count: 3_000_000)
            )
            let answered = await whole.readUntilClosed(timeout: .seconds(10))
            #expect(answered.closed && answered.text.hasPrefix("HTTP/1.1 413"), "\(answered.text.prefix(80))")
            // After a CONNECT the decoder reads no further request: its answer is the last.
            let tunnel = try RawConnection(port: port)
            tunnel.send(
                "CONNECT 127.0.0.1:\(port) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
                    + "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            )
            let connected = await tunnel.readUntilClosed(timeout: .seconds(10))
            #expect(
                connected.closed && connected.text.components(separatedBy: "HTTP/1.1 ").count == 2,
                "\(connected.text)"
            )

            let health = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for asked in [
                health + "Connection: CLOSE\r\n\r\n", health + "Connection: keep-alive, close\r\n\r\n",
                "GET /api/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n",
            ] {
                let connection = try RawConnection(port: port)
                connection.send(asked + health + "\r\n")
                let read = await connection.readUntilClosed(timeout: .seconds(10))
                let answers = read.text.components(separatedBy: "HTTP/1.").count - 1
                #expect(read.closed && answers == 1, "\(read.text.prefix(120))")
            }
            // A connection that asks nothing of the kind stays open for its next request.
            let kept = try RawConnection(port: port)
            kept.send(health + "\r\n")
            #expect(await kept.status() == 200)
            kept.send(health + "\r\n")
            #expect(await kept.status() == 200)
        }
    }

    /// A WebSocket handshake a route declines is answered with why, as the API answers: the
    /// status and a JSON error, not an empty `400`.
    @Test func aDeclinedHandshakeSaysWhy() async throws {
        try await withLab { lab in
            let port = lab.base.port ?? 0
            let upgrade =
                "Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            let cases = [
                ("GET /api/streams/not-an-id/live HTTP/1.1\r\n" + upgrade, "404", "notFound"),
                (
                    "GET /api/recordings/AAAAAAAAAAAAAAAAAAAAAA/live HTTP/1.1\r\n" + upgrade, "401",
                    "unauthorized"
                ),
                ("GET /api/nothing/here HTTP/1.1\r\n" + upgrade, "404", "notFound"),
                (
                    "GET /api/pulse HTTP/1.1\r\n" + upgrade + "Origin: http://evil.example\r\n", "403",
                    "foreignOrigin"
                ),
            ]
            for (head, status, code) in cases {
                let connection = try RawConnection(port: port)
                connection.send(head + "\r\n")
                let read = await connection.readUntilClosed(timeout: .seconds(10))
                #expect(
                    read.closed && read.text.hasPrefix("HTTP/1.1 \(status)"),
                    "\(head.prefix(50)) → \(read.text.prefix(80))"
                )
                #expect(read.text.contains(#""code":"\#(code)""#), "\(read.text)")
                #expect(read.text.lowercased().contains("content-type: application/json"))
            }
        }
    }

    /// A first request asking to upgrade reaches the upgrade only as a WebSocket handshake the
    /// lab can complete; anything else is answered, never held open or dropped unanswered.
    @Test func answersEveryUpgradeRequest() async throws {
        try await withLab { lab in
            let port = lab.base.port ?? 0
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Watched"))
            let id = try #require(created.json["id"] as? String)
            let handshake =
                "GET /api/streams/\(id)/live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            let cases = [
                (handshake + "Content-Length: 5\r\n\r\nhello", "HTTP/1.1 400"),
                (handshake + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", "HTTP/1.1 400"),
                (
                    handshake.replacingOccurrences(of: "Version: 13", with: "Version: 8") + "\r\n",
                    "HTTP/1.1 426"
                ),
                (
                    handshake.replacingOccurrences(
                        of: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
                        with: ""
                    ) + "\r\n", "HTTP/1.1 400"
                ),
                (handshake.replacingOccurrences(of: "GET ", with: "POST ") + "\r\n", "HTTP/1.1 400"),
                (
                    handshake.replacingOccurrences(of: "dGhlIHNhbXBsZSBub25jZQ==", with: "abc") + "\r\n",
                    "HTTP/1.1 400"
                ),
                (handshake.replacingOccurrences(of: "HTTP/1.1", with: "HTTP/1.0") + "\r\n", "HTTP/1.1 400"),
                (
                    "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                        + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n",
                    "HTTP/1.1 200"
                ),
                ("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: foo\r\n\r\n", "HTTP/1.1 200"),
            ]
            for (sent, expected) in cases {
                let connection = try RawConnection(port: port)
                connection.send(sent)
                let read = await connection.readUntilClosed(timeout: .seconds(10))
                #expect(
                    read.closed && read.text.hasPrefix(expected),
                    "\(sent.prefix(60)) → \(read.text.prefix(80))"
                )
            }
            let upgraded = try RawConnection(port: port)
            upgraded.send(handshake + "\r\n")
            #expect(await upgraded.status() == 101)
        }
    }

    /// `Expect: 100-continue` is answered at once, so a client waits for no timer before it
    /// sends its body.
    @Test func answersAnExpectationToContinue() async throws {
        try await withLab { lab in
            let body = String(decoding: document(named: "Expected"), as: UTF8.self)
            let connection = try RawConnection(port: lab.base.port ?? 0)
            connection.post(
                "/api/streams",
                token: lab.token,
                "Expect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            )
            #expect(await connection.status(timeout: .seconds(2)) == 100)
            connection.send(body)
            #expect(await connection.status() == 201)
            // Behind another request, once that one is answered.
            let behind = try RawConnection(port: lab.base.port ?? 0)
            behind.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            behind.post(
                "/api/streams",
                token: lab.token,
                "Expect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            )
            let read = await behind.readUntil(timeout: .seconds(2)) { $0.contains("HTTP/1.1 100") }
            #expect(read.hasPrefix("HTTP/1.1 200") && read.contains("HTTP/1.1 100 Continue"), "\(read)")
            // A wrong token is answered 401 at once, without being asked for the body.
            let forged = try RawConnection(port: lab.base.port ?? 0)
            forged.post(
                "/api/streams",
                token: "not-the-token",
                "Expect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            )
            let refused = await forged.readUntilClosed(timeout: .seconds(10))
            #expect(refused.closed && refused.text.hasPrefix("HTTP/1.1 401"), "\(refused.text.prefix(80))")
        }
    }

    /// Opens `count` connections, each answered, and one more, which is turned away with `503`;
    /// the ones held.
    static func holdAllAndBeRefusedOne(count: Int, port: Int) async throws -> [RawConnection] {
        let held = try (0..<count).map { _ in try RawConnection(port: port) }
        for connection in held { connection.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        for connection in held { #expect(await connection.status() == 200) }
        let extra = try RawConnection(port: port)
        extra.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let refused = await extra.readUntilClosed(timeout: .seconds(5))
        #expect(refused.closed && refused.text.hasPrefix("HTTP/1.1 503"), "\(refused.text)")
        return held
    }

    @Test func closesConnectionsPastItsLimit() async throws {
        var configuration = LabConfiguration()
        configuration.maximumConnections = 4
        try await withLab(configuration: configuration) { lab in
            let port = lab.base.port ?? 0
            let held = try await Self.holdAllAndBeRefusedOne(count: 4, port: port)
            withExtendedLifetime(held) {}
        }
    }

    /// One block of addresses — here loopback's /24, whichever of its addresses a connection
    /// comes from — holds no more connections than its share, while the lab has room.
    @Test func closesConnectionsPastABlocksShare() async throws {
        var configuration = LabConfiguration()
        configuration.maximumConnections = 100
        configuration.maximumConnectionsPerAddress = 3
        try await withLab(configuration: configuration) { lab in
            let port = lab.base.port ?? 0
            var held = try await Self.holdAllAndBeRefusedOne(count: 3, port: port)
            // A connection that closes gives its place back.
            held.removeLast()
            try await waitUntil {
                guard let again = try? RawConnection(port: port) else { return false }
                again.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                return await again.status() == 200
            }
            withExtendedLifetime(held) {}
        }
    }

    /// A viewer is bounded in bytes: one that falls that far behind is dropped with a reason,
    /// and live connections are capped per remote address.
    @Test func boundsViewersInBytesAndConnectionsPerAddress() async throws {
        var configuration = LabConfiguration()
        configuration.viewerBufferBytes = 256
        configuration.maximumLiveConnectionsPerAddress = 2
        try await withLab(configuration: configuration) { lab in
            let created = try await lab.send(
                .post,
                "/api/streams",
                body: document(named: "Wide", values: Array(1...50))
            )
            let id = try #require(created.json["id"] as? String)
            let url = "ws://127.0.0.1:\(lab.base.port ?? 0)/api/streams/\(id)/live"
            // The snapshot alone is more than the viewer may have waiting.
            let tooMuch = LiveViewer(LiveEndpoint(url: url))
            let close = await tooMuch.ended()
            #expect(close?.code == .policyViolation)
            #expect(close?.reason?.contains("keep up") == true)
        }
        configuration.viewerBufferBytes = 4 << 20
        try await withLab(configuration: configuration) { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "Crowded"))
            let id = try #require(created.json["id"] as? String)
            let url = "ws://127.0.0.1:\(lab.base.port ?? 0)/api/streams/\(id)/live"
            let first = LiveViewer(LiveEndpoint(url: url))
            let second = LiveViewer(LiveEndpoint(url: url))
            try await waitUntil {
                !first.messages(of: "snapshot").isEmpty && !second.messages(of: "snapshot").isEmpty
            }
            let third = LiveViewer(LiveEndpoint(url: url))
            let close = await third.ended()
            #expect(close?.code == .policyViolation)
            #expect(close?.reason?.contains("Your address") == true)
            first.close()
            second.close()
        }
    }

    /// A resume is answered only when the viewer is behind, with one snapshot at most; as many
    /// as a viewer may send in a second (50) cost no more.
    @Test func answersAResumeOnlyWhenTheViewerIsBehind() async throws {
        try await withLiveLab { lab, id, live in
            let viewer = LiveViewer(live(false))
            try await waitUntil { viewer.messages(of: "snapshot").count == 1 }
            for _ in 0..<45 { viewer.send(#"{"type":"resume","version":1}"#) }
            viewer.send(#"{"type":"resume","version":0}"#)
            try await waitUntil { viewer.messages(of: "snapshot").count == 2 }
            // A hello after them is answered in order: once everyone is told of it, every resume
            // before it has been answered.
            viewer.send(#"{"type":"hello","name":"marker"}"#)
            try await waitUntil {
                viewer.messages(of: "presence").contains {
                    ($0["names"] as? [String])?.contains("marker") == true
                }
            }
            #expect(viewer.messages(of: "snapshot").count == 2)
            viewer.close()
        }
    }
}

extension LabConfiguration {
    /// One run thread and one place in its queue, each run stopped after `time`.
    static func oneRunThread(runningFor time: Duration) -> LabConfiguration {
        var configuration = LabConfiguration()
        configuration.runs.time = time
        configuration.runs.workers = 1
        configuration.runs.queueLength = 1
        return configuration
    }
}
