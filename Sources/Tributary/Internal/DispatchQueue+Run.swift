package import Dispatch

extension DispatchQueue {
    /// Runs `body` on this queue and waits for its result without holding one of the
    /// cooperative pool's threads, which every task shares: for blocking work such as disk
    /// access, parsing and decoding.
    package func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            self.async { continuation.resume(returning: body()) }
        }
    }
}
