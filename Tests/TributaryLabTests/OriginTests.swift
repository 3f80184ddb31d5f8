import HTTPTypes
import Hummingbird
import Testing

@testable import TributaryLab

/// A live connection from a page elsewhere is refused; the lab's own pages and clients that are
/// not browsers are let in.
struct OriginTests {
    func request(origin: String?, authority: String = "127.0.0.1:8080") -> Request {
        var head = HTTPRequest(
            method: .get,
            scheme: "http",
            authority: authority,
            path: "/api/streams/x/live"
        )
        if let origin { head.headerFields[.origin] = origin }
        return Request(head: head, body: .init(buffer: .init()))
    }

    @Test(
        arguments: [
            (nil, true), ("http://127.0.0.1:8080", true), ("ws://127.0.0.1", true),
            ("http://LOCALHOST:8080", false),
            ("http://127.0.0.1:9090", false), ("https://evil.example", false), ("http://127.0.0.1", false),
            ("ws://evil.example", false), ("null", false),
        ] as [(String?, Bool)]
    )
    func admitsOnlyTheLabsOwnOrigin(origin: String?, admitted: Bool) {
        #expect(LabServer.isSameOrigin(request(origin: origin)) == admitted)
    }

    @Test func comparesIPv6Hosts() {
        #expect(LabServer.isSameOrigin(request(origin: "http://[::1]:8080", authority: "[::1]:8080")))
        #expect(LabServer.isSameOrigin(request(origin: "ws://[::1]", authority: "[::1]:8080")))
        #expect(!LabServer.isSameOrigin(request(origin: "http://[::2]:8080", authority: "[::1]:8080")))
    }
}
