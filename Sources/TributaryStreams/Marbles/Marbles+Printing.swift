extension Marbles {
    /// `events` as marbles, `frame` seconds per character, each event at the frame nearest its
    /// time, so that ``read(_:frame:values:)`` gives the events back. Values that are not one
    /// character are written as stand-ins, from `a`, not otherwise in use; ``Printed/values``
    /// says which is which, and holds a failure's message under `#`.
    ///
    /// A group takes as many frames as it has characters, as in RxJS, so a group cannot be
    /// followed by an event sooner than that. A quiet stretch of more than ``spanFrames``
    /// frames is written as an RxJS time span when that is shorter, so that ten seconds at a
    /// millisecond a frame take a few characters, not ten thousand dashes:
    ///
    /// ```swift
    /// // "a" at 0 s, "b" at 10 s, the end at 10.001 s
    /// try Marbles.print(events, frame: 0.001).marbles   // "a 9.999s b|"
    /// ```
    ///
    /// - Throws: ``StreamError`` when `frame` is not a positive number of seconds, when a lane
    ///   would write more than ``maximumFrames`` frames as dashes, or when a group would cover
    ///   the event after it; then the message names a shorter frame that draws every event.
    public static func print(_ events: [Timeline.Event], frame: Double = 1) throws(StreamError) -> Printed {
        var table: [Character: StreamValue] = [:]
        try checkTimes(of: events)
        try checkFrame(frame, duration: events.map(\.time).max() ?? 0)
        let frames = layout(events, frame: frame)
        if let overlap = firstOverlap(in: frames) {
            throw overlapError(overlap, frame: frame, finer: finestFit(for: [events], from: frame))
        }
        var bytes = 0
        let marbles = try print(
            frames,
            frame: frame,
            quiet: quietStretches(in: [frames], frame: frame),
            table: &table,
            reserved: literals(in: events),
            bytes: &bytes,
            maximumBytes: .max
        )
        return Printed(marbles: marbles, values: table)
    }

    /// Several lanes printed under one time scale, as ``TextLanes`` draws them, with one table
    /// of stand-ins: each lane as marbles that ``read(_:frame:values:)`` reads back, aligned
    /// with the others, quiet stretches written as the same time spans in every lane.
    ///
    /// ```swift
    /// let printed = try Marbles.print(lanes: [typed, settled], frame: 0.1)
    /// printed.marbles   // ["-a-b 1.2s c", "----b 1.2s --c"]
    /// ```
    ///
    /// - Throws: ``StreamError`` as ``print(_:frame:)`` does, except that where a group would
    ///   cover the event after it, the lanes are printed at a shorter frame that fits,
    ///   which ``PrintedLanes/frame`` says.
    public static func print(lanes: [[Timeline.Event]], frame: Double = 1) throws(StreamError) -> PrintedLanes
    {
        let drawn = try drawableFrame(for: lanes, from: frame)
        let layouts = lanes.map { layout($0, frame: drawn) }
        let quiet = quietStretches(in: layouts, frame: drawn)
        var table: [Character: StreamValue] = [:]
        let reserved = literals(in: Array(lanes.joined()))
        var bytes = 0
        var marbles: [String] = []
        for layout in layouts {
            marbles.append(
                try print(
                    layout,
                    frame: drawn,
                    quiet: quiet,
                    table: &table,
                    reserved: reserved,
                    bytes: &bytes,
                    maximumBytes: .max
                )
            )
        }
        return PrintedLanes(marbles: marbles, values: table, frame: drawn)
    }

    /// Lanes printed together by ``print(lanes:frame:)``.
    public struct PrintedLanes: Sendable, Hashable {
        /// Each lane's marbles, in the order given.
        public var marbles: [String]
        /// What each stand-in means, in every lane; `#` holds the failures' messages.
        public var values: [Character: StreamValue]
        /// The seconds a frame the lanes were printed at.
        public var frame: Double
    }

    /// Prints one lane laid out by ``layout(_:frame:)``, in which no group covers the event
    /// after it, with a table shared by several lanes; new stand-ins avoid `reserved`. The
    /// stretches in `quiet` that the lane passes through are written as their spans, the same
    /// in every lane, so that lanes printed together stay aligned. What the lane writes is
    /// added to `bytes`, which may not pass `maximumBytes`.
    static func print(
        _ frames: [(index: Int, kinds: [Timeline.Kind])],
        frame: Double,
        quiet: [QuietStretch],
        table: inout [Character: StreamValue],
        reserved: Set<Character>,
        bytes: inout Int,
        maximumBytes: Int
    ) throws(StreamError) -> String {
        var standIns = StandIns(table: table, reserved: reserved)
        var text = ""
        var dashes = 0
        var position = 0
        var stretches = quiet[...]
        func write(_ piece: String) throws(StreamError) {
            bytes += piece.utf8.count
            guard bytes <= maximumBytes else {
                throw StreamError(.outputTooLarge(bytes: bytes, limit: maximumBytes), path: "$")
            }
            text += piece
        }
        func pass(to index: Int) throws(StreamError) {
            while let stretch = stretches.first, stretch.start < index {
                stretches.removeFirst()
                guard stretch.start >= position, stretch.end <= index else { continue }
                dashes += stretch.start - position
                try write(String(repeating: "-", count: stretch.start - position) + stretch.text)
                position = stretch.end
            }
            dashes += index - position
            guard dashes <= maximumFrames else {
                throw StreamError(
                    .badValue(
                        "drawing at \(frame) seconds a frame takes more than \(maximumFrames) frames of "
                            + "dashes, and a time span cannot say that frame to the microsecond"
                    ),
                    path: "frame"
                )
            }
            try write(String(repeating: "-", count: index - position))
        }
        for (index, kinds) in frames {
            try pass(to: index)
            if kinds.count == 1 {
                try write(String(try standIns.symbol(for: kinds[0], after: text)))
            } else {
                var group = "("
                for kind in kinds { group.append(try standIns.symbol(for: kind, after: group)) }
                try write(group + ")")
            }
            position = index + width(ofFrameWith: kinds.count)
        }
        table = standIns.table
        return text
    }

    /// The fewest frames with nothing in them that a printer writes as a time span: a stretch
    /// this short still reads at a glance as dashes.
    public static let spanFrames = 20

    /// Frames in which no lane has anything to draw, written as a time span.
    struct QuietStretch {
        var start: Int
        var end: Int
        /// The span with the spaces around it that the notation asks for.
        var text: String
    }

    /// The stretches of more than ``spanFrames`` frames in which none of `lanes` draws
    /// anything, and which a time span says in fewer characters, in order.
    static func quietStretches(
        in lanes: [[(index: Int, kinds: [Timeline.Kind])]],
        frame: Double
    ) -> [QuietStretch] {
        let drawn = lanes.joined().map { ($0.index, $0.index + width(ofFrameWith: $0.kinds.count)) }
        let occupied = drawn.sorted { $0.0 < $1.0 }
        var stretches: [QuietStretch] = []
        var reached = 0
        for (start, end) in occupied {
            if start - reached > spanFrames, let span = span(frames: start - reached, frame: frame) {
                let text = reached == 0 ? span + " " : " " + span + " "
                if text.count < start - reached {
                    stretches.append(QuietStretch(start: reached, end: start, text: text))
                }
            }
            reached = max(reached, end)
        }
        return stretches
    }

    /// `frames` frames of `frame` seconds as the shortest time span that says them to the
    /// microsecond (`1.5s`, `99ms`, `2m`), as the reader counts spans; `nil` when none does.
    static func span(frames: Int, frame: Double) -> String? {
        let exact = Double(frames) * frame * 1e6
        let micros = exact.rounded()
        // A span says whole microseconds, as the reader rounds them; one that would round is
        // no span of these frames.
        guard micros >= 1, micros < 1e15, abs(exact - micros) <= max(1e-3, micros * 1e-15) else { return nil }
        let whole = Int64(micros)
        func decimal(_ value: Int64, places: Int) -> String {
            var scale: Int64 = 1
            for _ in 0..<places { scale *= 10 }
            var fraction = String(value % scale)
            fraction = String(repeating: "0", count: places - fraction.count) + fraction
            while fraction.last == "0" { fraction.removeLast() }
            return "\(value / scale)" + (fraction.isEmpty ? "" : "." + fraction)
        }
        var candidates = [decimal(whole, places: 6) + "s", decimal(whole, places: 3) + "ms"]
        if whole % 60_000_000 == 0 { candidates.append("\(whole / 60_000_000)m") }
        return candidates.min { $0.count < $1.count }
    }

    /// The frame at which every lane in `lanes` can be drawn: `frame` when it can, else the
    /// longest of `frame` / 2, / 4, / 5, / 10, / 20, … that draws every lane within
    /// ``maximumReach`` frames.
    ///
    /// - Throws: ``StreamError`` when `frame` is not a positive number of seconds, when the
    ///   lanes reach past ``maximumReach`` frames, or when no such frame draws them.
    static func drawableFrame(for lanes: [[Timeline.Event]], from frame: Double) throws(StreamError) -> Double
    {
        for lane in lanes { try checkTimes(of: lane) }
        try checkFrame(frame, duration: lanes.lazy.flatMap { $0.map(\.time) }.max() ?? 0)
        for lane in lanes {
            guard let overlap = firstOverlap(in: layout(lane, frame: frame)) else { continue }
            guard let finer = finestFit(for: lanes, from: frame) else {
                throw overlapError(overlap, frame: frame, finer: nil)
            }
            return finer
        }
        return frame
    }

    /// The characters that values in `events` stand for by themselves.
    static func literals(in events: [Timeline.Event]) -> Set<Character> {
        Set(
            events.compactMap { event in
                guard case .value(let value) = event.kind else { return nil }
                return literal(value)
            }
        )
    }

    /// The character a value is written as without a table, if there is one.
    static func literal(_ value: StreamValue) -> Character? {
        let text = value.description
        guard text.count == 1, let character = text.first, isValueMarble(character),
            StreamValue(marble: character) == value
        else { return nil }
        return character
    }

    /// How many frames a frame with `marks` events takes: one, or a group's characters.
    static func width(ofFrameWith marks: Int) -> Int { marks == 1 ? 1 : marks + 2 }

    // MARK: Layout

    static func checkTimes(of events: [Timeline.Event]) throws(StreamError) {
        guard let wrong = events.first(where: { !$0.time.isFinite || $0.time < 0 }) else { return }
        throw StreamError(
            .badValue("an event's time is from 0 seconds on, not \(wrong.time)"),
            path: "$.time"
        )
    }

    /// A group that would cover the frame of the event after it.
    private struct Overlap {
        var index: Int
        var marks: Int
        var next: Int
    }

    /// The events of each frame, in frame order, at `frame` seconds a frame; `frame` must be
    /// checked against the events' duration first.
    static func layout(
        _ events: [Timeline.Event],
        frame: Double
    ) -> [(index: Int, kinds: [Timeline.Kind])] {
        var frames: [Int: [Timeline.Kind]] = [:]
        for event in events {
            frames[Int((event.time / frame).rounded()), default: []].append(event.kind)
        }
        return frames.keys.sorted().map { ($0, frames[$0] ?? []) }
    }

    private static func firstOverlap(in frames: [(index: Int, kinds: [Timeline.Kind])]) -> Overlap? {
        for (current, following) in zip(frames, frames.dropFirst())
        where following.index < current.index + width(ofFrameWith: current.kinds.count) {
            return Overlap(index: current.index, marks: current.kinds.count, next: following.index)
        }
        return nil
    }

    /// The longest frame shorter than `frame` in steps of 1, 2, 2.5 and 5 that draws every
    /// lane within ``maximumReach`` frames, if there is one.
    private static func finestFit(for lanes: [[Timeline.Event]], from frame: Double) -> Double? {
        let duration = lanes.lazy.flatMap { $0.map(\.time) }.max() ?? 0
        var scale = 1.0
        while true {
            for divisor in [2.0, 4, 5, 10] {
                let candidate = frame / (divisor * scale)
                guard (duration / candidate).rounded() <= Double(maximumReach) else { return nil }
                if lanes.allSatisfy({ firstOverlap(in: layout($0, frame: candidate)) == nil }) {
                    return candidate
                }
            }
            scale *= 10
        }
    }

    private static func overlapError(_ overlap: Overlap, frame: Double, finer: Double?) -> StreamError {
        let advice =
            finer.map { "; \($0) seconds a frame draws every event" }
            ?? "; no frame within \(maximumReach) frames draws every event"
        return StreamError(
            .badValue(
                "at \(frame) seconds a frame, the \(overlap.marks) events at \(Double(overlap.index) * frame)s "
                    + "take \(overlap.marks + 2) frames as a group, and cover the event at "
                    + "\(Double(overlap.next) * frame)s\(advice)"
            ),
            path: "frame"
        )
    }
}

