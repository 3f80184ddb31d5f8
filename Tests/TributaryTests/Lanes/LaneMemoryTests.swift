import Testing
import Tributary

@Suite struct LaneMemoryTests {
    private func memory(_ events: [(ms: Int, kind: LaneEvent.Kind)], subscription: Int = 1) -> LaneMemory {
        let memory = LaneMemory()
        for event in events {
            memory.record(
                LaneEvent(
                    lane: "typed",
                    subscription: subscription,
                    kind: event.kind,
                    time: .milliseconds(event.ms),
                    source: "App.swift:1"
                )
            )
        }
        return memory
    }

    @Test func writesQuietFramesValuesGroupsAndTheEnd() {
        let memory = memory([
            (0, .subscribed), (0, .requested(.unlimited)), (30, .value("a")), (30, .value("b")),
            (100, .value("c")), (100, .finished),
        ])
        #expect(memory.marbles(lane: "typed", frame: .milliseconds(10)) == "---(ab)---(c|)")
        #expect(memory.marbleValues(lane: "typed").isEmpty)
    }

    @Test func countsFramesFromTheSubscriptionsStart() {
        let memory = memory([(1_000, .subscribed), (1_020, .value("x")), (1_050, .failed("boom"))])
        #expect(memory.marbles(lane: "typed", frame: .milliseconds(10)) == "--x--#")
    }

    @Test func writesLongerValuesAsLettersAndSaysWhich() {
        let memory = memory([
            (0, .subscribed), (10, .value("s")), (20, .value("sw")), (30, .value("s")), (40, .cancelled),
        ])
        #expect(memory.marbles(lane: "typed", frame: .milliseconds(10)) == "-aba")
        #expect(memory.marbleValues(lane: "typed") == ["a": "s", "b": "sw"])
    }

    @Test func writesMarbleSymbolsAsLetters() {
        let memory = memory([(0, .subscribed), (0, .value("-")), (10, .value("|"))])
        #expect(memory.marbles(lane: "typed", frame: .milliseconds(10)) == "ab")
        #expect(memory.marbleValues(lane: "typed") == ["a": "-", "b": "|"])
    }

    @Test func placesAnEventInsideAGroupsWidthJustAfterIt() {
        let memory = memory([(0, .subscribed), (10, .value("a")), (10, .value("b")), (20, .value("c"))])
        #expect(memory.marbles(lane: "typed", frame: .milliseconds(10)) == "-(ab)c")
    }

    @Test func choosesTheSubscriptionAsked() {
        let memory = memory([(0, .subscribed), (10, .value("a"))])
        memory.record(
            LaneEvent(lane: "typed", subscription: 2, kind: .subscribed, time: .milliseconds(50), source: "")
        )
        memory.record(
            LaneEvent(lane: "typed", subscription: 2, kind: .finished, time: .milliseconds(70), source: "")
        )
        #expect(memory.marbles(lane: "typed", frame: .milliseconds(10)) == "-a")
        #expect(memory.marbles(lane: "typed", frame: .milliseconds(10), subscription: 2) == "--|")
        #expect(memory.marbles(lane: "other", frame: .milliseconds(10)).isEmpty)
    }

    @Test func recordsRealTimeFromWhenItWasMade() async throws {
        let memory = LaneMemory()
        try await Task.sleep(for: .milliseconds(30))
        let cancellable = Just("z").lane("late", recorder: memory).sink { _ in }
        let first = try #require(memory.events.first)
        #expect(first.time >= .milliseconds(30))
        #expect(memory.marbles(lane: "late", frame: .seconds(1)) == "(z|)")
        cancellable.cancel()
    }
}
