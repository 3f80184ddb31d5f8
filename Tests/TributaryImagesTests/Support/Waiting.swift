/// Waits for `condition`, for long: a full run under the thread sanitizer can keep every
/// cooperative thread busy with other suites for many seconds.
func waitUntil(
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(40)
    while await !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
}