/// The characters a printer writes for events, and the stand-ins it takes for values that have
/// none of their own.
private struct StandIns {
    /// ASCII letters but `m` and `s`, which after digits at the start of a diagram would read as
    /// the unit of a time span; then letters of other scripts, for timelines with many values.
    private static let ascii = Array("abcdefghijklnopqrtuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private static let scripts: [ClosedRange<UInt32>] = [
        0x4E00...0x9FFF, 0xAC00...0xD7A3, 0x3400...0x4DBF, 0x20000...0x2A6DF,
    ]
    static let count = ascii.count + scripts.reduce(0) { $0 + $1.count }

    /// The stand-in at `index` of all of them, in order.
    static func letter(_ index: Int) -> Character? {
        if index < ascii.count { return ascii[index] }
        var rest = index - ascii.count
        for range in scripts {
            if rest < range.count {
                return Unicode.Scalar(range.lowerBound + UInt32(rest)).map(Character.init)
            }
            rest -= range.count
        }
        return nil
    }

    var table: [Character: StreamValue]
    let reserved: Set<Character>
    private var known: [StreamValue: Character]

    init(table: [Character: StreamValue], reserved: Set<Character>) {
        self.table = table
        self.reserved = reserved
        known = [:]
        for (character, value) in table where character != "#" { known[value] = character }
    }

