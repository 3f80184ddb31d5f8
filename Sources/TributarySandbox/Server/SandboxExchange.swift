import Foundation

/// A request as the sandbox sees it, apart from the HTTP server that carries it.
struct SandboxRequest: Sendable {
    var path: String
    /// Query parameters, decoded; a repeated name keeps its first value.
    var query: [String: String]
    /// Header fields by lowercased name.
    var headers: [String: String]
    /// The scheme and authority clients reach the sandbox at, for image URLs.
    var origin: String

    init(path: String, rawQuery: String?, headers: [String: String], origin: String) {
        self.path = path
        self.headers = headers
        self.origin = origin
        query = [:]
        for pair in (rawQuery ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0])
            if query[name] == nil {
                query[name] = parts.count > 1 ? decode(parts[1]) : ""
            }
        }
    }
}

/// What the sandbox answers.
struct SandboxResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = [("Content-Type", "application/json; charset=utf-8")]
    var body: Data

    static func json(_ value: some Encodable) -> SandboxResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data()
        return SandboxResponse(status: 200, body: body)
    }

    /// NewsAPI's error body with its status.
    static func error(_ status: Int, _ code: String, _ message: String) -> SandboxResponse {
        struct Body: Encodable {
            var status = "error"
            var code: String
            var message: String
        }
        var response = json(Body(code: code, message: message))
        response.status = status
        return response
    }
}
