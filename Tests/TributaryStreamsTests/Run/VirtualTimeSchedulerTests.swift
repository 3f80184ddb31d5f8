import Testing
import Tributary
import TributaryStreams

@Suite struct VirtualTimeSchedulerTests {
    @Test func runsActionsInTimeOrderAndSameTimeActionsInTheOrderScheduled() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("2s") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("1s a") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            log.append("1s b")
            scheduler.schedule { log.append("1s nested") }
        }
        scheduler.schedule { log.append("now") }
        scheduler.advance(by: .milliseconds(1_500))
        #expect(log == ["now", "1s a", "1s b", "1s nested"])
        #expect(scheduler.now.seconds == 1.5)
        scheduler.advance(by: .seconds(1))
        #expect(log.last == "2s")
        #expect(!scheduler.hasPendingActions)
    }

    @Test func repeatsUntilCancelled() {
        let scheduler = VirtualTimeScheduler()
        var ticks: [Double] = []
        let timer = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1))
        {
            ticks.append(scheduler.now.seconds)
        }
        scheduler.advance(by: .milliseconds(3_500))
        timer.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(ticks == [1, 2, 3])
    }

    /// Times past the range of nanoseconds hold at its end instead of trapping, so a delay
    /// longer than any run never comes.
    @Test func timePastItsRangeHoldsAtTheEnd() {
        typealias Duration = VirtualTimeScheduler.Duration
        #expect(Duration.seconds(1e300).nanoseconds == .max)
        #expect(Duration.seconds(-1e300).nanoseconds == .min)
        #expect(Duration.seconds(.nan).nanoseconds == 0)
        #expect(Duration.seconds(Int.max).nanoseconds == .max)
        #expect(Duration.milliseconds(Int.min).nanoseconds == .min)
        #expect((Duration.seconds(1e300) + .seconds(1)).nanoseconds == .max)
        #expect((Duration.seconds(-1e300) - .seconds(1)).nanoseconds == .min)
        #expect((Duration.seconds(1e6) * Duration.seconds(1e6)).nanoseconds == .max)
        #expect((Duration.seconds(3) * Duration.seconds(2)) == .seconds(6))

        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1e300))) { log.append("never") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("1s") }
        // A repetition that would pass the end of time stops at the last time there is.
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: .seconds(2)),
            interval: .seconds(Int.max)
        ) { log.append("repeat at \(scheduler.now.seconds)") }
        scheduler.advance(by: .seconds(86_400))
        #expect(log == ["1s", "repeat at 2.0"])
        scheduler.advance(by: .seconds(1e300))
        #expect(log == ["1s", "repeat at 2.0", "never"])
        #expect(!scheduler.hasPendingActions)
        timer.cancel()
    }

    @Test func drivesCombineOperators() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var received: [(Double, Int)] = []
        let subscription = subject.debounce(for: .milliseconds(300), scheduler: scheduler)
            .sink { received.append((scheduler.now.seconds, $0)) }
        subject.send(1)
        scheduler.advance(by: .milliseconds(100))
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(received.map(\.1) == [2])
        #expect(received.map(\.0) == [0.4])
        subscription.cancel()
    }

    /// A cancelled repeating action is dropped when it is cancelled, not when its time comes.
    @Test func aCancelledRepetitionIsDroppedAtOnce() {
        let scheduler = VirtualTimeScheduler()
        weak var released: Token?
        do {
            let token = Token()
            released = token
            let repetition = scheduler.schedule(
                after: scheduler.now.advanced(by: .seconds(10)),
                interval: .seconds(1)
            ) { _ = token }
            repetition.cancel()
        }
        #expect(released == nil)
        scheduler.advance(by: .seconds(20))
        #expect(!scheduler.hasPendingActions)
    }

    /// Discarding what waits leaves nothing pending, the clock where it was and the scheduler
    /// ready for more, and nothing keeps the scheduler alive.
    @Test func discardingWhatWaitsLeavesTheSchedulerEmptyAndReady() {
        weak var released: VirtualTimeScheduler?
        do {
            let scheduler = VirtualTimeScheduler()
            released = scheduler
            let subject = PassthroughSubject<Int, Never>()
            var values: [Int] = []
            let subscription = subject.debounce(for: .seconds(5), scheduler: scheduler).sink {
                values.append($0)
            }
            subject.send(1)
            scheduler.advance(by: .seconds(1))
            subscription.cancel()
            #expect(scheduler.hasPendingActions)
            scheduler.discardPendingActions()
            #expect(!scheduler.hasPendingActions && scheduler.now.seconds == 1)
            var ran = false
            scheduler.schedule(
                after: scheduler.now.advanced(by: .seconds(1)),
                tolerance: .seconds(0),
                options: nil
            ) {
                ran = true
            }
            scheduler.advance(by: .seconds(10))
            #expect(ran && values.isEmpty)
        }
        #expect(released == nil)
    }
}

private final class Token {}
