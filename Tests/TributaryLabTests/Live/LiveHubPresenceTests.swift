import Foundation
import NIOCore
import Testing
import TributaryLabWire
import TributaryStreams
import TributaryTestSupport

@testable import TributaryLab

/// What presence costs the viewers of a document: told after joins and renames, never more
/// bytes a second than the hub allows, and not at all for a name given again.
@Suite(.timeLimit(.minutes(2)))
struct LiveHubPresenceTests {
    static func shown(in hub: LiveHub, viewers: Int) throws -> (DocumentID, [Int], [HubInbox]) {
        let id = DocumentID.random()
        let document = try JSONDecoder().decode(
            StreamDocument.self,
            from: TributaryLabTests.document(named: "p")
        )
        let stored = SharedDocument(id: id, version: 1, updatedAt: Date(), author: "a", document: document)
        let inboxes = (0..<viewers).map { _ in HubInbox() }
        let numbers = inboxes.map { hub.join(id, $0.viewer) }
        for number in numbers { hub.show(stored, to: number) }
        return (id, numbers, inboxes)
    }

    /// Ten viewers with long names, one renaming every 20 ms: the others are told at the pace
    /// the hub's bytes a second allow, about once a second here, not every 50 ms.
    @Test func renamesAreToldNoFasterThanTheirBytesAllow() async throws {
        let hub = LiveHub(presenceBytesPerSecond: 20_000)
        let (id, numbers, inboxes) = try Self.shown(in: hub, viewers: 10)
        for (index, number) in numbers.enumerated() {
            hub.name("viewer \(index) " + String(repeating: "n", count: 200), viewer: number, of: id)
        }
        let start = ContinuousClock.now
        for round in 0..<50 {
            hub.name("renamed \(round)", viewer: numbers[0], of: id)
            try await Task.sleep(for: .milliseconds(20))
        }
        hub.name("final", viewer: numbers[0], of: id)
        try await waitUntil { inboxes[1].presence.contains { $0.contains(#""final""#) } }
        let elapsed = ContinuousClock.now - start
        let told = inboxes[1].presence.count
        // About 22 KB to all ten each time: a second apart at least, after the first.
        let allowed = Int(elapsed / .seconds(1)) + 3
        #expect(told <= allowed, "\(told) presence messages in \(elapsed)")
        #expect(told >= 2)
    }

    /// A name given again changes nothing, and nobody is told of it.
    @Test func aNameGivenAgainIsNotAnnounced() async throws {
        let hub = LiveHub()
        let (id, numbers, inboxes) = try Self.shown(in: hub, viewers: 2)
        hub.name("ada", viewer: numbers[0], of: id)
        try await waitUntil { inboxes[1].presence.contains { $0.contains(#""ada""#) } }
        let before = inboxes[1].presence.count
        for _ in 0..<20 { hub.name("ada", viewer: numbers[0], of: id) }
        hub.name("grace", viewer: numbers[1], of: id)
        try await waitUntil { inboxes[1].presence.contains { $0.contains(#""grace""#) } }
        #expect(inboxes[1].presence.count == before + 1)
    }

    @Test func theCooldownGrowsWithWhatAnAnnouncementCosts() {
        #expect(LiveHub.presenceCooldown(cost: 100, bytesPerSecond: 4 << 20) == .zero)
        #expect(LiveHub.presenceCooldown(cost: 4 << 20, bytesPerSecond: 4 << 20) == .milliseconds(950))
        #expect(LiveHub.presenceCooldown(cost: 16 << 20, bytesPerSecond: 4 << 20) == .milliseconds(3_950))
    }
}
