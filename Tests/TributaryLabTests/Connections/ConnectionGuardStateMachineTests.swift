import NIOCore
import Testing

@testable import TributaryLab

/// The rules ``ConnectionGuard`` keeps, event by event, without a connection.
@Suite struct ConnectionGuardStateMachineTests {
    typealias Machine = ConnectionGuard.StateMachine

    /// A client frame's header: final, text, masked unless said, declaring `length`.
    static func frameHeader(length: Int, masked: Bool = true) -> ByteBuffer {
        ByteBuffer(bytes: WebSocketFramesTests.frame(payload: [], masked: masked, declared: length))
    }

    /// A connection without room is answered once, whichever comes first: its bytes or its
    /// moment; what it sends is never read.
    @Test func turnsAwayAConnectionWithoutRoomOnce() {
        var byBytes = Machine(hasRoom: false)
        #expect(!byBytes.hasRoom)
        #expect(byBytes.read(ByteBuffer(string: "GET / HTTP/1.1\r\n\r\n")) == .turnAway)
        #expect(byBytes.read(ByteBuffer(string: "GET / HTTP/1.1\r\n\r\n")) == .drop)
        let answeredAgain = byBytes.turnAwayTimeReached()
        #expect(!answeredAgain)

        var byTime = Machine(hasRoom: false)
        let first = byTime.turnAwayTimeReached()
        let second = byTime.turnAwayTimeReached()
        #expect(first && !second)
        #expect(byTime.read(ByteBuffer(string: "GET")) == .drop)
    }

    /// The head's timer ends a connection only while its first head is unfinished, however the
    /// head is cut into reads; empty lines before it end nothing.
    @Test func knowsWhenTheFirstHeadHasArrived() {
        var machine = Machine(hasRoom: true)
        #expect(machine.hasRoom && machine.headTimeReached())
        #expect(machine.read(ByteBuffer(string: "\r\n\r\n")) == .forward(holding: nil, headArrived: false))
        #expect(
            machine.read(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: a\r"))
                == .forward(holding: nil, headArrived: false)
        )
        #expect(machine.headTimeReached())
        #expect(machine.read(ByteBuffer(string: "\n\r")) == .forward(holding: nil, headArrived: false))
        #expect(machine.read(ByteBuffer(string: "\n")) == .forward(holding: nil, headArrived: true))
        #expect(!machine.headTimeReached())
        // Later heads are Hummingbird's idle timeout's.
        #expect(
            machine.read(ByteBuffer(string: "GET / HTTP/1.1\r\n\r\n"))
                == .forward(holding: nil, headArrived: false)
        )
    }

    @Test func aLoneCarriageReturnDoesNotEndAHead() {
        var machine = Machine(hasRoom: true)
        #expect(
            machine.read(ByteBuffer(string: "GET / HTTP/1.1\r\r\n\r\r\n"))
                == .forward(holding: nil, headArrived: false)
        )
        #expect(machine.read(ByteBuffer(string: "\r\n")) == .forward(holding: nil, headArrived: true))
    }

    /// Once a route has set the frames' limit, what an unfinished frame holds is reported, and
    /// a frame past the limit or unmasked is refused from its header, before its payload.
    @Test func readsWebSocketFramesAgainstTheirLimit() {
        var machine = Machine(hasRoom: true)
        _ = machine.read(ByteBuffer(string: "GET /api/pulse HTTP/1.1\r\n\r\n"))
        #expect(machine.limitFrames(to: 1_000) == .forward(holding: 0, headArrived: false))
        #expect(machine.read(Self.frameHeader(length: 100)) == .forward(holding: 6, headArrived: false))
        #expect(
            machine.read(ByteBuffer(repeating: 0x61, count: 60)) == .forward(holding: 66, headArrived: false)
        )
        #expect(
            machine.read(ByteBuffer(repeating: 0x61, count: 40)) == .forward(holding: 0, headArrived: false)
        )
        guard case .refuse(let code, _) = machine.read(Self.frameHeader(length: 4 << 20)) else {
            Issue.record("a frame past the limit was read")
            return
        }
        #expect(code == 1009)
        #expect(machine.read(ByteBuffer(repeating: 0x61, count: 10)) == .drop)
        // What still comes is dropped, up to a limit past which the connection is closed.
        #expect(machine.read(ByteBuffer(repeating: 0x61, count: Machine.mostLingered - 10)) == .drop)
        #expect(machine.read(ByteBuffer(repeating: 0x61, count: 1)) == .close)

        var unmasked = Machine(hasRoom: true)
        _ = unmasked.read(ByteBuffer(string: "GET /api/pulse HTTP/1.1\r\n\r\n"))
        _ = unmasked.limitFrames(to: 1_000)
        guard case .refuse(let unmaskedCode, _) = unmasked.read(Self.frameHeader(length: 5, masked: false))
        else {
            Issue.record("an unmasked frame was read")
            return
        }
        #expect(unmaskedCode == 1002)
    }

    /// A route that says what it takes stops the connection's reading while as many bytes of
    /// data frames wait for it as it allows, until it has taken some.
    @Test func stopsReadingWhileTheRoutesFramesWait() {
        var machine = Machine(hasRoom: true)
        _ = machine.read(ByteBuffer(string: "GET /api/recordings/r/ingest HTTP/1.1\r\n\r\n"))
        let limit = WebSocketFrames.Limit(bytes: 1_000, perSecond: 1_000_000, waiting: 1_500)
        #expect(machine.limitFrames(to: limit) == .forward(holding: 0, headArrived: false))
        var frame = Self.frameHeader(length: 800)
        frame.writeRepeatingByte(0x61, count: 800)
        #expect(machine.read(frame) == .forward(holding: 800, headArrived: false))
        #expect(!machine.isFull)
        #expect(machine.read(frame) == .forward(holding: 1_600, headArrived: false))
        #expect(machine.isFull)
        #expect(machine.took(800) == .forward(holding: 800, headArrived: false))
        #expect(!machine.isFull)
        #expect(machine.took(1_600) == .forward(holding: 0, headArrived: false))

        // Once its frames are refused, what still comes is read to be dropped.
        _ = machine.read(frame)
        _ = machine.read(frame)
        #expect(machine.isFull)
        machine.refuseFrames()
        #expect(!machine.isFull)

        // Before the head, or once closing, what a route says it took changes nothing.
        var early = Machine(hasRoom: true)
        #expect(early.took(100) == .drop)
        #expect(!early.isFull)
    }

    /// Frames sent in the head's own packet, before the route has set their limit, are read in
    /// step from the byte after the head, and judged once the limit is known: a 4 MiB frame
    /// begun there is refused, and what looks like small frames inside it is not taken for them.
    @Test func judgesTheFramesSentWithTheHeadOnceTheLimitIsKnown() {
        let head = "GET /api/streams/x/live HTTP/1.1\r\nUpgrade: websocket\r\n\r\n"
        var large = Machine(hasRoom: true)
        var packet = ByteBuffer(string: head)
        packet.writeImmutableBuffer(Self.frameHeader(length: 4 << 20))
        #expect(large.read(packet) == .forward(holding: nil, headArrived: true))
        // A payload made to look like frames of 4,080 bytes each.
        for _ in 0..<8 {
            #expect(large.read(Self.frameHeader(length: 4_080)) == .forward(holding: nil, headArrived: false))
            #expect(
                large.read(ByteBuffer(repeating: 0, count: 4_080))
                    == .forward(holding: nil, headArrived: false)
            )
        }
        guard case .refuse(let code, _) = large.limitFrames(to: 4_096) else {
            Issue.record("a 4 MiB frame sent with the head was let through")
            return
        }
        #expect(code == 1009)
        #expect(large.read(ByteBuffer(repeating: 0, count: 100)) == .drop)

        var unmasked = Machine(hasRoom: true)
        var early = ByteBuffer(string: head)
        early.writeImmutableBuffer(Self.frameHeader(length: 5, masked: false))
        _ = unmasked.read(early)
        guard case .refuse(let unmaskedCode, _) = unmasked.limitFrames(to: 4_096) else {
            Issue.record("an unmasked frame sent with the head was let through")
            return
        }
        #expect(unmaskedCode == 1002)

        // Frames within the limit, sent early, are counted from the limit on.
        var small = Machine(hasRoom: true)
        var fine = ByteBuffer(string: head)
        fine.writeImmutableBuffer(Self.frameHeader(length: 100))
        _ = small.read(fine)
        #expect(small.limitFrames(to: 4_096) == .forward(holding: 6, headArrived: false))
        #expect(small.read(ByteBuffer(repeating: 0, count: 100)) == .forward(holding: 0, headArrived: false))

        // What follows the head of a request that is no upgrade is never counted as frames.
        var plain = Machine(hasRoom: true)
        var post = ByteBuffer(string: "POST /api/run HTTP/1.1\r\nContent-Length: 5\r\n\r\n")
        post.writeString("{\"a\":")
        #expect(plain.read(post) == .forward(holding: nil, headArrived: true))
        #expect(
            plain.read(ByteBuffer(repeating: 0xFF, count: 1_000))
                == .forward(holding: nil, headArrived: false)
        )
    }
}

