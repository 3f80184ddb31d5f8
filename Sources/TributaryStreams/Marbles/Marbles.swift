/// Marble diagrams: streams written as strings, one character per frame, and timelines
/// printed back the same way.
///
/// `-` is a frame passing; a letter or digit is a value (looked up in a value table, or
/// taken literally: digits as integers, letters as strings); `|` completion; `#` failure;
/// `( )` groups events in one frame, as in `(a|)`; spaces are ignored; `^` marks frame zero,
/// where the subscription starts; `100ms` or `2s` between spaces advances time by that much.
///
/// ```swift
/// let stream = try Marbles.parse("-1-2-3|", frame: 1, id: "numbers")
/// try Marbles.print(timeline.events(in: "numbers"), frame: 1)   // "-1-2-3|"
/// ```
public enum Marbles {
    /// The most frames a printed lane may span; a wider diagram is of no use to read.
    public static let maximumFrames = 100_000

    /// Reads `marbles` into a stream whose items come at the marked frames, within
    /// ``StreamDocument/maximumSeconds`` of its start.
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - frame: Seconds per frame.
    ///   - values: Values for characters that stand for something else.
    ///   - id: The stream's id.
    public static func parse(
        _ marbles: String,
        frame: Double = 1,
        values: [Character: StreamValue] = [:],
        id: String = "marbles"
    ) throws(StreamError) -> StreamDefinition {
        func bad(_ reason: String, _ offset: Int) -> StreamError {
            StreamError(.badValue("\(reason) at position \(offset + 1) of \"\(marbles)\""), path: "$.marbles")
        }
        try checkFrame(frame)
        let characters = Array(marbles)
        var time = 0.0
        var origin: Double?
        var group: Double?
        var items: [(time: Double, value: StreamValue, offset: Int)] = []
        var ending: (time: Double, failed: Bool, offset: Int)?
        var index = 0
        while index < characters.count {
            let character = characters[index]
            defer { index += 1 }
            if ending != nil, character != " ", character != ")" {
                throw bad("nothing can follow the end of a stream", index)
            }
            switch character {
            case " ":
                // A time span stands between spaces: " 100ms ".
                let rest = characters[(index + 1)...].prefix { $0 != " " }
                if let span = timeSpan(String(rest)), group == nil {
                    time += span
                    index += rest.count
                }
            case "-":
                guard group == nil else { throw bad("a frame cannot pass inside a group", index) }
                time += frame
            case "^":
                guard origin == nil, group == nil else { throw bad("a second ^", index) }
                origin = time
            case "(":
                guard group == nil else { throw bad("groups do not nest", index) }
                group = time
            case ")":
                guard group != nil else { throw bad("a ) without its (", index) }
                group = nil
                time += frame
            case "|", "#":
                ending = (time, character == "#", index)
                if group == nil { time += frame }
            default:
                guard character.isLetter || character.isNumber else {
                    throw bad("\"\(character)\" is not a marble", index)
                }
                let value =
                    values[character]
                    ?? (character.wholeNumberValue.map(StreamValue.integer) ?? .string(String(character)))
                items.append((time, value, index))
                if group == nil { time += frame }
            }
        }
        guard group == nil else { throw bad("a ( without its )", characters.count - 1) }
        let start = origin ?? 0
        var previous = 0.0
        var stream: [StreamItem] = []
        // Sums of frames and spans are rounded to the microsecond, so 0.1 * 6 is 0.6.
        func clean(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }
        func check(_ time: Double, _ offset: Int) throws(StreamError) {
            guard time - start <= StreamDocument.maximumSeconds else {
                throw bad("the diagram reaches past \(Int(StreamDocument.maximumSeconds)) seconds", offset)
            }
        }
        for item in items where item.time >= start {
            try check(item.time, item.offset)
            let at = clean(item.time - start)
            stream.append(StreamItem(item.value, delay: clean(at - previous)))
            previous = at
        }
        let end: StreamDefinition.Ending
        switch ending {
        case nil: end = .never
        case let (time, failed, offset)?:
            try check(time, offset)
            let after = max(clean(time - start - previous), 0)
            end = failed ? .failed(after: after, message: "failed") : .finished(after: after)
        }
        return StreamDefinition(id: id, items: stream, ending: end)
    }

