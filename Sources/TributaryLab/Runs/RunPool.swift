import DequeModule
import Foundation
import HTTPTypes

/// Threads of their own for running documents, so that a run — CPU-bound for up to its time
/// budget — never holds one of the cooperative pool's threads the server answers on.
///
/// A bounded number of runs may wait; past that, ``run(_:)`` refuses at once with
/// ``Full``, which the API answers with `503` and `Retry-After`. The threads end when the pool
/// is released.
final class RunPool: Sendable {
    struct Full: Error {}

    private let jobs: Jobs

    init(workers: Int, queueLength: Int) {
        let jobs = Jobs(queueLength: queueLength)
        self.jobs = jobs
        for index in 0..<max(1, workers) {
            let thread = Thread { jobs.work() }
            thread.name = "TributaryLab run \(index + 1)"
            thread.start()
        }
    }

    deinit { jobs.stop() }

    /// Runs `body` on one of the pool's threads and returns what it returns; throws ``Full``
    /// when too many runs are waiting already.
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let admitted = jobs.add { continuation.resume(returning: body()) }
            if !admitted { continuation.resume(throwing: Full()) }
        }
    }

    /// What `body` returns or throws, run on one of the pool's threads; `503 busy` with
    /// `Retry-After` when too many runs wait already.
    func execute<Value: Sendable>(
        _ body: @escaping @Sendable () throws(LabError) -> Value
    ) async throws -> Value {
        let result: Result<Value, LabError>
        do {
            result = try await run { Result { () throws(LabError) in try body() } }
        } catch {
            throw Self.busy
        }
        return try result.get()
    }

    /// The answer when the pool, or work bounded like it, has as much as it takes.
    static let busy = LabError.busy("running as many documents as it can")

    /// The waiting runs, which the threads take in order.
    private final class Jobs: @unchecked Sendable {
        // `jobs` and `isStopped` are read and written only with `condition` locked.
        private let condition = NSCondition()
        private var jobs: Deque<@Sendable () -> Void> = []
        private var isStopped = false
        private let queueLength: Int

        init(queueLength: Int) { self.queueLength = queueLength }

        func add(_ job: @escaping @Sendable () -> Void) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            guard !isStopped, jobs.count < queueLength else { return false }
            jobs.append(job)
            condition.signal()
            return true
        }

        func stop() {
            condition.lock()
            isStopped = true
            condition.broadcast()
            condition.unlock()
        }

        func work() {
            while true {
                condition.lock()
                while jobs.isEmpty && !isStopped { condition.wait() }
                guard let job = jobs.popFirst() else {
                    condition.unlock()
                    return
                }
                condition.unlock()
                job()
            }
        }
    }
}
