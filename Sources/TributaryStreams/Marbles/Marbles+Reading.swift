extension Marbles {
    /// One event of a diagram: when it happens, in seconds from frame zero, and what it is.
    ///
    /// Frame zero is the `^` of a hot stream, or the first character; events before `^` have
    /// negative times.
    public struct Event: Sendable, Hashable, CustomStringConvertible {
        /// Seconds from frame zero; negative before the `^` of a hot stream.
        public var time: Double
        /// A value, or how the stream ended.
        public var kind: Timeline.Kind

        /// Makes an event `time` seconds from frame zero.
        public init(time: Double, kind: Timeline.Kind) {
            self.time = time
            self.kind = kind
        }

        public var description: String { "\(time)s \(kind)" }
    }

    /// When a subscriber subscribes and unsubscribes, in seconds from frame zero, as a
    /// subscription diagram such as `--^---!` says.
    public struct Subscription: Sendable, Hashable {
        /// Where `^` stands; `nil` when the diagram has none: no subscription at all.
        public var start: Double?
        /// Where `!` stands; `nil` when the subscriber stays to the end.
        public var end: Double?

        /// Makes a subscription from where `^` and `!` stand, in seconds from frame zero.
        ///
        /// - Parameters:
        ///   - start: Where `^` stands; `nil` for no subscription at all.
        ///   - end: Where `!` stands; `nil`, the default, when the subscriber stays to the end.
        public init(start: Double?, end: Double? = nil) {
            self.start = start
            self.end = end
        }
    }

    /// The events `marbles` describes, in order, as RxJS's `TestScheduler` reads a diagram in
    /// run mode when `frame` is 0.001.
    ///
    /// ```swift
    /// try Marbles.read("--(abc)-|", frame: 0.001).map(\.time)   // [0.002, 0.002, 0.002, 0.008]
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - frame: Seconds per frame.
    ///   - values: Values for characters that stand for something else; `#` gives the
    ///     failure's message, `"failed"` without it.
    /// - Throws: ``StreamError`` with the position of what is wrong: a character that is no
    ///   marble, a time span written so that RxJS would read it as values, a group that does
    ///   not close or nests, anything but frames and spans after the end, or an event more
    ///   than ``StreamDocument/maximumSeconds`` from frame zero.
    public static func read(
        _ marbles: String,
        frame: Double = 1,
        values: [Character: StreamValue] = [:]
    ) throws(StreamError) -> [Event] {
        try checkFrame(frame)
        let failure = values["#"].map(message) ?? "failed"
        var origin: Clock?
        var found: [(at: Clock, kind: Timeline.Kind, offset: Int)] = []
        var ended = false
        try walk(marbles, emptyGroup: "a group holds at least one event") {
            (character, at, inGroup, offset) throws(StreamError) in
            switch character {
            case "^":
                guard !inGroup else { throw bad("^ cannot stand inside a group", offset, marbles) }
                guard origin == nil else { throw bad("a second ^", offset, marbles) }
                origin = at
            case "!":
                throw bad("! ends a subscription, and belongs in a subscription diagram", offset, marbles)
            default:
                guard !ended else {
                    throw bad("only frames and time spans can follow the end", offset, marbles)
                }
                let kind: Timeline.Kind
                switch character {
                case "|": kind = .finished
                case "#": kind = .failure(failure)
                default: kind = .value(values[character] ?? StreamValue(marble: character))
                }
                ended = kind.isEnd
                found.append((at, kind, offset))
            }
            return 1
        }
        let zero = origin ?? Clock()
        var events: [Event] = []
        for event in found {
            let time = event.at.seconds(since: zero, frame: frame)
            try checkReach(time, event.offset, marbles)
            events.append(Event(time: time, kind: event.kind))
        }
        return events
    }

    /// The subscription that `marbles` describes, such as `--^---!`, read as RxJS's
    /// `TestScheduler` reads a subscription diagram in run mode when `frame` is 0.001: `^`
    /// subscribes and takes a frame, `!` unsubscribes and takes none, `(^!)` does both in one
    /// frame.
    ///
    /// - Throws: ``StreamError`` when the diagram holds anything but frames, spaces, time
    ///   spans, groups, one `^` and one `!` after it, or reaches past
    ///   ``StreamDocument/maximumSeconds``.
    public static func readSubscription(
        _ marbles: String,
        frame: Double = 1
    ) throws(StreamError) -> Subscription {
        try checkFrame(frame)
        var start: Double?
        var end: Double?
        try walk(marbles, emptyGroup: "a group holds ^, ! or both") {
            (character, at, _, offset) throws(StreamError) in
            let time = at.seconds(since: Clock(), frame: frame)
            try checkReach(time, offset, marbles)
            switch character {
            case "^":
                guard start == nil else { throw bad("a second ^", offset, marbles) }
                start = time
                return 1
            case "!":
                guard start != nil else { throw bad("a ! before its ^", offset, marbles) }
                guard end == nil else { throw bad("a second !", offset, marbles) }
                end = time
                return 0
            default:
                throw bad(
                    "a subscription diagram holds -, ^, !, groups, spaces and time spans, not \"\(character)\"",
                    offset,
                    marbles
                )
            }
        }
        return Subscription(start: start, end: end)
    }

    /// Whether `character` can stand for a value: anything but the characters the notation
    /// uses itself, spaces, and characters that cannot be seen.
    static func isValueMarble(_ character: Character) -> Bool {
        guard !"-|#()^! ".contains(character), let first = character.unicodeScalars.first else {
            return false
        }
        switch first.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .spaceSeparator, .lineSeparator,
            .paragraphSeparator:
            return false
        default:
            return true
        }
    }

    /// The failure message a `#` entry of a value table gives.
    private static func message(_ value: StreamValue) -> String {
        if case .string(let text) = value { return text }
        return value.description
    }

    // MARK: Scanning

    /// Walks `marbles` keeping time as RxJS does: frames, spans and groups, a group's events
    /// at its start and the group as wide as its characters. Each mark goes to `mark` with
    /// the time of its event, whether it stands in a group, and its offset; `mark` answers
    /// how many frames the mark takes.
    private static func walk(
        _ marbles: String,
        emptyGroup: String,
        mark: (Character, Clock, Bool, Int) throws(StreamError) -> Int
    ) throws(StreamError) {
        var clock = Clock()
        var group: Group?
        for piece in try pieces(of: marbles) {
            let offset = piece.offset
            switch piece.kind {
            case .frame:
                guard group == nil else { throw bad("a frame cannot pass inside a group", offset, marbles) }
                clock.frames += 1
            case .span(let seconds):
                clock.seconds += seconds
            case .open:
                guard group == nil else { throw bad("groups do not nest", offset, marbles) }
                group = Group(start: clock, offset: offset)
                clock.frames += 1
            case .close:
                guard let open = group else { throw bad("a ) without its (", offset, marbles) }
                guard open.marks > 0 else { throw bad(emptyGroup, open.offset, marbles) }
                group = nil
                clock.frames += 1
            case .mark(let character):
                clock.frames += try mark(character, group?.start ?? clock, group != nil, offset)
                group?.marks += 1
            }
        }
        if let group { throw bad("a ( without its )", group.offset, marbles) }
    }

    /// Time since the start of a diagram, kept as whole frames and seconds of spans apart so
    /// that long diagrams do not gather rounding errors.
    private struct Clock {
        var frames = 0
        var seconds = 0.0

        func seconds(since origin: Clock, frame: Double) -> Double {
            rounded(Double(frames - origin.frames) * frame + (seconds - origin.seconds))
        }
    }

    /// An open group: where it started and how many events it holds so far.
    private struct Group {
        var start: Clock
        var offset: Int
        var marks = 0
    }

    /// A piece of a diagram with the offset of its first character; spaces are not pieces.
    private struct Piece {
        enum Kind {
            case frame, open, close
            case mark(Character)
            case span(Double)
        }

        var kind: Kind
        var offset: Int
    }

    /// Splits `marbles` into pieces, reading time spans as RxJS does: a number, a unit (`ms`,
    /// `s` or `m`) and a space, at the start or after a space.
    private static func pieces(of marbles: String) throws(StreamError) -> [Piece] {
        let characters = Array(marbles)
        var pieces: [Piece] = []
        var inGroup = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == " " {
                index += 1
                continue
            }
            if index == 0 || characters[index - 1] == " ",
                let span = try span(in: characters, at: index, inGroup: inGroup, marbles)
            {
                pieces.append(Piece(kind: .span(span.seconds), offset: index))
                index = span.end
                continue
            }
            switch character {
            case "-": pieces.append(Piece(kind: .frame, offset: index))
            case "(":
                inGroup = true
                pieces.append(Piece(kind: .open, offset: index))
            case ")":
                inGroup = false
                pieces.append(Piece(kind: .close, offset: index))
            case "|", "#", "^", "!": pieces.append(Piece(kind: .mark(character), offset: index))
            default:
                guard isValueMarble(character) else {
                    throw bad(
                        "\"\(character.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())\" is not a marble",
                        index,
                        marbles
                    )
                }
                pieces.append(Piece(kind: .mark(character), offset: index))
            }
            index += 1
        }
        return pieces
    }

    /// The time span at `start` and the index after it, or `nil` when the characters there do
    /// not look like one. Something that looks like a span but is not one is an error, never
    /// values: RxJS would read `a 10ms` (no space after) or ` .5s ` as values, and nobody
    /// writes those meaning values.
    private static func span(
        in characters: [Character],
        at start: Int,
        inGroup: Bool,
        _ marbles: String
    ) throws(StreamError) -> (seconds: Double, end: Int)? {
        var end = start
        while end < characters.count, isDigit(characters[end]) || characters[end] == "." { end += 1 }
        let number = String(characters[start..<end])
        guard number.contains(where: isDigit) else { return nil }
        let unit: (length: Int, seconds: Double)
        switch (
            end < characters.count ? characters[end] : " ",
            end + 1 < characters.count ? characters[end + 1] : " "
        ) {
        case ("m", "s"): unit = (2, 0.001)
        case ("s", _): unit = (1, 1)
        case ("m", _): unit = (1, 60)
        default: return nil
        }
        let after = end + unit.length
        let text = String(characters[start..<after])
        guard after < characters.count, characters[after] == " " else {
            throw bad("\"\(text)\" is a time span, which needs a space after it", start, marbles)
        }
        guard !inGroup else { throw bad("a time span cannot stand inside a group", start, marbles) }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }), let value = Double(number) else {
            throw bad(
                "\"\(text)\" is no time span: write its number as digits, or digits, a point and digits",
                start,
                marbles
            )
        }
        return (value * unit.seconds, after)
    }

    /// Whether `character` is one of 0 to 9; other scripts' digits are values, not numbers.
    static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

    static func bad(_ reason: String, _ offset: Int, _ marbles: String) -> StreamError {
        StreamError(.badValue("\(reason) at position \(offset + 1) of \"\(marbles)\""), path: "$.marbles")
    }

    private static func checkReach(_ time: Double, _ offset: Int, _ marbles: String) throws(StreamError) {
        guard abs(time) <= StreamDocument.maximumSeconds else {
            throw bad(
                "the diagram reaches past \(Int(StreamDocument.maximumSeconds)) seconds",
                offset,
                marbles
            )
        }
    }

    /// Sums of frames and spans rounded to the microsecond, so that 0.1 * 6 is 0.6.
    static func rounded(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }
}

extension StreamValue {
    /// The value a lone marble character stands for without a table: an ASCII digit is an
    /// integer, anything else a one-character string.
    public init(marble: Character) {
        if Marbles.isDigit(marble), let digit = marble.wholeNumberValue {
            self = .integer(digit)
        } else {
            self = .string(String(marble))
        }
    }
}
