public import CombineSchedulers
public import Foundation
public import Testing
public import Tributary

/// Runs `scheduler` until `condition` holds, letting real network answers arrive in between; it
/// waits long, as a full run under the thread sanitizer can keep every thread busy for seconds.
@MainActor
public func settle(
    _ scheduler: TestSchedulerOf<DispatchQueue>,
    until condition: () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(40)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition never held", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(2))
        await scheduler.advance()
    }
}

extension Trait where Self == ConditionTrait {
    /// Leaves a suite out of the sanitizer passes (`.ci/run` sets `TRIBUTARY_SANITIZED`), where
    /// its load would starve the suites that look for races into their time limits; the plain
    /// pass runs it.
    public static func unsanitized(_ why: Comment) -> Self {
        .disabled(if: ProcessInfo.processInfo.environment["TRIBUTARY_SANITIZED"] != nil, why)
    }
}

extension TestScheduler {
    /// Runs the actions due now and nothing else, letting no other task run in between: what
    /// a model does on its scheduler right after one of its inputs changed, before any answer
    /// from the network can arrive.
    public func runDue() {
        advance()
    }
}
