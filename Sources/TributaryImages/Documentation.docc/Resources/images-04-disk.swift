import Foundation
import TributaryImages

let url = URL(string: "http://127.0.0.1:8000/rocket.jpg")!
let dataCache = try DataCache(directory: URL(fileURLWithPath: "image-cache"))
let pipeline = ImagePipeline(
    configuration: .init(imageCache: ImageCache(costLimit: 64 << 20), dataCache: dataCache)
)

for _ in 1...2 {
    let response = try await pipeline.response(for: ImageRequest(url: url))
    print(response.image, "from", response.source)
}

// The disk cache writes in the background: wait for it before the program ends.
dataCache.flush()
print(dataCache.totalSize, "bytes on disk")
