import Foundation
import Hummingbird
import TributaryTestSupport

/// A server on loopback that answers each path with a fixed status and JSON body, `null` with
/// 200 for any other path ending in `.json` and 404 for the rest, and keeps every path and
/// query it was asked for.
final class FixtureServer: Sendable {
    let answers: [String: (status: Int, body: String)]
    private let asked = Locked<[String]>([])

    init(_ answers: [String: (status: Int, body: String)]) {
        self.answers = answers
    }

    /// Every request's path and query, in order.
    var requests: [String] { asked.withLock { $0 } }

    func run<Result: Sendable>(_ body: (URL) async throws -> Result) async throws -> Result {
        let router = Router()
        router.get("**") { [self] request, context in
            let path = context.parameters.getCatchAll().joined(separator: "/")
            asked.withLock { $0.append(request.uri.description) }
            let answer =
                answers[path] ?? (path.hasSuffix(".json") ? (200, "null") : (404, #"{"status_code":34}"#))
            return Response(
                status: .init(code: answer.status),
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: answer.body))
            )
        }
        return try await withLoopbackServer(router, body)
    }
}
