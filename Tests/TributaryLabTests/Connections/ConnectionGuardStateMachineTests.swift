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
        machine.limitFrames(to: 1_000)
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

        var unmasked = Machine(hasRoom: true)
        _ = unmasked.read(ByteBuffer(string: "GET /api/pulse HTTP/1.1\r\n\r\n"))
        unmasked.limitFrames(to: 1_000)
        guard case .refuse(let unmaskedCode, _) = unmasked.read(Self.frameHeader(length: 5, masked: false))
        else {
            Issue.record("an unmasked frame was read")
            return
        }
        #expect(unmaskedCode == 1002)
    }
}
