// Made by the Tributary lab from recording "search box" (IS-LDQqsxrn6ihnP3u5TNw).
// Lane "typed" goes into `pipeline`; lane "query" is what came out.

import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTesting

/// The failure of a recorded lane, with the message it was recorded with.
struct RecordedFailure: Error, Equatable {
    var message: String
}

/// The pipeline that turned lane "typed" into lane "query": fill it in.
func pipeline(
    _ input: AnyPublisher<String, RecordedFailure>,
    scheduler: AnySchedulerOf<DispatchQueue>
) -> AnyPublisher<String, RecordedFailure> {
    input
        .debounce(for: .milliseconds(300), scheduler: scheduler)
        .removeDuplicates()
        .eraseToAnyPublisher()
}

@Test func recordedLanesReplay() {
    let test = MarbleTest(frame: .milliseconds(100))
    let input = test.hot(
        "sab-----cd",
        values: ["a": "sw", "b": "swi", "c": "swif", "d": "swift"]
    )
    .setFailureType(to: RecordedFailure.self)
    test.expect(
        pipeline(input.eraseToAnyPublisher(), scheduler: test.scheduler),
        toBe: "-----b------d",
        values: ["b": "swi", "d": "swift"]
    )
}