    /// `events` as marbles, `frame` seconds per character. Values that are not one letter or
    /// digit are written as letters from `a` not otherwise in use, and ``Printed/values`` says
    /// which is which.
    ///
    /// - Throws: ``StreamError`` when `frame` is not a positive number of seconds, or when the
    ///   events span more than ``maximumFrames`` frames.
    public static func print(_ events: [Timeline.Event], frame: Double = 1) throws(StreamError) -> Printed {
        var table: [Character: StreamValue] = [:]
        let marbles = try print(events, frame: frame, table: &table, reserved: literals(in: events))
        return Printed(marbles: marbles, values: table)
    }

    /// Checks that `frame` is a positive number of seconds.
    static func checkFrame(_ frame: Double) throws(StreamError) {
        guard frame > 0, frame.isFinite else {
            throw StreamError(
                .badValue("a frame must be a positive number of seconds, not \(frame)"),
                path: "frame"
            )
        }
    }

    /// Checks that `frame` is a positive number of seconds and that a diagram lasting
    /// `duration` seconds takes at most ``maximumFrames`` frames.
    public static func checkFrame(_ frame: Double, duration: Double) throws(StreamError) {
        try checkFrame(frame)
        guard (duration / frame).rounded() <= Double(maximumFrames) else {
            throw StreamError(
                .badValue(
                    "drawing \(duration) seconds at \(frame) seconds a frame takes more than \(maximumFrames) "
                        + "frames; the frame must be at least \(duration / Double(maximumFrames)) seconds"
                ),
                path: "frame"
            )
        }
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
    private static func literal(_ value: StreamValue) -> Character? {
        let text = value.description
        guard text.count == 1, let character = text.first, character.isLetter || character.isNumber,
            StreamValue(marble: character) == value
        else { return nil }
        return character
    }

    /// Prints with a table shared by several lanes; new stand-ins avoid `reserved`.
    static func print(
        _ events: [Timeline.Event],
        frame: Double,
        table: inout [Character: StreamValue],
        reserved: Set<Character>
    ) throws(StreamError) -> String {
        try checkFrame(frame, duration: events.map(\.time).max() ?? 0)
        func symbol(_ kind: Timeline.Kind) -> Character {
            switch kind {
            case .finished: return "|"
            case .failure: return "#"
            case .value(let value):
                if let character = literal(value) { return character }
                if let known = table.first(where: { $0.value == value })?.key { return known }
                let letter =
                    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".first {
                        table[$0] == nil && !reserved.contains($0)
                    } ?? "?"
                table[letter] = value
                return letter
            }
        }
        var frames: [Int: [Character]] = [:]
        for event in events {
            frames[Int((event.time / frame).rounded()), default: []].append(symbol(event.kind))
        }
        var text = ""
        var position = 0
        for index in frames.keys.sorted() {
            text += String(repeating: "-", count: max(index - position, 0))
            let marks = frames[index]!
            text += marks.count == 1 ? String(marks) : "(\(String(marks)))"
            position = index + 1
        }
        return text
    }

    /// A printed diagram and what its stand-in letters mean.
    public struct Printed: Sendable, Hashable, CustomStringConvertible {
        public var marbles: String
        public var values: [Character: StreamValue]
        public var description: String { marbles }
    }

    /// `100ms`, `2s`, `1.5s` in seconds.
    static func timeSpan(_ text: String) -> Double? {
        if text.hasSuffix("ms"), let value = Double(text.dropLast(2)), value >= 0 { return value / 1_000 }
        if text.hasSuffix("s"), let value = Double(text.dropLast()), value >= 0 { return value }
        return nil
    }
}

extension StreamValue {
    /// The value a lone marble character stands for without a table.
    init(marble: Character) {
        self = marble.wholeNumberValue.map(StreamValue.integer) ?? .string(String(marble))
    }
}
