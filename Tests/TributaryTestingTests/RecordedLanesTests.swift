// Made by the Tributary lab from recording "search box" (RECORDING).
// Lane "typed" goes into `pipeline`; lane "settled" is what came out.

import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTesting

/// The failure of a recorded lane, with the message it was recorded with.
struct RecordedFailure: Error, Equatable {
    var message: String
}

/// The pipeline that turned lane "typed" into lane "settled": fill it in.
func pipeline(
    _ input: AnyPublisher<String, RecordedFailure>,
    scheduler: AnySchedulerOf<DispatchQueue>
) -> AnyPublisher<String, RecordedFailure> {
    input.debounce(for: .milliseconds(300), scheduler: scheduler).eraseToAnyPublisher()
}

@Test func recordedLanesReplay() {
    let test = MarbleTest(frame: .milliseconds(100))
    let input = test.hot(
        "-s-a------b",
        values: ["a": "sw", "b": "swift"]
    )
    .setFailureType(to: RecordedFailure.self)
    test.expect(
        pipeline(input.eraseToAnyPublisher(), scheduler: test.scheduler),
        toBe: "------a------b",
        values: ["a": "sw", "b": "swift"]
    )
}
