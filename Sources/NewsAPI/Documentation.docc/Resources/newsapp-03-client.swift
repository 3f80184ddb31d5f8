import Foundation
import TributaryHTTP

let client = APIClient(
    baseURL: URL(string: "http://127.0.0.1:8081/v2")!,
    transport: URLSessionTransport(),
    middleware: [Authentication(.apiKeyInQuery("tributary-sandbox-demo", name: "apiKey"))],
    serverErrors: .newsAPI
)

let page = try await client.send(Endpoint.headlines(category: "technology").request)
print(page.totalResults, "headlines")
for article in page.articles.prefix(3) {
    print("-", article.title)
}
