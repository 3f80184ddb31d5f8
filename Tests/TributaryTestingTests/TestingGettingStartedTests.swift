import Testing
import Tributary
import TributaryTesting

/// The code of `TributaryTesting`'s Getting Started article, as it is written there: each
/// expectation fails the test when the pipeline's marbles differ.
@Suite(.timeLimit(.minutes(1)))
struct TestingGettingStartedTests {
    @Test func coldAndHotPublishers() {
        let test = MarbleTest()
        let e1 = test.hot("----a--^--b-------c--|")
        let e2 = test.hot("---d-^--e---------f-----|")
        test.expect(e1.merge(with: e2), toBe: "---(be)----c-f-----|")
    }

    @Test func timeProgressions() {
        let test = MarbleTest()
        let result = test.cold(" -a-b-c|")
            .flatMap(maxPublishers: .max(1)) {
                Just($0).delay(for: .milliseconds(10), scheduler: test.scheduler)
            }
        test.expect(result, toBe: "-- 9ms a 9ms b 9ms (c|)")
    }

    @Test func subscriptions() {
        let test = MarbleTest()
        let source = test.hot("-a-b-c-d-e-|")
        test.expect(source, toBe: "---b-c-", subscription: "--^---!")
        test.expectSubscriptions(source, toBe: "--^---!")
    }
}
