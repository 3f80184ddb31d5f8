import Tributary

/// Work asked for under one key by several callers at once, done once for all of them: the
/// first caller starts it, and those that ask while it runs wait for the same result. A version
/// never changes, so the readers of one version — a link opened by many at the same moment —
/// cost one read and one decode, whoever they are.
final class Coalesced<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Sendable {
    private struct Flight {
        var task: Task<Result<Value, Failure>, Never>
        var callers: Int
    }

    private let running = Protected([Key: Flight]())

    init() {}

    /// The result of `work` for `key`: of a run already under way for it, or of one started now
    /// — unless `limit` says how many keys may have work under way, and that many have, when its
    /// refusal is thrown instead.
    func value(
        for key: Key,
        limit: (most: Int, refusal: Failure)? = nil,
        _ work: @escaping @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let joined: Result<Task<Result<Value, Failure>, Never>, Failure> = running.withLock { running in
            if let started = running[key] {
                running[key]?.callers += 1
                return .success(started.task)
            }
            if let limit, running.count >= limit.most { return .failure(limit.refusal) }
            let started = Task { () async -> Result<Value, Failure> in
                do throws(Failure) {
                    return .success(try await work())
                } catch {
                    return .failure(error)
                }
            }
            running[key] = Flight(task: started, callers: 1)
            return .success(started)
        }
        let task = try joined.get()
        let result = await task.value
        running.withLock { running in
            guard running[key]?.task == task else { return }
            running[key]?.callers -= 1
            if running[key]?.callers == 0 { running[key] = nil }
        }
        return try result.get()
    }

    /// How many callers wait for the work under way for `key`.
    func callers(of key: Key) -> Int {
        running.withLock { $0[key]?.callers ?? 0 }
    }
}
