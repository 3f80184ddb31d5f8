#if canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#elseif canImport(Darwin)
    public import Darwin
#endif

/// A non-recursive mutex for state that is touched from whichever thread an upstream
/// happens to call on.
///
/// Operators take it around a few lines of bookkeeping and never while calling out to a
/// subscriber, so contention is short and re-entrancy cannot deadlock.
@usableFromInline
final class Lock: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronisation; the pointer itself never changes.
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable @inline(__always)
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @inlinable @inline(__always)
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
