import Tributary

/// Memory the lab holds on behalf of clients — today, what their unfinished WebSocket frames
/// have sent — counted in bytes against one budget for the whole process. When a holder's
/// bytes would take the total past it, the largest holder is shed: its connection closed.
final class ClientMemory: Sendable {
    /// The most bytes held for every client together.
    let limit: Int

    private struct Holder {
        var bytes: Int
        var shed: @Sendable () -> Void
    }

    private let state = Protected((total: 0, holders: [ObjectIdentifier: Holder]()))

    init(limit: Int) {
        self.limit = limit
    }

    /// The bytes held now, in all.
    var total: Int { state.withLock { $0.total } }

    /// Records that `holder` holds `bytes` now; sheds the largest holder, possibly this one,
    /// while the total is past the budget.
    func hold(_ bytes: Int, by holder: ObjectIdentifier, shed: @escaping @Sendable () -> Void) {
        let shedding = state.withLock { state -> [@Sendable () -> Void] in
            let before = state.holders[holder]?.bytes ?? 0
            state.total += bytes - before
            if bytes == 0 {
                state.holders[holder] = nil
            } else {
                state.holders[holder] = Holder(bytes: bytes, shed: shed)
            }
            var shedding: [@Sendable () -> Void] = []
            while state.total > limit,
                let largest = state.holders.max(by: { $0.value.bytes < $1.value.bytes })
            {
                state.holders[largest.key] = nil
                state.total -= largest.value.bytes
                shedding.append(largest.value.shed)
            }
            return shedding
        }
        for shed in shedding { shed() }
    }

    /// Forgets `holder`, whose connection has closed.
    func release(_ holder: ObjectIdentifier) {
        state.withLock { state in
            guard let held = state.holders.removeValue(forKey: holder) else { return }
            state.total -= held.bytes
        }
    }
}
