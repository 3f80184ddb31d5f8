import Foundation
import HTTPTypes
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryLab
public import TributaryLabWire
import TributaryTestSupport

/// A lab on a loopback port over a SQLite file of its own, for the duration of `body`.
func withLab<Result: Sendable>(
    token: String = "test-token-0123456789",
    configuration: LabConfiguration = LabConfiguration(),
    _ body: @Sendable (LabConnection) async throws -> Result
) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appending(path: "lab-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try SQLiteDocumentStore(path: folder.appending(path: "lab.sqlite").path)
    let lab = LabServer(store: store, token: token, configuration: configuration)
    return try await lab.withRunning { url in
        try await AsyncHTTPClientTransport.withTransport { transport in
            try await body(LabConnection(base: url, token: token, transport: transport))
        }
    }
}

/// Raw exchanges with a lab, with or without its token.
struct LabConnection: Sendable {
    let base: URL
    let token: String
    let transport: AsyncHTTPClientTransport

    struct Answer {
        var status: Int
        var headers: HTTPFields
        var body: Data

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorPath: String? { (json["error"] as? [String: Any])?["path"] as? String }
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        body: Data? = nil,
        authorized: Bool = true,
        headers: HTTPFields = [:]
    ) async throws -> Answer {
        var head = HTTPRequest(method: method, url: URL(string: base.absoluteString + path)!)
        head.headerFields = headers
        if authorized { head.headerFields[.authorization] = "Bearer \(token)" }
        if body != nil, head.headerFields[.contentType] == nil {
            head.headerFields[.contentType] = "application/json"
        }
        let response = try await transport.send(
            TransportRequest(head: head, body: body, maximumResponseBodySize: 8 << 20)
        )
        return Answer(
            status: response.head.status.code,
            headers: response.head.headerFields,
            body: response.body
        )
    }
}

/// A small valid document: a serial of `values`, doubled.
func document(named name: String, values: [Int] = [1, 2, 3]) -> Data {
    let items = values.map { #"{"value": \#($0), "operators": [{"operator": "delay", "seconds": 1}]}"# }
    return Data(
        #"""
        {"schemaVersion": 1, "name": "\#(name)",
         "streams": [{"id": "numbers", "items": [\#(items.joined(separator: ", "))]}],
         "nodes": [{"id": "doubled", "operator": "map", "input": "numbers", "expression": "$0 * 2"}]}
        """#.utf8
    )
}

extension DocumentID: ExpressibleByStringLiteral {
    /// An id written out in a test; one of another form stops the test where it is written.
    public init(stringLiteral text: String) { self = DocumentID(text)! }

    /// The id of 22 `letter`s.
    static func repeating(_ letter: Character) -> DocumentID {
        DocumentID(String(repeating: letter, count: 22))!
    }

    /// The id that begins with `name` and is padded with `A`s.
    static func named(_ name: String) -> DocumentID {
        DocumentID(name.padding(toLength: 22, withPad: "A", startingAt: 0))!
    }
}
