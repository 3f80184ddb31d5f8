import CombineSchedulers
import Foundation
import Testing
import Tributary
import TributaryTesting

enum Failure: Error, Equatable {
    case boom
    case other
}

@Suite(.timeLimit(.minutes(5)))
struct MarbleTestTests {
    @Test func searchWaitsForTypingToStop() {
        let test = MarbleTest()
        let typed = test.hot("-a-b-----c---", values: ["a": "s", "b": "sw", "c": "swift"])
        let results = typed.debounce(for: .milliseconds(3), scheduler: test.scheduler)
        test.expect(results, toBe: "------b-----c", values: ["b": "sw", "c": "swift"])
        test.expectSubscriptions(typed, toBe: "^")
    }

    /// A pipeline written for `AnySchedulerOf<DispatchQueue>`, as view models take the main
    /// queue, runs on the test's scheduler unchanged.
    @Test func drivesAPipelineThatTakesAnySchedulerOfDispatchQueue() {
        func settled(
            _ typed: some Publisher<String, Never>,
            on scheduler: AnySchedulerOf<DispatchQueue>
        ) -> AnyPublisher<String, Never> {
            typed.debounce(for: .milliseconds(300), scheduler: scheduler).removeDuplicates()
                .eraseToAnyPublisher()
        }
        let test = MarbleTest(frame: .milliseconds(100))
        let typed = test.cold("-a-b----b----c", values: ["a": "s", "b": "sw", "c": "swift"])
        test.expect(
            settled(typed, on: test.scheduler),
            toBe: "------b---------c",
            values: ["b": "sw", "c": "swift"]
        )
    }

    @Test func coldPublishersStartForEachSubscriberAndEndTheirSubscriptions() {
        let test = MarbleTest()
        let source = test.cold("-a-b|", values: ["a": 1, "b": 2])
        test.expect(source.map { $0 * 10 }, toBe: "-x-y|", values: ["x": 10, "y": 20])
        test.expectSubscriptions(source, toBe: "^---!")
        test.expect(source.map { $0 + 1 }, toBe: "-2-3|")
        test.expectSubscriptions(source, toBe: "^---!", "----^---!")
    }

    @Test func failuresAreExpectedByTheirError() {
        let test = MarbleTest()
        let source = test.cold("-a-#", values: ["a": 1], error: Failure.boom)
        test.expect(source, toBe: "-a-#", values: ["a": 1], error: .boom)
        let untyped = test.cold("--#", values: ["a": 1], error: Failure.other).mapError { $0 as any Error }
        test.expect(untyped, toBe: "--#")
    }

    /// An expectation that subscribes late and cancels early sees only what came between.
    @Test func subscribesAndCancelsAsTheSubscriptionDiagramSays() {
        let test = MarbleTest()
        let source = test.hot("-a-b-c-d-e-|")
        test.expect(source, toBe: "---b-c-", subscription: "--^---!")
        test.expectSubscriptions(source, toBe: "--^---!")
    }

    @Test func timeReadsTheFramesUpToTheEnd() {
        let test = MarbleTest()
        #expect(test.time("---|") == .milliseconds(3))
        #expect(MarbleTest(frame: .seconds(1)).time("- 2s |") == .seconds(3))
    }

    @Test func marblesOfAPublisherForCodeThatComparesItself() {
        let test = MarbleTest()
        let source = test.cold("-a-b|")
        #expect(test.marbles(of: source.map { $0.uppercased() }) == "-A-B|")
        #expect(test.marbles(of: source.map { $0 + $0 }) == "-a-b|")
    }

