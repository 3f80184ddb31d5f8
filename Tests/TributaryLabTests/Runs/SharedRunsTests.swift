import Foundation
import HTTPTypes
import Testing
import TributaryLabWire
import TributaryTestSupport

@testable import TributaryLab

/// A share link's run and diagram: each version run once and kept, for whoever has the link,
/// within a per-address allowance of runs; and the embeddable diagram, the one page others may
/// frame.
@Suite(.timeLimit(.minutes(5)))
struct SharedRunsTests {
    /// A clock the test moves by hand.
    final class Clock: Sendable {
        private let instant = Locked(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
    }

    private func drawn(_ text: String) -> SharedRuns.Drawn {
        SharedRuns.Drawn(run: Data(text.utf8), svg: Data(text.utf8))
    }

    @Test func runsAVersionOnceForEveryoneAskingAtOnce() async throws {
        let runs = SharedRuns()
        let made = Locked(0)
        let gate = Gate()
        let key = SharedRuns.Key(id: .repeating("a"), version: 1)
        let answers = try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await runs.drawn(key, for: "10.0.0.\(index)") {
                        made.withLock { $0 += 1 }
                        _ = await gate.wait()
                        return self.drawn("v1")
                    }.run
                }
            }
            // Everyone is waiting on the one run before it ends.
            try await waitUntil { made.withLock { $0 } == 1 }
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: Data("v1".utf8), count: 8))
        #expect(made.withLock { $0 } == 1)
        // Kept: asked again, it is not run again.
        _ = try await runs.drawn(key, for: "10.0.0.9") {
            made.withLock { $0 += 1 }
            return self.drawn("again")
        }
        #expect(made.withLock { $0 } == 1)
    }

    @Test func anAddressThatRunsTooManyUnkeptVersionsWaits() async throws {
        let clock = Clock()
        let runs = SharedRuns(allowance: .init(burst: 3, perSecond: 0.5), now: { clock.now })
        for version in 1...3 {
            _ = try await runs.drawn(.init(id: .repeating("a"), version: version), for: "attacker") {
                self.drawn("\(version)")
            }
        }
        do {
            _ = try await runs.drawn(.init(id: .repeating("a"), version: 4), for: "attacker") {
                self.drawn("4")
            }
            Issue.record("a fourth run was allowed")
        } catch let error as LabError {
            #expect(error.status == .tooManyRequests && error.headers[HTTPField.Name("Retry-After")!] == "2")
        }
        // What is kept costs nothing, and another address has its own allowance.
        _ = try await runs.drawn(.init(id: .repeating("a"), version: 1), for: "attacker") {
            self.drawn("never")
        }
        _ = try await runs.drawn(.init(id: .repeating("a"), version: 4), for: "someone else") {
            self.drawn("4")
        }
        // The allowance comes back with time.
        clock.advance(.seconds(2))
        _ = try await runs.drawn(.init(id: .repeating("a"), version: 5), for: "attacker") { self.drawn("5") }
    }

    @Test func keepsWithinItsBytesTheLeastRecentlyAskedForGoingFirst() async throws {
        let runs = SharedRuns(maximumBytes: 400, allowance: .init(burst: 100, perSecond: 1))
        let fifty = String(repeating: "x", count: 50)
        for version in 1...4 {
            _ = try await runs.drawn(.init(id: .repeating("a"), version: version), for: "a") {
                self.drawn(fifty)
            }
        }
        #expect(await runs.keeping == (4, 400))
        // Version 1 is asked for again, so version 2 is the one that goes.
        _ = try await runs.drawn(.init(id: .repeating("a"), version: 1), for: "a") { self.drawn("never") }
        _ = try await runs.drawn(.init(id: .repeating("a"), version: 5), for: "a") { self.drawn(fifty) }
        #expect(await runs.keeping == (4, 400))
        let made = Locked(0)
        _ = try await runs.drawn(.init(id: .repeating("a"), version: 1), for: "a") {
            made.withLock { $0 += 1 }
            return self.drawn(fifty)
        }
        _ = try await runs.drawn(.init(id: .repeating("a"), version: 2), for: "a") {
            made.withLock { $0 += 1 }
            return self.drawn(fifty)
        }
        #expect(made.withLock { $0 } == 1)
        // An answer too large to keep is served all the same.
        let huge = String(repeating: "y", count: 101)
        #expect(
            try await runs.drawn(.init(id: .repeating("b"), version: 1), for: "a") { self.drawn(huge) }.run
                .count == 101
        )
    }

    @Test func servesEachVersionToAnyoneWithTheLinkAndRefusesAStrangeOne() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "First name"))
            let id = try #require(created.json["id"] as? String)
            let saved = try await lab.send(
                .put,
                "/api/streams/\(id)",
                body: document(named: "Second name", values: [7]),
                headers: [.ifMatch: "\"1\""]
            )
            #expect(saved.status == 200)
            let latest = try await lab.send(.get, "/api/streams/\(id)/diagram.svg", authorized: false)
            #expect(latest.status == 200 && latest.text.contains("Second name"))
            let first = try await lab.send(
                .get,
                "/api/streams/\(id)/diagram.svg?version=1",
                authorized: false
            )
            #expect(first.status == 200 && first.text.contains("First name"))
            let run = try await lab.send(.get, "/api/streams/\(id)/run?version=1", authorized: false)
            #expect(run.status == 200)
            #expect((run.json["marbles"] as? String)?.contains("doubled") == true)
            let second = try await lab.send(.get, "/api/streams/\(id)/run", authorized: false)
            #expect((second.json["marbles"] as? String)?.contains("e") == true)
            #expect(
                try await lab.send(.get, "/api/streams/\(id)/run?version=0", authorized: false).status == 400
            )
            for strange in ["x", "+1", "01", "%2B1", "1.0", "-1"] {
                let answer = try await lab.send(
                    .get,
                    "/api/streams/\(id)/run?version=\(strange)",
                    authorized: false
                )
                #expect(answer.status == 400 && answer.errorCode == "badVersion", "\(strange)")
            }
            // A version the document does not have is named as such, with the versions it has.
            for (path, number) in [
                ("run?version=3", 3), ("run?version=\(Int.max)", Int.max), ("versions/\(Int.max)", Int.max),
            ] {
                let missing = try await lab.send(.get, "/api/streams/\(id)/\(path)", authorized: false)
                let message = (missing.json["error"] as? [String: Any])?["message"] as? String
                #expect(missing.status == 404, "\(path)")
                #expect(
                    message == "There is no version \(number) of this document: its versions are 1 to 2.",
                    "\(path)"
                )
            }
            #expect(
                try await lab.send(
                    .get,
                    "/api/streams/\(id)/run?version=99999999999999999999",
                    authorized: false
                )
                .status == 400
            )
        }
    }

    @Test func runsNoMoreUnkeptVersionsForOneAddressThanItsAllowance() async throws {
        try await withLab { lab in
            let created = try await lab.send(.post, "/api/streams", body: document(named: "v1"))
            let id = try #require(created.json["id"] as? String)
            for version in 1...11 {
                let saved = try await lab.send(
                    .put,
                    "/api/streams/\(id)",
                    body: document(named: "v\(version + 1)"),
                    headers: [.ifMatch: "\"\(version)\""]
                )
                #expect(saved.status == 200)
            }
            var statuses: [Int] = []
            for version in 1...11 {
                statuses.append(
                    try await lab.send(
                        .get,
                        "/api/streams/\(id)/diagram.svg?version=\(version)",
                        authorized: false
                    )
                    .status
                )
            }
            #expect(statuses == Array(repeating: 200, count: 10) + [429])
            let refused = try await lab.send(.get, "/api/streams/\(id)/run?version=12", authorized: false)
            #expect(refused.status == 429 && refused.errorCode == "tooManyRuns")
            #expect(refused.headers[HTTPField.Name("Retry-After")!].flatMap(Int.init).map { $0 >= 1 } == true)
            // The versions already run are served to the same address all the same.
            #expect(
                try await lab.send(.get, "/api/streams/\(id)/run?version=3", authorized: false).status == 200
            )
        }
    }

    @Test func embedsTheDiagramInOtherPagesAndNoOtherPage() async throws {
        try await withLab { lab in
            let created = try await lab.send(
                .post,
                "/api/streams",
                body: document(named: "<script>x</script> & co")
            )
            let id = try #require(created.json["id"] as? String)
            let embed = try await lab.send(.get, "/embed/\(id)", authorized: false)
            #expect(embed.status == 200 && embed.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(embed.headers[.contentSecurityPolicy]?.contains("frame-ancestors *") == true)
            #expect(embed.headers[HTTPField.Name("X-Frame-Options")!] == nil)
            #expect(embed.text.contains(#"src="/api/streams/\#(id)/diagram.svg?version=1""#))
            #expect(embed.text.contains(#"href="/streams/\#(id)/versions/1""#))
            #expect(
                !embed.text.contains("<script>")
                    && embed.text.contains("&lt;script&gt;x&lt;/script&gt; &amp; co")
            )
            let pinned = try await lab.send(.get, "/embed/\(id)/versions/1", authorized: false)
            #expect(pinned.status == 200)
            // What is not there is said in a sentence on a page, as a frame on another site shows it.
            for path in ["/embed/\(id)/versions/2", "/embed/not-an-id", "/embed/AAAAAAAAAAAAAAAAAAAAAA"] {
                let missing = try await lab.send(.get, path, authorized: false)
                #expect(missing.status == 404, "\(path)")
                #expect(missing.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
                #expect(missing.text.contains("<p role=\"alert\">There is no"), "\(path)")
            }
            for path in ["/streams/\(id)", "/streams/\(id)/versions/1", "/api/streams/\(id)"] {
                let page = try await lab.send(.get, path, authorized: false)
                #expect(page.status == 200, "\(path)")
                #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY", "\(path)")
                #expect(
                    page.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true,
                    "\(path)"
                )
            }
        }
    }
}

