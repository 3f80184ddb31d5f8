/// The frames a client sends on a WebSocket, read from the raw bytes before NIO's frame decoder
/// buffers them: a state machine that returns what to do, so that a frame larger than the
/// connection may send is refused as soon as its header says so, not once its payload has
/// been held, and so that what an unfinished frame holds can be counted.
///
/// It fills two gaps: Hummingbird takes one `maxFrameSize` for every WebSocket route, where
/// an anonymous viewer should be held to a few KiB and a recorder given 4 MiB; and NIO's
/// decoder does not refuse a client frame that is not masked, which RFC 6455 (section 5.1)
/// says to close with 1002.
struct WebSocketFrames: Sendable {
    /// What to do with the bytes just read.
    enum Action: Equatable, Sendable {
        /// Pass them on; `held` bytes of a frame not yet complete have arrived so far.
        case proceed(held: Int)
        /// Close the connection with `code` and `reason`, reading nothing more.
        case refuse(code: UInt16, reason: String)
    }

    /// The largest payload a frame may declare; nil until a route says, while the frames are
    /// read only to stay in step with them, and what breaks a rule is kept to be said then.
    private(set) var limit: Int?
    /// The bytes of the header being read, at most 14.
    private var header: [UInt8] = []
    /// What is left of the current frame's payload.
    private var remaining: UInt64 = 0
    /// The bytes of the current frame read so far, header included; none between frames.
    private(set) var held = 0
    private var isRefused = false
    /// Read before there was a limit: the first rule broken, and the largest payload declared.
    private var broken: (code: UInt16, reason: String)?
    private var largest: UInt64 = 0

    init(limit: Int?) {
        self.limit = limit
    }

    /// Sets the limit a route gave, and says whether the frames read before it broke a rule.
    mutating func settle(limit: Int) -> Action {
        self.limit = limit
        if let broken {
            isRefused = true
            return .refuse(code: broken.code, reason: broken.reason)
        }
        guard largest <= UInt64(limit) else {
            isRefused = true
            return .refuse(code: 1009, reason: Self.tooLarge(limit))
        }
        return .proceed(held: held)
    }

    /// Reads `bytes`, the next of the connection's.
    mutating func read(_ bytes: some Collection<UInt8>) -> Action {
        guard !isRefused else { return .refuse(code: 1008, reason: "") }
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if remaining > 0 {
                let available = UInt64(bytes.distance(from: index, to: bytes.endIndex))
                let taken = min(available, remaining)
                remaining -= taken
                held += Int(taken)
                index = bytes.index(index, offsetBy: Int(taken))
                if remaining == 0 { held = 0 }
                continue
            }
            header.append(bytes[index])
            index = bytes.index(after: index)
            held += 1
            guard let (length, masked) = parseHeader() else { continue }
            header.removeAll(keepingCapacity: true)
            largest = max(largest, length)
            let refusal: (code: UInt16, reason: String)? =
                if !masked {
                    (1002, "A client's frames must be masked.")
                } else if let limit, length > UInt64(limit) {
                    (1009, Self.tooLarge(limit))
                } else {
                    nil
                }
            if let refusal {
                guard limit == nil else {
                    isRefused = true
                    return .refuse(code: refusal.code, reason: refusal.reason)
                }
                // No limit yet: kept, and the frame read past as its header says, in step.
                if broken == nil { broken = refusal }
            }
            remaining = length
            if length == 0 { held = 0 }
        }
        return .proceed(held: held)
    }

    /// The payload length and whether the frame is masked, once the header is whole.
    private func parseHeader() -> (length: UInt64, masked: Bool)? {
        guard header.count >= 2 else { return nil }
        let masked = header[1] & 0x80 != 0
        let short = header[1] & 0x7F
        let extended = short == 126 ? 2 : short == 127 ? 8 : 0
        guard header.count >= 2 + extended + (masked ? 4 : 0) else { return nil }
        var length = UInt64(short)
        if extended > 0 {
            length = header[2..<(2 + extended)].reduce(0) { $0 << 8 | UInt64($1) }
        }
        return (length, masked)
    }

    private static func tooLarge(_ limit: Int) -> String { "A frame may carry at most \(limit) bytes here." }

    /// A close frame as a server sends it: unmasked, the code, then as much of `reason` as
    /// fits the 123 bytes a control frame leaves for it, cut at a character.
    static func closeFrame(code: UInt16, reason: String) -> [UInt8] {
        var text = Substring(reason)
        while text.utf8.count > 123 { text = text.dropLast() }
        return [0x88, UInt8(2 + text.utf8.count), UInt8(code >> 8), UInt8(code & 0xFF)] + Array(text.utf8)
    }
}
