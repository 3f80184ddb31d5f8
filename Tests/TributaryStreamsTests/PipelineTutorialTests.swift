import Foundation
import Testing
import Tributary
import TributaryStreams
import TributaryTestSupport

/// The tutorial "A pipeline as data" (TributaryStreams' catalog) as it is written: each of its
/// documents is valid, and running the last one prints the marbles the tutorial shows, from the
/// Swift code it shows.
@Suite struct PipelineTutorialTests {
    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/TributaryStreams/Documentation.docc/Resources")

    @Test(arguments: ["pipeline-01-streams.json", "pipeline-02-map.json", "pipeline-03-scan.json"])
    func eachStepsDocumentIsValid(file: String) throws {
        _ = try StreamDocument.decode(try Data(contentsOf: Self.resources.appending(path: file)))
    }

    @Test func theLastDocumentPrintsTheMarblesTheTutorialShows() throws {
        let path = Self.resources.appending(path: "pipeline-03-scan.json").path
        // The code of pipeline-05-run.swift, with the tutorial's file.
        let document = try StreamDocument.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
        let timeline = try StreamRunner().run(document)
        let printed = try TextLanes.draw(timeline, document: document).text

        let terminal = try String(
            contentsOf: Self.resources.appending(path: "pipeline-04-run.txt"),
            encoding: .utf8
        )
        let shown = try #require(terminal.components(separatedBy: "--marbles\n").last)
        #expect(
            printed.trimmingCharacters(in: .whitespacesAndNewlines)
                == shown.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    @Test func theDocumentIsARealPipeline() async throws {
        let path = Self.resources.appending(path: "pipeline-03-scan.json").path
        let document = try StreamDocument.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
        // As pipeline-06-publisher.swift builds it, on a queue of the test's own.
        let total = try document.publisher(for: "total", scheduler: DispatchQueue(label: "tutorial"))
        let values = Locked<[StreamValue]>([])
        let finished = Locked(false)
        let subscription = total.sink(
            receiveCompletion: { _ in finished.withLock { $0 = true } },
            receiveValue: { value in values.withLock { $0.append(value) } }
        )
        try await waitUntil { finished.current }
        subscription.cancel()
        #expect(values.current.map(\.description) == ["4", "10", "18"])
    }
}
