import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TributaryTestSupport

/// The server the Getting Started articles' code talks to, on a loopback port chosen by the
/// system: `GET /api/health`, and NewsAPI's `GET /v2/top-headlines` and `GET /v2/everything`,
/// which answer a page whose one title repeats the `country` or `q` asked for, or NewsAPI's
/// error body when the `X-Api-Key` is not `key`.
enum GettingStartedServer {
    /// Runs the server for the duration of `body`, which gets its base URL and the number of
    /// requests it has answered.
    static func run<Result: Sendable>(
        key: String = "",
        isolation: isolated (any Actor)? = #isolation,
        _ body: (URL, Locked<Int>) async throws -> Result
    ) async throws -> Result {
        let answered = Locked(0)
        return try await withLoopbackServer(router(key: key, answered: answered)) { url in
            try await body(url, answered)
        }
    }

    private static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    private static func router(key: String, answered: Locked<Int>) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("api/health") { _, _ in
            answered.withLock { $0 += 1 }
            return json(#"{"status":"ok"}"#)
        }
        let page: @Sendable (Request, String) -> Response = { request, name in
            answered.withLock { $0 += 1 }
            guard request.headers[HTTPField.Name("X-Api-Key")!] == key else {
                return json(
                    #"{"status":"error","code":"apiKeyInvalid","message":"Your API key is invalid or incorrect."}"#,
                    status: .unauthorized
                )
            }
            let value = request.uri.queryParameters[Substring(name)].map(String.init) ?? ""
            return json(#"{"status":"ok","totalResults":1,"articles":[{"title":"\#(value)"}]}"#)
        }
        router.get("v2/top-headlines") { request, _ in page(request, "country") }
        router.get("v2/everything") { request, _ in page(request, "q") }
        return router
    }
}
