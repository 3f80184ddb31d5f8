import NIOCore

extension ConnectionGuard {
    /// What ``ConnectionGuard`` decides, without a channel: whether a connection found room,
    /// when its first head has arrived, and what its WebSocket frames may be. Each event returns
    /// the action the handler performs. Tested alone (`ConnectionGuardStateMachineTests`).
    struct StateMachine {
        private enum State: Equatable {
            /// Counted in; waiting for the first head's end, within the head timeout.
            case awaitingHead
            /// The first head is in: Hummingbird's idle timeout takes over.
            case reading
            /// A WebSocket frame broke a rule; the connection is closing. What still comes is
            /// dropped, `lingered` bytes of it so far.
            case refusedFrame(lingered: Int)
            /// No room: answered `503` once, when its request comes or a moment after it opened.
            case turningAway
            /// Answered `503`; nothing more is read.
            case turnedAway
        }

        /// How much a refused WebSocket client may still send, dropped, before its connection
        /// is closed: closing with bytes unread resets the connection, and the client loses the
        /// close frame that said why. Reading and dropping costs the lab little, and the time
        /// it lasts is bounded by the handler.
        static let mostLingered = 1 << 20

        private var state: State
        /// What follows the first head, read as WebSocket frames from its first byte: only an
        /// upgrade's are frames, and theirs must be read in step from there, before the route
        /// has set their limit, for a client may send frames in the head's own packet.
        private var frames: WebSocketFrames?
        /// How much of the `\r\n\r\n` that ends a head the bytes read so far end with.
        private var matched = 0
        /// Whether the head has begun: empty lines before a request line are skipped by the
        /// parser, so they end no head.
        private var begun = false
        /// The bytes the connection was given to write, in all.
        private var written = 0
        /// How many of them had gone to the client at the last check, while some waited.
        private var sentAtCheck: Int?

        /// Every WebSocket frame whose header has been read, in all.
        var framesRead: Int { frames?.count ?? 0 }
        /// What the route allows the client, once it has said.
        var frameLimit: WebSocketFrames.Limit? { frames?.limit }

        /// A connection that `hasRoom` under the lab's limits, or none.
        init(hasRoom: Bool) {
            state = hasRoom ? .awaitingHead : .turningAway
        }

        /// Whether the connection was counted in; one that was not holds no timer but the
        /// turn-away's, and no memory.
        var hasRoom: Bool {
            switch state {
            case .turningAway, .turnedAway: false
            case .awaitingHead, .reading, .refusedFrame: true
            }
        }

        enum ReadAction: Equatable {
            /// Pass the bytes on; `holding` bytes of an unfinished WebSocket frame are held,
            /// when there are frames. `headArrived` when they end the first head: its timer
            /// is cancelled.
            case forward(holding: Int?, headArrived: Bool)
            /// Read nothing more.
            case drop
            /// Close now: a refused client sent more than ``mostLingered`` after its refusal.
            case close
            /// Answer `503` and close, reading nothing.
            case turnAway
            /// Close the WebSocket with `code` and `reason`, reading nothing more.
            case refuse(code: UInt16, reason: String)
        }

        /// What to do with `bytes`, the next the connection sent, which arrived `now`
        /// (nanoseconds of uptime).
        mutating func read(_ bytes: ByteBuffer, at now: UInt64) -> ReadAction {
            switch state {
            case .turningAway:
                state = .turnedAway
                return .turnAway
            case .turnedAway:
                return .drop
            case .refusedFrame(let lingered):
                let total = lingered + bytes.readableBytes
                state = .refusedFrame(lingered: total)
                return total > Self.mostLingered ? .close : .drop
            case .awaitingHead, .reading:
                break
            }
            var following = bytes.readableBytesView[...]
            var headArrived = false
            if state == .awaitingHead {
                guard let end = endOfHead(in: bytes) else {
                    return .forward(holding: nil, headArrived: false)
                }
                headArrived = true
                state = .reading
                frames = WebSocketFrames(limit: nil)
                following = following.dropFirst(end)
            }
            guard frames != nil else { return .forward(holding: nil, headArrived: headArrived) }
            switch frames!.read(following, at: now) {
            case .proceed(let held):
                // Counted once the route has said these are frames.
                return .forward(holding: frames!.limit == nil ? nil : held, headArrived: headArrived)
            case .refuse(let code, let reason):
                state = .refusedFrame(lingered: 0)
                return .refuse(code: code, reason: reason)
            }
        }

