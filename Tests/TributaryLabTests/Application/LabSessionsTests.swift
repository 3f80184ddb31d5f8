import Foundation
import Testing
import TributaryLabWire
import TributaryTestSupport

@testable import TributaryLab

/// Sessions signed with a key drawn from the token: valid across a restart with the same token,
/// never with another, never once expired, never when changed.
struct LabSessionsTests {
    @Test func acceptsOnlyUnexpiredSessionsItsTokenSigned() {
        let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let sessions = LabSessions(token: "token-0123456789abcdef", lifetime: .seconds(60)) {
            clock.withLock { $0 }
        }
        let session = sessions.open()
        #expect(!session.contains("token-0123456789abcdef"))
        #expect(sessions.contains(session))
        // The same token after a restart.
        #expect(LabSessions(token: "token-0123456789abcdef") { clock.withLock { $0 } }.contains(session))
        #expect(!LabSessions(token: "another-token-0123456789").contains(session))
        // Any part changed is no session: the expiry, the nonce, the signature.
        let parts = session.split(separator: ".").map(String.init)
        #expect(!sessions.contains("\(Int(parts[0])! + 1_000).\(parts[1]).\(parts[2])"))
        #expect(!sessions.contains("\(parts[0]).\(parts[1].reversed()).\(parts[2])"))
        #expect(!sessions.contains("\(parts[0]).\(parts[1]).\(parts[2].dropLast())"))
        #expect(!sessions.contains(""))
        #expect(!sessions.contains(String(repeating: "a.", count: 100)))
        clock.withLock { $0 += 61 }
        #expect(!sessions.contains(session))
    }
}