    /// A value the table does not name is shown in full in the legend, never as `?`.
    @Test func aFailedExpectationShowsBothDiagramsAlignedWithTheirValues() {
        let test = MarbleTest()
        let typed = test.hot("-a-b-----c---", values: ["a": "s", "b": "sw", "c": "swift"])
        let results = typed.debounce(for: .milliseconds(2), scheduler: test.scheduler).map { $0 + "ly" }
        let message = recordedMessage {
            test.expect(results, toBe: "------b-----c", values: ["b": "sw", "c": "swift"])
        }
        #expect(
            message == """
                the publisher's events differ from the marbles
                expected  ------b-----c
                actual    -----a-----d

                where a = "swly", d = "swiftly"
                values: b = "sw", c = "swift"
                first difference: expected "sw" at frame 6; got "swly" at frame 5
                """
        )
    }

    @Test func aFailureThatDiffersIsNamed() {
        let test = MarbleTest()
        let source = test.cold("-#", values: ["a": 1], error: Failure.other)
        let message = recordedMessage {
            test.expect(source, toBe: "-#", error: .boom)
        }
        #expect(
            message.contains(
                "first difference: expected failure TributaryTestingTests.Failure.boom at frame 1; got failure TributaryTestingTests.Failure.other at frame 1"
            )
        )
    }

    @Test func aSubscriptionThatDiffersShowsBothDiagrams() {
        let test = MarbleTest()
        let source = test.cold("-a-b|")
        test.expect(source, toBe: "-a-b|")
        let message = recordedMessage {
            test.expectSubscriptions(source, toBe: "^--!")
        }
        #expect(message == "the subscriptions differ from the marbles\nexpected:\n  ^--!\nactual:\n  ^---!")
    }

    @Test func demandIsHonouredByTestPublishers() {
        let test = MarbleTest()
        let source = test.cold("-(abc)|")
        var received: [String] = []
        var finished = false
        let subscriber = AnySubscriber<String, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in
                received.append(value)
                return value == "a" ? .max(1) : .none
            },
            receiveCompletion: { _ in finished = true }
        )
        source.subscribe(subscriber)
        test.flush()
        #expect(received == ["a", "b"])
        #expect(!finished)
    }

    @Test func theSchedulerRunsRepeatingTimersWithinItsLimit() {
        let scheduler = MarbleScheduler()
        var fired: [Duration] = []
        let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
            fired.append(scheduler.elapsed)
        }
        #expect(scheduler.flush(within: .milliseconds(3_500)))
        #expect(fired == [.seconds(0), .seconds(1), .seconds(2), .seconds(3)])
        timer.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(fired.count == 4)
        #expect(scheduler.elapsed == .seconds(13))
    }
}

/// RxJS's marble-testing guide, written again in Swift, with the guide's own marbles.
@Suite(.timeLimit(.minutes(5)))
struct RxJSGuideExamples {
    /// The guide's merge of two hot observables that began before the subscription.
    @Test func mergeOfTwoHotObservables() {
        let test = MarbleTest()
        let e1 = test.hot("----a--^--b-------c--|")
        let e2 = test.hot("---d-^--e---------f-----|")
        let expected = "---(be)----c-f-----|"
        test.expect(e1.merge(with: e2), toBe: expected)
    }

    /// The guide's time progression: each value delayed 10 ms, one after another.
    @Test func concatMapWithDelayInTimeProgressions() {
        let test = MarbleTest()
        let input = " -a-b-c|"
        let expected = "-- 9ms a 9ms b 9ms (c|)"
        let result = test.cold(input)
            .flatMap(maxPublishers: .max(1)) {
                Just($0).delay(for: .milliseconds(10), scheduler: test.scheduler)
            }
        test.expect(result, toBe: expected)
    }

    /// The guide's synchronous assertion: side effects have happened once virtual time ran.
    @Test func synchronousAssertionAfterTheRun() {
        let test = MarbleTest()
        var eventCount = 0
        let s1 = test.cold("--a--b|", values: ["a": "x", "b": "y"])
        let result = s1.handleEvents(receiveOutput: { _ in eventCount += 1 })
        test.expect(result, toBe: "--a--b|", values: ["a": "x", "b": "y"])
        test.flush()
        #expect(eventCount == 2)
    }

    /// The guide's endless stream, stopped by an unsubscription diagram.
    @Test func anEndlessStreamCutByItsUnsubscription() {
        let test = MarbleTest()
        let foreverStream = (1...).publisher
            .flatMap(maxPublishers: .max(1)) { _ in
                Just("a").delay(for: .milliseconds(1), scheduler: test.scheduler)
            }
        let unsub = "------!"
        test.expect(foreverStream, toBe: "-aaaaa", subscription: unsub)
    }
}

/// The message of the one issue `body` records, taken as a known issue.
func recordedMessage(_ body: () -> Void) -> String {
    final class Box: @unchecked Sendable {
        // @unchecked: `text` is reached only under `lock`.
        let lock = NSLock()
        var text = ""
    }
    let box = Box()
    withKnownIssue {
        body()
    } matching: { issue in
        box.lock.withLock { box.text = issue.comments.map(\.rawValue).joined(separator: "\n") }
        return true
    }
    return box.lock.withLock { box.text }
}
