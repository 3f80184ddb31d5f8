import Foundation
import HTTPTypes
import Testing
import TributaryLabWire
import TributaryTestSupport

@testable import TributaryLab

/// The frames of a WebSocket read as they arrive, before NIO holds them: the state machine
/// alone, the lab's budget for what unfinished frames hold, and both in a running lab.
@Suite struct WebSocketFramesTests {
    /// A client's frame: masked, with the length in the form its size needs.
    static func frame(
        opcode: UInt8 = 0x1,
        payload: [UInt8],
        masked: Bool = true,
        declared: Int? = nil,
        isFinal: Bool = true
    ) -> [UInt8] {
        let length = declared ?? payload.count
        var bytes: [UInt8] = [(isFinal ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            bytes.append(mask | UInt8(length))
        } else if length <= 0xFFFF {
            bytes += [mask | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(mask | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(length) >> (8 * UInt64($0))) & 0xFF) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    @Test func passesFramesWithinTheLimitWhateverTheReadsTheyCome() {
        var frames = WebSocketFrames(limit: 200)
        let bytes = Self.frame(payload: Array(repeating: 1, count: 150)) + Self.frame(payload: [1, 2, 3])
        #expect(frames.read(bytes) == .proceed(held: 0))
        // One byte at a time: what the frame holds grows until it is whole.
        var held: [Int] = []
        for byte in Self.frame(payload: [9, 9]) {
            guard case .proceed(let now) = frames.read([byte]) else {
                Issue.record("refused")
                return
            }
            held.append(now)
        }
        #expect(held == [1, 2, 3, 4, 5, 6, 7, 0])
    }

    @Test func refusesAFrameLargerThanTheLimitFromItsHeader() {
        var frames = WebSocketFrames(limit: 4_096)
        // Only the header and a few bytes have come: the frame is refused before its payload.
        let header = Self.frame(payload: Array(repeating: 0, count: 10), declared: 1 << 20)
        #expect(
            frames.read(header) == .refuse(code: 1009, reason: "A frame may carry at most 4096 bytes here.")
        )
        var huge = WebSocketFrames(limit: 4_096)
        let endless = Self.frame(payload: [], declared: Int.max)
        #expect(huge.read(endless).isRefused)
        var exact = WebSocketFrames(limit: 4_096)
        #expect(exact.read(Self.frame(payload: Array(repeating: 0, count: 4_096))) == .proceed(held: 0))
    }

    @Test func refusesAnUnmaskedFrameAsRFC6455Says() {
        var frames = WebSocketFrames(limit: 4_096)
        #expect(frames.read(Self.frame(payload: [1], masked: false)).isRefused)
        var again = WebSocketFrames(limit: 4_096)
        #expect(
            again.read(Self.frame(payload: [1], masked: false))
                == .refuse(code: 1002, reason: "A client's frames must be masked.")
        )
    }

    @Test func countsWhatAnUnfinishedFrameHolds() {
        var frames = WebSocketFrames(limit: 100_000)
        let whole = Self.frame(payload: Array(repeating: 7, count: 70_000))
        #expect(frames.read(whole[..<30_000]) == .proceed(held: 30_000))
        #expect(frames.read(whole[30_000...]) == .proceed(held: 0))
    }

    /// The frames of a message not yet finished stay held until its last frame has come,
    /// whatever control frames come between them.
    @Test func countsWhatAnUnfinishedMessageHolds() {
        var frames = WebSocketFrames(limit: 100_000)
        let first = Self.frame(opcode: 0x1, payload: Array(repeating: 7, count: 5_000), isFinal: false)
        #expect(frames.read(first) == .proceed(held: 5_000))
        #expect(frames.read(Self.frame(opcode: 0x9, payload: [1])) == .proceed(held: 5_000))
        let middle = Self.frame(opcode: 0x0, payload: Array(repeating: 7, count: 3_000), isFinal: false)
        #expect(frames.read(middle) == .proceed(held: 8_000))
        let last = Self.frame(opcode: 0x0, payload: [1, 2])
        #expect(frames.read(last[..<3]) == .proceed(held: 8_003))
        #expect(frames.read(last[3...]) == .proceed(held: 0))
        #expect(frames.read(Self.frame(payload: [1])) == .proceed(held: 0))
    }

    /// On a route that says what it takes, whole data frames stay held until it has taken
    /// them, control frames never, and the connection is full once as many wait as may.
    @Test func holdsDataFramesUntilTheRouteTakesThem() {
        var frames = WebSocketFrames(limit: .init(bytes: 100_000, perSecond: 1_000_000, waiting: 10_000))
        let batch = Self.frame(payload: Array(repeating: 7, count: 6_000))
        #expect(frames.read(batch) == .proceed(held: 6_000))
        #expect(!frames.isFull)
        #expect(frames.read(Self.frame(opcode: 0x9, payload: [1])) == .proceed(held: 6_000))
        #expect(frames.read(batch[..<100]) == .proceed(held: 6_100))
        #expect(!frames.isFull)
        #expect(frames.read(batch[100...]) == .proceed(held: 12_000))
        #expect(frames.isFull)
        #expect(frames.take(upTo: 6_000) == 6_000)
        #expect(!frames.isFull)
        // What was taken is said in all: an older report changes nothing, and nothing is
        // taken that has not come.
        #expect(frames.take(upTo: 3_000) == 6_000)
        #expect(frames.take(upTo: 50_000) == 0)
        #expect(frames.read(batch) == .proceed(held: 6_000))

        // A route that does not say what it takes holds nothing past a finished message.
        var untaken = WebSocketFrames(limit: 100_000)
        #expect(untaken.read(batch) == .proceed(held: 0))
        #expect(untaken.read(batch) == .proceed(held: 0))
        #expect(!untaken.isFull)
    }

    @Test func aCloseFrameKeepsItsReasonWithinAControlFramesRoom() {
        let frame = WebSocketFrames.closeFrame(code: 1009, reason: String(repeating: "é", count: 100))
        #expect(Array(frame[..<4]) == [0x88, 124, 0x03, 0xF1])
        #expect(frame.count == 4 + 122)
    }

    @Test func theBudgetShedsTheLargestHolder() {
        let memory = ClientMemory(limit: 100)
        let shed = Locked<[String]>([])
        final class Holder {}
        let (a, b, c) = (Holder(), Holder(), Holder())
        memory.hold(60, by: ObjectIdentifier(a)) { shed.withLock { $0.append("a") } }
        memory.hold(30, by: ObjectIdentifier(b)) { shed.withLock { $0.append("b") } }
        #expect(shed.current.isEmpty && memory.total == 90)
        memory.hold(20, by: ObjectIdentifier(c)) { shed.withLock { $0.append("c") } }
        #expect(shed.current == ["a"] && memory.total == 50)
        memory.hold(0, by: ObjectIdentifier(b)) {}
        memory.release(ObjectIdentifier(c))
        #expect(memory.total == 0)
    }
}

extension WebSocketFrames {
    /// Frames held to `bytes`, as many a second as the tests send.
    init(limit bytes: Int) {
        self.init(limit: Limit(bytes: bytes, perSecond: 1_000_000))
    }

