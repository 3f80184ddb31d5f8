/// The frames a client sends on a WebSocket, read from the raw bytes before NIO's frame decoder
/// buffers them: a state machine that returns what to do, so that a frame larger than the
/// connection may send is refused as soon as its header says so, not once its payload has
/// been held, and so that what an unfinished frame holds can be counted.
///
/// It fills the gaps Hummingbird and NIO leave:
/// - Hummingbird takes one `maxFrameSize` for every WebSocket route, where an anonymous viewer
///   should be held to a few KiB and a recorder given 4 MiB;
/// - nothing limits how many frames a client sends: an empty ping costs the lab tens of
///   microseconds, so each connection is given frames per second ("Too many frames", 1008);
/// - NIO's aggregator keeps every fragment of a message, empty ones too, at about 50 bytes
///   each however little they carry: a message may come in so many frames
///   (``Limit/fragments``), a few for a small message, one per 4 KiB for a large one;
/// - NIO's decoder does not refuse a client frame that is not masked, which RFC 6455
///   (section 5.1) says to close with 1002.
struct WebSocketFrames: Sendable {
    /// What a route allows its client.
    struct Limit: Equatable, Sendable {
        /// The largest payload a frame may declare.
        var bytes: Int
        /// The frames a client may send per second, control frames included, with a second's
        /// worth at once.
        var perSecond: Int

        /// The most frames one message may be cut into: browsers send a message whole, and a
        /// Swift client cuts one into frames of 16 KiB by default.
        var fragments: Int { max(16, bytes / 4_096) }

        /// For a route that says what it has taken (``WebSocketFrames/take(upTo:)``): the
        /// payload of whole data frames it may have yet to take before the connection stops
        /// reading. NIO's `NIOAsyncChannel` holds up to ten frames whatever their size, ten
        /// 4 MiB batches for a recorder; this holds a connection to what the lab will handle
        /// next. Nil for a route that does not say, whose frames are small.
        var waiting: Int? = nil
    }

    /// What to do with the bytes just read.
    enum Action: Equatable, Sendable {
        /// Pass them on; `held` bytes of a frame or a message not yet complete have arrived so
        /// far, or, on a route that says what it takes, not yet taken.
        case proceed(held: Int)
        /// Close the connection with `code` and `reason`, reading nothing more.
        case refuse(code: UInt16, reason: String)
    }

    /// What the client may send; nil until a route says, while the frames are read only to
    /// stay in step with them, and what breaks a rule is kept to be said then.
    private(set) var limit: Limit?
    /// The bytes of the header being read, at most 14.
    private var header: [UInt8] = []
    /// What is left of the current frame's payload.
    private var remaining: UInt64 = 0
    /// The bytes of the current frame read so far, header included; none between frames.
    private(set) var held = 0
    /// The payload of the data frames of a message not yet finished, which the aggregator
    /// keeps until its last frame: counted as held, as an unfinished frame is.
    private(set) var messageHeld = 0
    /// The current frame's payload length, and whether it is a data frame and the last of its
    /// message.
    private var frame: (length: Int, isData: Bool, isFinal: Bool) = (0, false, true)
    /// The payload of every whole data frame, in all, and as much of it as the route has said
    /// it took.
    private var dataRead = 0
    private var taken = 0
    /// Every frame whose header has been read, in all.
    private(set) var count = 0
    private var isRefused = false
    /// Read before there was a limit: the first rule broken, and the largest payload declared.
    private var broken: (code: UInt16, reason: String)?
    private var largest: UInt64 = 0
    /// The frames of the message being received so far, when it came in more than one, and
    /// the most any message came in before there was a limit.
    private var fragments = 0
    private var mostFragments = 0
    /// The frames the client may still send at once, once there is a limit; the frames read
    /// before there was one are owed.
    private var allowance: FrameAllowance?
    private var owed = 0

    init(limit: Limit?) {
        self.limit = limit
        allowance = limit.map { FrameAllowance(perSecond: $0.perSecond) }
    }