extension ConnectionGuard.StateMachine {
    /// Reads `bytes` at the start of uptime, where time does not matter.
    mutating func read(_ bytes: ByteBuffer) -> ReadAction {
        read(bytes, at: 0)
    }

    /// Frames held to `bytes`, as many a second as the tests send.
    mutating func limitFrames(to bytes: Int) -> ReadAction {
        limitFrames(to: .init(bytes: bytes, perSecond: 1_000_000))
    }
}

/// When the guard ends a connection whose client does not read its answers.
@Suite struct ConnectionGuardWriteTests {
    typealias Machine = ConnectionGuard.StateMachine

    /// Nothing waiting is never a stall; bytes waiting are watched, and a stall is a whole
    /// check without any of them going out, however many more were written meanwhile.
    @Test func endsOnlyAConnectionWhoseAnswersDoNotMove() {
        var machine = Machine(hasRoom: true)
        #expect(machine.checkWrites(buffered: 0) == .idle)
        machine.wrote(100_000)
        #expect(machine.checkWrites(buffered: 60_000) == .watch)
        // 10,000 went out: still moving.
        #expect(machine.checkWrites(buffered: 50_000) == .watch)
        // More written, and none of the waiting bytes went.
        machine.wrote(30_000)
        #expect(machine.checkWrites(buffered: 80_000) == .stalled)

        var slow = Machine(hasRoom: true)
        slow.wrote(1_000)
        #expect(slow.checkWrites(buffered: 1_000) == .watch)
        #expect(slow.checkWrites(buffered: 999) == .watch)
        #expect(slow.checkWrites(buffered: 0) == .idle)
        // Waiting again later starts a new watch, not a stall measured from the old one.
        slow.wrote(500)
        #expect(slow.checkWrites(buffered: 500) == .watch)
        #expect(slow.checkWrites(buffered: 500) == .stalled)
    }
}
