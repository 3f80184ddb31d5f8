import Foundation
import HTTPTypes
import Hummingbird
import Testing
import TributaryLabWire

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
        #expect(isOwn(origin, request(origin: origin)) == admitted)
    }

    @Test func comparesIPv6Hosts() {
        for (origin, admitted) in [
            ("http://[::1]:8080", true), ("ws://[::1]", true), ("http://[::2]:8080", false),
        ] {
            #expect(isOwn(origin, request(origin: origin, authority: "[::1]:8080")) == admitted)
        }
    }

    func isOwn(_ origin: String?, _ request: Request, _ configuration: LabConfiguration = .init()) -> Bool {
        guard let origin else { return true }
        return LabAuthenticator.isOwnOrigin(origin, of: request, configuration)
    }

    /// Behind a proxy the pages come from the public URL, whose origin has no port of its own.
    @Test func admitsThePublicURLsOrigin() {
        var configuration = LabConfiguration()
        configuration.publicURL = URL(string: "https://lab.example")
        let proxied = request(origin: "https://lab.example", authority: "lab.example")
        #expect(isOwn("https://lab.example", proxied, configuration))
        #expect(!isOwn("https://lab.example", proxied))
        #expect(!isOwn("http://lab.example:8443", proxied, configuration))
        #expect(!isOwn("https://evil.example", proxied, configuration))
    }

    /// The names the lab answers to: its addresses, `localhost`, and the names it was given.
    @Test(
        arguments: [
            ("127.0.0.1", true), ("10.0.0.255", true), ("0.0.0.0", true), ("::1", true), ("[::1]", true),
            ("localhost", true), ("LocalHost", true), ("app.localhost", true), ("lab.example", true),
            ("256.0.0.1", false), ("1.2.3", false), ("1.2.3.4.5", false), ("1..2.3", false),
            ("1.2.3.", false),
            ("1234.1.1.1", false), ("127.0.0.1.evil.example", false), ("evil.example", false), ("", false),
        ]
    )
    func knowsItsOwnNames(name: String, own: Bool) {
        var configuration = LabConfiguration()
        configuration.publicURL = URL(string: "https://lab.example")
        #expect(configuration.isOwnName(name) == own)
    }
}

/// The blocks of addresses that the per-caller limits count as one caller.
@Suite struct AddressBlockTests {
    @Test func groupsAddressesIntoTheBlocksOnePartyHolds() {
        #expect(AddressBlock.of("203.0.113.7") == "203.0.113.0/24")
        #expect(AddressBlock.of("203.0.113.250") == AddressBlock.of("203.0.113.7"))
        #expect(AddressBlock.of("203.0.114.7") != AddressBlock.of("203.0.113.7"))
        #expect(AddressBlock.of("::ffff:203.0.113.9") == "203.0.113.0/24")
        #expect(AddressBlock.of("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(AddressBlock.of("2001:db8:1:2:ffff::9") == AddressBlock.of("2001:db8:1:2:aaaa::1"))
        #expect(AddressBlock.of("unknown") == "unknown")
    }
}