extension SharedRunsTests {
    @Test func keepsAVersionsFailureAndChargesIPv6ByItsBlock() async throws {
        let runs = SharedRuns(allowance: .init(burst: 5, perSecond: 0.001))
        let made = Locked(0)
        for _ in 0..<3 {
            do {
                _ = try await runs.drawn(.init(id: .repeating("a"), version: 1), for: "x") {
                    made.withLock { $0 += 1 }
                    throw LabError(
                        status: .unprocessableContent,
                        code: "runBudgetExceeded",
                        message: "Too long."
                    )
                }
                Issue.record("a failing version was answered")
            } catch let error as LabError {
                #expect(error.code == "runBudgetExceeded")
            }
        }
        // Run once: the failure is kept, as an answer is.
        #expect(made.withLock { $0 } == 1)
        #expect(
            SharedRuns.caller("2001:db8:1:2:aaaa::1") == SharedRuns.caller("2001:db8:1:2:bbbb:cccc:dddd:eeee")
        )
        #expect(SharedRuns.caller("2001:db8:1:2::1") != SharedRuns.caller("2001:db8:1:3::1"))
        #expect(SharedRuns.caller("::1") == "0:0:0:0::/64")
        #expect(SharedRuns.caller("10.0.0.1") == SharedRuns.caller("10.0.0.200"))
        #expect(SharedRuns.caller("10.0.0.1") != SharedRuns.caller("10.0.1.1"))
    }
}
