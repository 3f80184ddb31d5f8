import Foundation

/// State shared between threads, reached only under a lock.
///
/// An `NSLock` rather than `Synchronization.Mutex`: on Linux the mutex's contended path waits
/// in the kernel where the thread sanitizer cannot see it, so every contended access would be
/// reported as a race; a pthread-backed lock keeps the sanitizer's reports meaningful.
final class Protected<Value>: @unchecked Sendable {
    // @unchecked: `value` is reached only inside `withLock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
