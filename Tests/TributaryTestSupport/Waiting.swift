import Dispatch
import Foundation
public import Testing

/// Waits for `condition`, for long: a full run under the thread sanitizer, or on a machine
/// whose cores other processes keep busy, can hold every cooperative thread with other suites
/// for many seconds. A condition still false after 90 seconds is recorded as the test's
/// failure, at the caller: the limit is there to catch a hang, not slowness.
public func waitUntil(
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(90)
    while await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("The condition did not hold within 90 seconds.", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// A gate that test servers hold responses at until the test opens it, so that the test
/// decides when they go and a server never outlives its test waiting.
public final class Gate: @unchecked Sendable {
    // @unchecked: `opened` is reached only with `condition` locked.
    private let condition = NSCondition()
    private var opened = false

    public init() {}

    /// Whether the gate has opened.
    public var isOpen: Bool {
        condition.lock()
        defer { condition.unlock() }
        return opened
    }

    /// Opens the gate, for those waiting now and later.
    public func open() {
        condition.lock()
        opened = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks the calling thread until the gate opens: for code that cannot await, such as a
    /// decoder, which then takes no CPU while it waits.
    public func waitBlocking() {
        condition.lock()
        while !opened { condition.wait() }
        condition.unlock()
    }

    /// Waits until the gate opens, or until `limit` has passed; true when it opened.
    ///
    /// A cancelled task waits too, as a server that pays no heed to a client's cancel does. Its
    /// pauses are dispatched timers rather than `Task.sleep`, which a cancelled task would
    /// return from at once and so spin, holding one of the cooperative pool's few threads.
    @discardableResult
    public func wait(upTo limit: Duration = .seconds(3_600)) async -> Bool {
        let end = ContinuousClock.now + limit
        while !isOpen {
            guard ContinuousClock.now < end else { return false }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) {
                    continuation.resume()
                }
            }
        }
        return true
    }
}
