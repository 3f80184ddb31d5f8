import Testing
import TributaryTestSupport

@testable import TributaryLab

/// Work asked for by many at once is done once for all of them, and done again once it is over.
@Suite(.timeLimit(.minutes(5)))
struct CoalescedTests {
    struct Refused: Error, Equatable {}

    /// Twenty callers of one key while its work waits: one run, one result for all of them.
    @Test func callersAtOnceShareOneRun() async throws {
        let coalesced = Coalesced<String, Int, Refused>()
        let runs = Locked(0)
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let work = { @Sendable () async throws(Refused) -> Int in
            let run = runs.withLock { runs in
                runs += 1
                return runs
            }
            for await _ in gate { break }
            return run * 100
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await coalesced.value(for: "a", work) } }
            try await waitUntil { coalesced.callers(of: "a") == 20 }
            opener.yield()
            var results: [Int] = []
            for try await result in group { results.append(result) }
            #expect(results == Array(repeating: 100, count: 20))
        }
        #expect(runs.current == 1)
        #expect(coalesced.callers(of: "a") == 0)
        // Over, so asked for again, it runs again; a failure reaches its callers as it was.
        opener.yield()
        #expect(try await coalesced.value(for: "a", work) == 200)
        await #expect(throws: Refused()) {
            try await coalesced.value(for: "b") { () throws(Refused) -> Int in throw Refused() }
        }
    }

    /// With `most` keys under way, work for another key is refused at once, while callers of
    /// a key under way still join it.
    @Test func refusesNewWorkPastItsMost() async throws {
        let coalesced = Coalesced<String, Int, Refused>()
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let work = { @Sendable () async throws(Refused) -> Int in
            for await _ in gate { break }
            return 1
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask { try await coalesced.value(for: "a", limit: (1, Refused()), work) }
            try await waitUntil { coalesced.callers(of: "a") == 1 }
            await #expect(throws: Refused()) {
                try await coalesced.value(for: "b", limit: (1, Refused()), work)
            }
            group.addTask { try await coalesced.value(for: "a", limit: (1, Refused()), work) }
            try await waitUntil { coalesced.callers(of: "a") == 2 }
            opener.yield()
            var results: [Int] = []
            for try await result in group { results.append(result) }
            #expect(results == [1, 1])
        }
        opener.yield()
        #expect(try await coalesced.value(for: "b", limit: (1, Refused()), work) == 1)
    }
}
