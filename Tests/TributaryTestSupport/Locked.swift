import Foundation

/// A box that threads, tasks and closures can share.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only reached under `lock`.
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }

    public var current: Value { lock.withLock { value } }
}
