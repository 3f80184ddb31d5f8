import InMemoryTracing
import Testing
import Tracing
import Tributary
import TributaryTracing

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// Lanes as spans, checked with swift-distributed-tracing's in-memory tracer.
@Suite struct TracingLaneRecorderTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the source broke" }
    }

    /// A structured lane's value carries its JSON on the value's event.
    @Test func aStructuredValueCarriesItsJSON() {
        let tracer = InMemoryTracer()
        let recorder = TracingLaneRecorder(tracer: tracer)
        let cancellable = [["query": "sw"]].publisher.lane("state", encoding: .json, recorder: recorder).sink
        { _ in }
        let values = tracer.finishedSpans.first?.events.filter { $0.name == "value" } ?? []
        #expect(
            values.compactMap { $0.attributes["lane.value.json"]?.toSpanAttribute() } == [
                .string(#"{"query":"sw"}"#)
            ]
        )
        cancellable.cancel()
    }

    @Test func aSubscriptionIsASpanWithAnEventPerValue() {
        let tracer = InMemoryTracer()
        let recorder = TracingLaneRecorder(tracer: tracer)
        let cancellable = [1, 2].publisher.lane("numbers", recorder: recorder).sink { _ in }
        let spans = tracer.finishedSpans
        #expect(spans.count == 1)
        let span = try! #require(spans.first)
        #expect(span.operationName.hasPrefix("numbers #"))
        #expect(span.attributes["lane.name"]?.toSpanAttribute() == .string("numbers"))
        #expect(span.attributes["lane.end"]?.toSpanAttribute() == .string("finished"))
        #expect(
            span.attributes["code.source"].map { "\($0)" }?.contains("TracingLaneRecorderTests.swift:")
                == true
        )
        #expect(span.events.map(\.name) == ["requested", "value", "value"])
        #expect(
            span.events.compactMap { $0.attributes["lane.value"]?.toSpanAttribute() } == [
                .string("1"), .string("2"),
            ]
        )
        #expect(span.events.first?.attributes["lane.demand"]?.toSpanAttribute() == .string("unlimited"))
        #expect(span.errors.isEmpty && span.status == nil)
        #expect(recorder.openSpans == 0)
        cancellable.cancel()
    }

    @Test func aFailureIsRecordedOnItsSpan() {
        let tracer = InMemoryTracer()
        let recorder = TracingLaneRecorder(tracer: tracer)
        let cancellable = Fail<Int, Broken>(error: Broken()).lane("failing", recorder: recorder)
            .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        let span = try! #require(tracer.finishedSpans.first)
        #expect(span.status == SpanStatus(code: .error, message: "the source broke"))
        #expect(span.errors.map { "\($0.error)" } == ["the source broke"])
        #expect(span.attributes["lane.end"]?.toSpanAttribute() == .string("failed"))
        cancellable.cancel()
    }

    @Test func spansStayOpenUntilTheirSubscriptionsEnd() async {
        let tracer = InMemoryTracer()
        let recorder = TracingLaneRecorder(tracer: tracer)
        let subject = PassthroughSubject<String, Never>()
        let first = subject.lane("typed", recorder: recorder).sink { _ in }
        let second = subject.lane("typed", recorder: recorder).sink { _ in }
        subject.send("s")
        #expect(recorder.openSpans == 2 && tracer.activeSpans.count == 2 && tracer.finishedSpans.isEmpty)
        first.cancel()
        #expect(recorder.openSpans == 1)
        #expect(
            tracer.finishedSpans.map { $0.attributes["lane.end"]?.toSpanAttribute() } == [
                .string("cancelled")
            ]
        )
        second.cancel()
        #expect(recorder.openSpans == 0 && tracer.activeSpans.isEmpty)
        // Each subscription a span of its own; both lanes' numbers differ.
        #expect(Set(tracer.finishedSpans.map(\.operationName)).count == 2)
        #expect(Set(tracer.finishedSpans.map(\.spanID)).count == 2)

        // An async lane's iterations too.
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.yield(7)
        continuation.finish()
        for await _ in stream.lane("async", recorder: recorder) {}
        let iteration = tracer.finishedSpans.last
        #expect(iteration?.operationName.hasPrefix("async #") == true)
        #expect(iteration?.events.map(\.name) == ["requested", "value", "requested"])
    }
}
