import InMemoryTracing
import Testing
import Tracing
import Tributary
import TributaryTracing

/// The code of `TributaryTracing`'s Getting Started article, as it is written there.
@Suite struct TracingGettingStartedTests {
    @Test func theArticlesCodeRuns() throws {
        let tracer = InMemoryTracer()  // in an app: the tracer it bootstrapped
        let recorder = TracingLaneRecorder(tracer: tracer)

        let query = PassthroughSubject<String, Never>()
        let searches = query.removeDuplicates().lane("search", recorder: recorder)
        let search = searches.sink { print("searching for", $0) }
        query.send("sw")
        query.send("sw")
        query.send("swift")
        search.cancel()

        try #require(tracer.finishedSpans.count == 1)
        let span = tracer.finishedSpans[0]
        print(span.operationName)  // "search #1"
        print(span.events.map(\.name))  // ["requested", "value", "value"]: "sw" once, then "swift"
        print(span.attributes.get("lane.end") == .string("cancelled"))  // true

        #expect(span.operationName.hasPrefix("search #"))
        #expect(span.events.map(\.name) == ["requested", "value", "value"])
        #expect(
            span.events.compactMap { $0.attributes["lane.value"]?.toSpanAttribute() } == [
                .string("sw"), .string("swift"),
            ]
        )
        #expect(span.attributes["lane.name"]?.toSpanAttribute() == .string("search"))
        #expect(span.attributes["lane.end"]?.toSpanAttribute() == .string("cancelled"))
        #expect(recorder.openSpans == 0)
    }
}