    /// Reads `bytes` at the start of uptime, where time does not matter.
    mutating func read(_ bytes: some Collection<UInt8>) -> Action {
        read(bytes, at: 0)
    }
}

/// The frames' allowance per second and per message.
@Suite struct WebSocketFrameBudgetTests {
    static let second: UInt64 = 1_000_000_000
    static let ping = WebSocketFramesTests.frame(opcode: 0x9, payload: [])

    /// A connection sends a second's frames at once, then as many a second as its limit says;
    /// one more is closed with 1008, whatever kind of frame it is.
    @Test func aConnectionSendsSoManyFramesASecond() {
        var frames = WebSocketFrames(limit: .init(bytes: 1_000, perSecond: 10))
        for _ in 0..<10 { #expect(frames.read(Self.ping, at: 0) == .proceed(held: 0)) }
        #expect(
            frames.read(Self.ping, at: Self.second / 100)
                == .refuse(code: 1008, reason: "Too many frames: at most 10 a second here.")
        )
        var paced = WebSocketFrames(limit: .init(bytes: 1_000, perSecond: 10))
        for _ in 0..<10 { _ = paced.read(Self.ping, at: 0) }
        // Half a second gives five back, and no more than a second's worth ever waits.
        for _ in 0..<5 { #expect(paced.read(Self.ping, at: Self.second / 2) == .proceed(held: 0)) }
        #expect(paced.read(Self.ping, at: Self.second / 2).isRefused)
        var rested = WebSocketFrames(limit: .init(bytes: 1_000, perSecond: 10))
        _ = rested.read(Self.ping, at: 0)
        let many = (0..<11).map { _ in rested.read(Self.ping, at: 100 * Self.second) }
        #expect(many.filter(\.isRefused).count == 1)
    }

    /// Frames sent before the route set the limit, with the handshake, count against it.
    @Test func framesSentWithTheHandshakeAreOwed() {
        var frames = WebSocketFrames(limit: nil)
        for _ in 0..<12 { #expect(frames.read(Self.ping, at: 0) == .proceed(held: 0)) }
        #expect(frames.settle(limit: .init(bytes: 1_000, perSecond: 10)).isRefused)
        var few = WebSocketFrames(limit: nil)
        for _ in 0..<4 { _ = few.read(Self.ping, at: 0) }
        #expect(few.settle(limit: .init(bytes: 1_000, perSecond: 10)) == .proceed(held: 0))
        for _ in 0..<6 { #expect(few.read(Self.ping, at: 0) == .proceed(held: 0)) }
        #expect(few.read(Self.ping, at: 0).isRefused)
    }

    /// A message cut into more frames than its limit allows is closed with 1009, empty
    /// fragments too; pings between fragments are not fragments, and a new message counts
    /// from one.
    @Test func aMessageComesInSoManyFrames() {
        let limit = WebSocketFrames.Limit(bytes: 4_096, perSecond: 1_000_000)
        #expect(limit.fragments == 16)
        #expect(WebSocketFrames.Limit(bytes: 4 << 20, perSecond: 1).fragments == 1_024)
        var start = WebSocketFramesTests.frame(payload: [])
        start[0] = 0x01
        var middle = WebSocketFramesTests.frame(payload: [])
        middle[0] = 0x00
        let last = WebSocketFramesTests.frame(opcode: 0x0, payload: [1])
        var frames = WebSocketFrames(limit: limit)
        for round in 0..<3 {
            #expect(frames.read(start, at: 0) == .proceed(held: 0))
            for _ in 0..<14 {
                #expect(frames.read(middle + Self.ping, at: 0) == .proceed(held: 0), "round \(round)")
            }
            #expect(frames.read(last, at: 0) == .proceed(held: 0))
        }
        #expect(frames.read(start, at: 0) == .proceed(held: 0))
        for _ in 0..<15 { _ = frames.read(middle, at: 0) }
        #expect(
            frames.read(middle, at: 0)
                == .refuse(code: 1009, reason: "A message may come in at most 16 frames here.")
        )
        var early = WebSocketFrames(limit: nil)
        _ = early.read(start + Array(repeating: middle, count: 20).flatMap { $0 }, at: 0)
        #expect(early.settle(limit: limit).isRefused)
    }
}

/// The frames a second one block of addresses may send over all its connections.
@Suite struct BlockFrameAllowanceTests {
    @Test func aBlockSendsSoManyFramesASecondOverAllItsConnections() {
        let count = ConnectionGuard.Count(maximum: 100, framesPerBlock: 100)
        let second: UInt64 = 1_000_000_000
        #expect(count.spend(60, from: "10.0.0", at: 0))
        #expect(count.spend(40, from: "10.0.0", at: 0))
        #expect(!count.spend(1, from: "10.0.0", at: 0))
        // Another block has its own; and time gives back what was spent.
        #expect(count.spend(100, from: "10.0.1", at: 0))
        #expect(count.spend(50, from: "10.0.0", at: second / 2))
        #expect(!count.spend(1, from: "10.0.0", at: second / 2))
        #expect(count.spend(100, from: "10.0.0", at: 10 * second))
        #expect(!count.spend(1, from: "10.0.0", at: 10 * second))
    }
}

extension WebSocketFrames.Action {
    var isRefused: Bool {
        if case .refuse = self { return true }
        return false
    }
}

/// The same, against a lab on loopback, over raw sockets.
@Suite(.timeLimit(.minutes(5)))
struct WebSocketLimitTests {
    /// Opens `path` as a WebSocket, with the token or without, and waits for the `101`.
    static func open(_ path: String, port: Int, token: String?) async throws -> RawConnection {
        let connection = try RawConnection(port: port)
        connection.send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n"
        )
        let head = await connection.readBytes(timeout: .seconds(10)) { bytes in
            String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n")
        }
        try #require(String(decoding: head.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 101"))
        return connection
    }

    /// The close code of the close frame among `bytes`, if one came.
    static func closeCode(in bytes: [UInt8]) -> UInt16? {
        guard let start = bytes.firstIndex(of: 0x88), bytes.count >= start + 4 else { return nil }
        return UInt16(bytes[start + 2]) << 8 | UInt16(bytes[start + 3])
    }

    static func document(_ lab: LabConnection) async throws -> String {
        let created = try await lab.send(
            .post,
            "/api/streams",
            body: TributaryLabTests.document(named: "watched")
        )
        return try #require(created.json["id"] as? String)
    }

    @Test func anAnonymousViewersLargeFrameIsRefusedBeforeItsPayloadArrives() async throws {
        try await withLab { lab in
            let id = try await Self.document(lab)
            let port = lab.base.port ?? 0
            let viewer = try await Self.open("/api/streams/\(id)/live", port: port, token: nil)
            viewer.send(
                bytes: WebSocketFramesTests.frame(
                    payload: Array(repeating: 0x20, count: 100),
                    declared: 1 << 20
                )
            )
            let answer = await viewer.readBytes(timeout: .seconds(10)) { Self.closeCode(in: $0) != nil }
            #expect(Self.closeCode(in: answer.bytes) == 1009)
            #expect(await viewer.readBytes(timeout: .seconds(10)).closed)
            #expect(try await lab.send(.get, "/api/health").status == 200)
        }
    }

    /// A frame sent in the handshake's own packet, before the route has said how large a frame
    /// may be, is judged once it has: a viewer cannot slip a 4 MiB frame past the limit so.
    @Test func aLargeFrameSentWithTheHandshakeIsRefused() async throws {
        try await withLab { lab in
            let id = try await Self.document(lab)
            let port = lab.base.port ?? 0
            let viewer = try RawConnection(port: port)
            let head =
                "GET /api/streams/\(id)/live HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            viewer.send(
                bytes: Array(head.utf8)
                    + WebSocketFramesTests.frame(
                        payload: Array(repeating: 0x20, count: 1_000),
                        declared: 4 << 20
                    )
            )
            // Whatever it sends next, the connection ends, and the lab serves on.
            viewer.send(bytes: WebSocketFramesTests.frame(payload: Array(repeating: 0x20, count: 4_000)))
            #expect(await viewer.readBytes(timeout: .seconds(30)).closed)
            #expect(try await lab.send(.get, "/api/health").status == 200)
        }
    }