        /// Whether the route has as many frames waiting as it may: reading stops until it takes
        /// some. Never once the frames are refused, for what still comes is read and dropped.
        var isFull: Bool { state == .reading && frames?.isFull == true }

        /// The route has taken the first `bytes` of the frames' data, in all: what the frames
        /// hold now.
        mutating func took(_ bytes: Int) -> ReadAction {
            guard frames != nil, state == .reading else { return .drop }
            return .forward(holding: frames!.take(upTo: bytes), headArrived: false)
        }

        /// The connection's frames are refused for a reason of the handler's (its block's
        /// allowance): nothing more is read.
        mutating func refuseFrames() {
            state = .refusedFrame(lingered: 0)
        }

        /// Whether a connection without room is to be answered now that its moment has passed:
        /// once only.
        mutating func turnAwayTimeReached() -> Bool {
            guard case .turningAway = state else { return false }
            state = .turnedAway
            return true
        }

        /// Whether the connection is to be ended because its first head did not arrive in time.
        func headTimeReached() -> Bool {
            if case .awaitingHead = state { true } else { false }
        }

        /// A WebSocket route has said how large and how many frames its client may send: what
        /// the frames read already hold, or their refusal when they broke a rule.
        mutating func limitFrames(to limit: WebSocketFrames.Limit) -> ReadAction {
            guard frames != nil, state == .reading else { return .drop }
            switch frames!.settle(limit: limit) {
            case .proceed(let held):
                return .forward(holding: held, headArrived: false)
            case .refuse(let code, let reason):
                state = .refusedFrame(lingered: 0)
                return .refuse(code: code, reason: reason)
            }
        }

        enum WriteCheck: Equatable {
            /// Nothing waits to be written.
            case idle
            /// Some bytes wait: check again after the write timeout.
            case watch
            /// Bytes have waited a whole write timeout and none of them went: close.
            case stalled
        }

        /// The connection was given `bytes` more to write.
        mutating func wrote(_ bytes: Int) {
            written += bytes
        }

        /// What a check of the writes, one write timeout after the last while bytes waited,
        /// finds when `buffered` bytes still wait to go out: a client that reads nothing of
        /// its answers for so long is ended, for it holds a connection, and a request whose
        /// answer never finishes, that no idle timeout reaches.
        mutating func checkWrites(buffered: Int) -> WriteCheck {
            guard buffered > 0 else {
                sentAtCheck = nil
                return .idle
            }
            let sent = written - buffered
            defer { sentAtCheck = sent }
            if let before = sentAtCheck, sent <= before { return .stalled }
            return .watch
        }

        /// How many of `buffer`'s bytes go up to the end of the `\r\n\r\n` that ends a head,
        /// read on from where the previous reads left off, or nil when it does not end one: one
        /// pass over the bytes, whatever size heads are sent in.
        private mutating func endOfHead(in buffer: ByteBuffer) -> Int? {
            var matched = matched
            var begun = begun
            defer { (self.matched, self.begun) = (matched, begun) }
            return buffer.withUnsafeReadableBytes { bytes in
                for (offset, byte) in bytes.enumerated() {
                    guard begun || byte == 13 || byte == 10 else {
                        begun = true
                        continue
                    }
                    guard begun else { continue }
                    let expected: UInt8 = matched % 2 == 0 ? 13 : 10
                    if byte == expected {
                        matched += 1
                        if matched == 4 { return offset + 1 }
                    } else {
                        matched = byte == 13 ? 1 : 0
                    }
                }
                return nil
            }
        }
    }
}
