import Foundation
import TributaryStreams

let document = try StreamDocument.decode(try Data(contentsOf: URL(fileURLWithPath: "doubled.json")))
let timeline = try StreamRunner().run(document)
print(try TextLanes.draw(timeline, document: document).text)
