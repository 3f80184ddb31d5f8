import Foundation
import TributaryStreams

let document = try StreamDocument.decode(try Data(contentsOf: URL(fileURLWithPath: "doubled.json")))
let timeline = try StreamRunner().run(document)
print(try TextLanes.draw(timeline, document: document).text)

// The same pipeline as real Combine operators, on a real scheduler.
let total = try document.publisher(for: "total", scheduler: DispatchQueue.main)
let subscription = total.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
