import Foundation
import Tributary
import TributaryHTTP

let client = APIClient(
    baseURL: URL(string: "http://127.0.0.1:8081/v2")!,
    transport: URLSessionTransport(),
    middleware: [Authentication(.apiKeyInQuery("tributary-sandbox-demo", name: "apiKey"))],
    serverErrors: .newsAPI
)

let model = HeadlinesModel(client: client, scheduler: DispatchQueue.main)
model.searchText = "swift"

for await state in Observed({ model.state }).values {
    switch state {
    case .idle: continue  // until the search starts
    case .loading(let endpoint): print("loading", endpoint)
    case .loaded(let articles): print(articles.count, "articles, the first:", articles.first?.title ?? "none")
    case .failed(let failure): print("failed:", failure.message)
    }
    if state.value != nil || state.failure != nil { break }
}
