import Foundation
import HTTPTypes
import Tributary
import TributaryHTTP

/// Item requests under way, so that an item asked for again before its answer arrives is
/// fetched once: later callers wait for the same answer. A caller that is cancelled stops
/// waiting at once; the request is cancelled when nobody waits for it any more.
final class SharedItemRequests: Sendable {
    private typealias Waiter = CheckedContinuation<Result<HNItem?, APIError>, Never>

    private struct Entry {
        var task: Task<Void, Never>?
        var waiters: [Int: Waiter] = [:]
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextWaiter = 0
    }

    private let state = Protected(State())

    func item(
        _ id: Int,
        fetch: @escaping @Sendable () async throws(APIError) -> HNItem?
    ) async throws(APIError) -> HNItem? {
        let waiter = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let isFirst = state.withLock { state -> Bool in
                    let isFirst = state.entries[id] == nil
                    state.entries[id, default: Entry()].waiters[waiter] = continuation
                    return isFirst
                }
                guard isFirst else { return }
                let task = Task {
                    let result: Result<HNItem?, APIError>
                    do throws(APIError) {
                        result = .success(try await fetch())
                    } catch {
                        result = .failure(error)
                    }
                    finish(id, with: result)
                }
                state.withLock { $0.entries[id]?.task = task }
            }
        } onCancel: {
            leave(id, waiter: waiter)
        }
        return try result.get()
    }

    /// Hands `result` to everyone waiting for `id`.
    private func finish(_ id: Int, with result: Result<HNItem?, APIError>) {
        let waiters = state.withLock { $0.entries.removeValue(forKey: id)?.waiters.values } ?? [:].values
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// A cancelled caller stops waiting; the last one to leave cancels the request.
    private func leave(_ id: Int, waiter: Int) {
        let (continuation, task): (Waiter?, Task<Void, Never>?) = state.withLock { state in
            guard let continuation = state.entries[id]?.waiters.removeValue(forKey: waiter) else {
                return (nil, nil)
            }
            guard state.entries[id]?.waiters.isEmpty == true else { return (continuation, nil) }
            return (continuation, state.entries.removeValue(forKey: id)?.task)
        }
        task?.cancel()
        continuation?.resume(returning: .failure(APIError(.cancelled, method: .get, url: "item/\(id).json")))
    }
}
