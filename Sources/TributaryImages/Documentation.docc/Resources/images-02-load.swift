import Foundation
import TributaryImages

let url = URL(string: "http://127.0.0.1:8000/rocket.jpg")!
let pipeline = ImagePipeline()

let image = try await pipeline.image(for: url)
print(image)