    /// Sets the limit a route gave, and says whether the frames read before it broke a rule.
    mutating func settle(limit: Limit) -> Action {
        self.limit = limit
        allowance = FrameAllowance(perSecond: limit.perSecond, spent: owed)
        if let broken {
            isRefused = true
            return .refuse(code: broken.code, reason: broken.reason)
        }
        guard largest <= UInt64(limit.bytes) else {
            isRefused = true
            return .refuse(code: 1009, reason: Self.tooLarge(limit.bytes))
        }
        guard mostFragments <= limit.fragments else {
            isRefused = true
            return .refuse(code: 1009, reason: Self.tooFragmented(limit.fragments))
        }
        guard allowance?.isOverdrawn != true else {
            isRefused = true
            return .refuse(code: 1008, reason: Self.tooMany(limit.perSecond))
        }
        return .proceed(held: holding)
    }

    /// What the connection holds for the route: the frame being read, and the data frames not
    /// yet taken when the route says what it takes, or else those of an unfinished message.
    private var holding: Int {
        held + (limit?.waiting == nil ? messageHeld : dataRead - taken)
    }

    /// Whether the route has as much waiting as it may: the connection reads no more until it
    /// takes some.
    var isFull: Bool {
        guard let waiting = limit?.waiting else { return false }
        return dataRead - taken >= waiting
    }

    /// The route has taken the first `bytes` of the payload of the data frames, in all: what
    /// the connection holds now.
    mutating func take(upTo bytes: Int) -> Int {
        taken = min(max(taken, bytes), dataRead)
        return holding
    }

    /// Reads `bytes`, the next of the connection's, which arrived `now` (nanoseconds of uptime).
    mutating func read(_ bytes: some Collection<UInt8>, at now: UInt64) -> Action {
        guard !isRefused else { return .refuse(code: 1008, reason: "") }
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if remaining > 0 {
                let available = UInt64(bytes.distance(from: index, to: bytes.endIndex))
                let taken = min(available, remaining)
                remaining -= taken
                held += Int(taken)
                index = bytes.index(index, offsetBy: Int(taken))
                if remaining == 0 { frameEnded() }
                continue
            }
            header.append(bytes[index])
            index = bytes.index(after: index)
            held += 1
            guard let (length, masked) = parseHeader() else { continue }
            let (opcode, isFinal) = (header[0] & 0x0F, header[0] & 0x80 != 0)
            header.removeAll(keepingCapacity: true)
            largest = max(largest, length)
            if opcode < 8 {
                fragments = opcode == 0 ? fragments + 1 : isFinal ? 0 : 1
            }
            mostFragments = max(mostFragments, fragments)
            if opcode < 8, isFinal { fragments = 0 }
            count += 1
            if limit == nil { owed += 1 }
            let refusal: (code: UInt16, reason: String)? =
                if !masked {
                    (1002, "A client's frames must be masked.")
                } else if let limit, length > UInt64(limit.bytes) {
                    (1009, Self.tooLarge(limit.bytes))
                } else if let limit, mostFragments > limit.fragments {
                    (1009, Self.tooFragmented(limit.fragments))
                } else if let limit, allowance?.take(1, at: now) == false {
                    (1008, Self.tooMany(limit.perSecond))
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
            frame = (Int(clamping: length), opcode < 8, isFinal)
            if length == 0 { frameEnded() }
        }
        return .proceed(held: holding)
    }

    /// Counts a whole frame: its payload stays held while its message is unfinished.
    private mutating func frameEnded() {
        held = 0
        guard frame.isData else { return }
        dataRead += frame.length
        messageHeld = frame.isFinal ? 0 : messageHeld + frame.length
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

    private static func tooFragmented(_ fragments: Int) -> String {
        "A message may come in at most \(fragments) frames here."
    }

    private static func tooMany(_ perSecond: Int) -> String {
        "Too many frames: at most \(perSecond) a second here."
    }

    /// A close frame as a server sends it: unmasked, the code, then as much of `reason` as
    /// fits the 123 bytes a control frame leaves for it, cut at a character.
    static func closeFrame(code: UInt16, reason: String) -> [UInt8] {
        var text = Substring(reason)
        while text.utf8.count > 123 { text = text.dropLast() }
        return [0x88, UInt8(2 + text.utf8.count), UInt8(code >> 8), UInt8(code & 0xFF)] + Array(text.utf8)
    }
}