    mutating func symbol(for kind: Timeline.Kind, after text: String) throws(StreamError) -> Character {
        switch kind {
        case .finished:
            return "|"
        case .failure(let message):
            record(failure: message)
            return "#"
        case .value(let value):
            if let character = Marbles.literal(value),
                !(["m", "s"].contains(character) && Self.isSpanStart(text))
            {
                return character
            }
            if let character = known[value] { return character }
            // Stand-ins are taken in order and never given back, so none is free before the
            // count of those taken: the search need not start from the first.
            var index = max(table.count - 1, 0)
            while let letter = Self.letter(index), table[letter] != nil || reserved.contains(letter) {
                index += 1
            }
            guard let letter = Self.letter(index) else {
                throw StreamError(
                    .badValue(
                        "a timeline with more than \(Self.count) different values cannot be drawn as marbles"
                    ),
                    path: "$"
                )
            }
            table[letter] = value
            known[value] = letter
            return letter
        }
    }

    /// Keeps every failure message under `#`, a list when lanes fail differently.
    private mutating func record(failure message: String) {
        let value = StreamValue.string(message)
        switch table["#"] {
        case nil: table["#"] = value
        case .list(let messages)? where !messages.contains(value): table["#"] = .list(messages + [value])
        case let earlier? where earlier != value && !isList(earlier): table["#"] = .list([earlier, value])
        default: break
        }
    }

    private func isList(_ value: StreamValue) -> Bool {
        if case .list = value { return true }
        return false
    }

    /// Whether what `text` ends with since its start or its last space is digits, perhaps with
    /// points: the number of a time span, were `m` or `s` to follow.
    private static func isSpanStart(_ text: String) -> Bool {
        var sawDigit = false
        for character in text.reversed() {
            if character == " " { break }
            if Marbles.isDigit(character) {
                sawDigit = true
            } else if character != "." {
                return false
            }
        }
        return sawDigit
    }
}
