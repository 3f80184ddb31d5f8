import Foundation
import Testing
import Tributary
import TributaryStreams
import TributaryTestSupport

/// The Swift code and the document of `TributaryStreams`' Getting Started article, as they are
/// written there.
@Suite(.timeLimit(.minutes(1)))
struct StreamsGettingStartedTests {
    /// The article's pipeline.
    static let pipeline = """
        {
          "schemaVersion": 1,
          "streams": [{"id": "numbers", "items": [
            {"value": 1, "operators": [{"operator": "delay", "seconds": 1}]},
            {"value": 2, "operators": [{"operator": "delay", "seconds": 1}]}]}],
          "nodes": [
            {"id": "doubled", "operator": "map", "input": "numbers", "expression": "$0 * 2"},
            {"id": "both", "operator": "combineLatest", "inputs": ["numbers", "doubled"]}
          ]
        }
        """

    @Test func theArticlesCodeRuns() async throws {
        let data = Data(Self.pipeline.utf8)

        // Run and draw
        let document = try StreamDocument.decode(data)
        let doubled = try document.publisher(for: "doubled", scheduler: DispatchQueue.main)
        let timeline = try StreamRunner().run(document)
        let svg = SVGRenderer.render(timeline, document: document)

        let run = timeline.events.filter { $0.lane == "doubled" }.map(\.kind.description)
        #expect(run == ["2", "4", "finished"])
        #expect(timeline.events.contains { $0.lane == "both" && !$0.kind.isEnd })
        #expect(svg.hasPrefix("<svg") && svg.contains("doubled"))

        let seen = Locked<[String]>([])
        let subscription = doubled.sink(
            receiveCompletion: { _ in seen.withLock { $0.append("finished") } },
            receiveValue: { value in seen.withLock { $0.append("\(value)") } }
        )
        try await waitUntil { seen.current.last == "finished" }
        subscription.cancel()
        #expect(seen.current == ["2", "4", "finished"])
    }
}
