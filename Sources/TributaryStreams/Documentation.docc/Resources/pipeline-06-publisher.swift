import Foundation
import TributaryStreams

let document = try StreamDocument.decode(try Data(contentsOf: URL(fileURLWithPath: "doubled.json")))
let timeline = try StreamRunner().run(document)
print(try TextLanes.draw(timeline, document: document).text)

// The same pipeline as real Combine operators, on a real scheduler: 4, 10, 18, a second apart.
let total = try document.publisher(for: "total", scheduler: DispatchQueue.main)
let subscription = total.sink(
    receiveCompletion: { completion in
        print(completion)
        exit(0)
    },
    receiveValue: { print($0) }
)
dispatchMain()  // runs the main queue until the pipeline finishes