    @Test func thePulseTakesNoFrameLargerThanAControlFramesRoom() async throws {
        try await withLab { lab in
            let pulse = try await Self.open("/api/pulse", port: lab.base.port ?? 0, token: nil)
            pulse.send(bytes: WebSocketFramesTests.frame(payload: Array(repeating: 0x20, count: 126)))
            let answer = await pulse.readBytes(timeout: .seconds(10)) { Self.closeCode(in: $0) != nil }
            #expect(Self.closeCode(in: answer.bytes) == 1009)
            #expect(try await lab.send(.get, "/api/health").status == 200)
        }
    }

    @Test func anUnmaskedFrameIsClosedWith1002() async throws {
        try await withLab { lab in
            let id = try await Self.document(lab)
            let viewer = try await Self.open("/api/streams/\(id)/live", port: lab.base.port ?? 0, token: nil)
            viewer.send(
                bytes: WebSocketFramesTests.frame(
                    payload: Array(#"{"type":"resume","version":0}"#.utf8),
                    masked: false
                )
            )
            let answer = await viewer.readBytes(timeout: .seconds(10)) { Self.closeCode(in: $0) != nil }
            #expect(Self.closeCode(in: answer.bytes) == 1002)
        }
    }

    /// Text that is not UTF-8 is closed with 1007, and a message past the limit sent in
    /// fragments each within it with 1009, as RFC 6455 says, not as a normal close.
    @Test func brokenTextAndFragmentedMessagesPastTheLimitAreClosedWithTheirCodes() async throws {
        try await withLab { lab in
            let id = try await Self.document(lab)
            let port = lab.base.port ?? 0
            let writer = try await Self.open("/api/streams/\(id)/live", port: port, token: lab.token)
            writer.send(bytes: WebSocketFramesTests.frame(payload: [0x22, 0xC3, 0x28, 0x22]))
            let broken = await writer.readBytes(timeout: .seconds(60)) { Self.closeCode(in: $0) != nil }
            #expect(Self.closeCode(in: broken.bytes) == 1007)
            let viewer = try await Self.open("/api/streams/\(id)/live", port: port, token: nil)
            let half = Array(repeating: UInt8(ascii: "x"), count: 3_000)
            var first = WebSocketFramesTests.frame(payload: half)
            first[0] = 0x01  // a text frame that is not the message's last
            var rest = WebSocketFramesTests.frame(payload: half)
            rest[0] = 0x80  // the last fragment, a continuation
            viewer.send(bytes: first + rest)
            let large = await viewer.readBytes(timeout: .seconds(10)) { Self.closeCode(in: $0) != nil }
            #expect(Self.closeCode(in: large.bytes) == 1009)
        }
    }

    /// A viewer with the token may send a large frame; its name, however long, is kept to 256
    /// bytes in what every viewer is told.
    @Test func aWriterSendsLargeFramesAndANameIsBoundedInBytes() async throws {
        try await withLab { lab in
            let id = try await Self.document(lab)
            let port = lab.base.port ?? 0
            let watcher = try await Self.open("/api/streams/\(id)/live", port: port, token: nil)
            let writer = try await Self.open("/api/streams/\(id)/live", port: port, token: lab.token)
            let name = "a" + String(repeating: "\u{301}", count: 50_000)
            writer.send(
                bytes: WebSocketFramesTests.frame(payload: Array(#"{"type":"hello","name":"\#(name)"}"#.utf8))
            )
            let told = await watcher.readBytes(timeout: .seconds(10)) { bytes in
                String(decoding: bytes, as: UTF8.self).contains("\u{301}\"")
            }
            let text = String(decoding: told.bytes, as: UTF8.self).utf8
            let names = Array("\"names\":[\"".utf8)
            let start = try #require(
                text.indices.first { text[$0...].starts(with: names) }
            )
            let shown = text[text.index(start, offsetBy: names.count)...].prefix { $0 != UInt8(ascii: "\"") }
            #expect(shown.count <= 256 && shown.count > 200)
            #expect(!told.closed)
        }
    }

    /// Unfinished frames count against one budget for the lab: past it, the connection holding
    /// the most is closed, and the others go on.
    @Test func unfinishedFramesPastTheLabsBudgetCloseTheLargestHolder() async throws {
        try await Self.expectLargestHolderClosed { hello in
            Array(WebSocketFramesTests.frame(payload: hello)[..<120_000])
        }
    }

    /// A message sent in whole frames but never finished is held as an unfinished frame is,
    /// and counts against the same budget.
    @Test func unfinishedMessagesPastTheLabsBudgetCloseTheLargestHolder() async throws {
        try await Self.expectLargestHolderClosed { hello in
            WebSocketFramesTests.frame(payload: Array(hello[..<60_000]), isFinal: false)
                + WebSocketFramesTests.frame(
                    opcode: 0x0,
                    payload: Array(hello[60_000..<120_000]),
                    isFinal: false
                )
        }
    }

    /// In a lab whose clients may hold 200,000 bytes: one connection sends what `largest` makes
    /// of a 150 KB message, two others 60,000 bytes of it in one unfinished frame each. The
    /// first is closed; the others finish their message and are answered.
    static func expectLargestHolderClosed(_ largest: @Sendable ([UInt8]) -> [UInt8]) async throws {
        var configuration = LabConfiguration()
        configuration.clientMemoryBytes = 200_000
        try await withLab(configuration: configuration) { lab in
            let id = try await Self.document(lab)
            let port = lab.base.port ?? 0
            let hello = Array(#"{"type":"hello","name":"\#(String(repeating: "b", count: 149_970))"}"#.utf8)
            let holder = try await Self.open("/api/streams/\(id)/live", port: port, token: lab.token)
            holder.send(bytes: largest(hello))
            let whole = WebSocketFramesTests.frame(payload: hello)
            let others = [
                try await Self.open("/api/streams/\(id)/live", port: port, token: lab.token),
                try await Self.open("/api/streams/\(id)/live", port: port, token: lab.token),
            ]
            for other in others { other.send(bytes: Array(whole[..<60_000])) }
            #expect(await holder.readBytes(timeout: .seconds(20)).closed)
            for other in others {
                other.send(bytes: Array(whole[60_000...]))
                let told = await other.readBytes(timeout: .seconds(10)) { bytes in
                    String(decoding: bytes, as: UTF8.self).contains("bbbb")
                }
                #expect(!told.closed)
            }
        }
    }

    /// An anonymous viewer that pings as fast as it can is closed with 1008 once past its
    /// frames a second, and the lab answers on. Still flooding, it reads the close frame that
    /// says why, then an orderly end: the lab drops what still comes rather than closing with
    /// it unread, which would reset the connection and could lose the close frame.
    @Test func aPingFloodIsClosed() async throws {
        try await withLab { lab in
            let id = try await Self.document(lab)
            let viewer = try await Self.open("/api/streams/\(id)/live", port: lab.base.port ?? 0, token: nil)
            let pings = Array(repeating: WebSocketFrameBudgetTests.ping, count: 100_000).flatMap { $0 }
            viewer.send(bytes: pings)
            let answer = await viewer.readBytes(timeout: .seconds(30))
            #expect(Self.closeCode(in: answer.bytes) == 1008)
            #expect(answer.closed, "the connection was reset")
            #expect(try await lab.send(.get, "/api/health").status == 200)
        }
    }

    /// Many viewers from one block, each within its own frames a second, are held to the
    /// block's together: the one that sends past it is closed with 1008.
    @Test func viewersOfOneBlockShareAnAllowance() async throws {
        var configuration = LabConfiguration()
        configuration.maximumFramesPerSecondPerAddress = 100
        try await withLab(configuration: configuration) { lab in
            let id = try await Self.document(lab)
            let port = lab.base.port ?? 0
            var viewers: [RawConnection] = []
            for _ in 0..<5 {
                viewers.append(try await Self.open("/api/streams/\(id)/live", port: port, token: nil))
            }
            // All opened first, then all sending at once, however long the handshakes took.
            let pings = Array(repeating: WebSocketFrameBudgetTests.ping, count: 45).flatMap { $0 }
            for viewer in viewers { viewer.send(bytes: pings) }
            // 225 frames in all, each connection's 45 within its own 50: past the block's 100,
            // some connection is closed for it.
            var reasons: [String] = []
            for viewer in viewers.reversed() {
                let answer = await viewer.readBytes(timeout: .seconds(20)) { Self.closeCode(in: $0) != nil }
                if Self.closeCode(in: answer.bytes) == 1008 {
                    reasons.append(String(decoding: answer.bytes, as: UTF8.self))
                    break
                }
            }
            #expect(
                !reasons.isEmpty && reasons.allSatisfy { $0.contains("from your addresses") },
                "\(reasons)"
            )
            #expect(try await lab.send(.get, "/api/health").status == 200)
        }
    }

    /// Text nested far deeper than any document is refused before it is decoded, on the socket
    /// and through the API alike.
    @Test func deeplyNestedJSONIsRefusedBeforeItIsDecoded() async throws {
        try await withLab { lab in
            let id = try await Self.document(lab)
            let nested = String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000)
            let body = #"{"schemaVersion":1,"streams":[{"id":"a","items":[{"value":\#(nested)}]}]}"#
            let refused = try await lab.send(.post, "/api/streams", body: Data(body.utf8))
            #expect(refused.status == 400 && refused.errorCode == "tooDeep")
            let utf16 = try await lab.send(
                .post,
                "/api/streams",
                body: Data(body.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            )
            #expect(utf16.status == 400 && utf16.errorCode == "notUTF8")
            let writer = try await Self.open(
                "/api/streams/\(id)/live",
                port: lab.base.port ?? 0,
                token: lab.token
            )
            writer.send(
                bytes: WebSocketFramesTests.frame(
                    payload: Array(#"{"type":"save","baseVersion":1,"document":\#(body)}"#.utf8)
                )
            )
            let answer = await writer.readBytes(timeout: .seconds(10)) { bytes in
                String(decoding: bytes, as: UTF8.self).contains("malformedJSON")
            }
            #expect(String(decoding: answer.bytes, as: UTF8.self).contains("malformedJSON"))
            #expect(try await lab.send(.get, "/api/health").status == 200)
        }
    }
}

/// The connection limit kept below the descriptors the process may open.
@Suite struct DescriptorLimitTests {
    @Test func keepsTheConnectionLimitBelowTheDescriptorsWithAReserve() {
        #expect(DescriptorLimit.connections(configured: 4_096, descriptors: 1_024) == 896)
        #expect(DescriptorLimit.connections(configured: 4_096, descriptors: 65_536) == 4_096)
        #expect(DescriptorLimit.connections(configured: 4_096, descriptors: 8_192) == 4_096)
        #expect(DescriptorLimit.connections(configured: 4_096, descriptors: 4_096) == 3_584)
        #expect(DescriptorLimit.connections(configured: 4_096, descriptors: 100) == 1)
        #expect(DescriptorLimit.connections(configured: 4_096, descriptors: .max) == 4_096)
    }

    /// The soft limit is raised to the hard one, and stays within it.
    @Test func raisesTheSoftLimitToTheHardOne() {
        let limit = DescriptorLimit.raise()
        #expect(limit >= 1_024)
        #expect(DescriptorLimit.raise() == limit)
    }
}
