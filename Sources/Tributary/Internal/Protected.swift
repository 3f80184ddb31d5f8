/// State shared between threads, reached only under a lock; for this package's modules.
///
/// A pthread mutex rather than `Synchronization.Mutex`: on Linux the latter's contended path
/// waits in the kernel where the thread sanitizer cannot see it, so every contended access
/// would be reported as a race; a pthread mutex keeps the sanitizer's reports meaningful.
package final class Protected<Value>: @unchecked Sendable {
    // @unchecked: `value` is reached only inside `withLock`.
    private let lock = Lock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
