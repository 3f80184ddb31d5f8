/// Marble diagrams: streams written as strings, one character per frame, read and printed
/// exactly as RxJS's marble tests read them in run mode (where a frame is a millisecond).
///
/// `-` is a frame passing; any other character but `|#()^!` and spaces is a value (looked up
/// in a value table; otherwise a digit 0–9 is that integer and anything else a one-character
/// string); `|` completion; `#` failure; `( )` events in one frame, a group taking as many
/// frames as it has characters; spaces are ignored; `^` is frame zero of a hot stream and
/// takes a frame; `10ms `, `1.5s `, `2m ` after a space or at the start advance time by that
/// much. <doc:MarbleNotation> holds the whole notation and where it departs from RxJS.
///
/// ```swift
/// let stream = try Marbles.parse("-1-2-3|", frame: 1, id: "numbers")
/// try Marbles.print(timeline.events(in: "numbers"), frame: 1)   // "-1-2-3|"
/// ```
public enum Marbles {
    /// The most frames a printed lane writes as dashes; a wider diagram is of no use to read.
    /// Quiet stretches written as time spans do not count.
    public static let maximumFrames = 100_000

    /// The most frames a printed diagram may reach, time spans included: past this, a frame's
    /// number is no longer a whole number in a `Double`.
    public static let maximumReach = 1_000_000_000_000_000

    /// Reads `marbles` into a stream: what a subscriber sees when it subscribes at frame zero,
    /// or as `subscription` says.
    ///
    /// The diagram is read as a hot stream: frame zero is its `^`, or its first character.
    /// The subscriber sees the values from where it subscribes to where it unsubscribes, at
    /// their own times, as in RxJS; an end that came before it subscribed reaches it as it
    /// subscribes, as a finished subject tells a late subscriber.
    ///
    /// ```swift
    /// try Marbles.parse("-a-^-b-c-|", subscription: "--^-!")   // b at 2s, never ends
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram.
    ///   - subscription: A subscription diagram such as `--^---!`, whose frame zero is the
    ///     stream's; `nil` subscribes at frame zero for good.
    ///   - frame: Seconds per frame.
    ///   - values: Values for characters that stand for something else; `#` gives the
    ///     failure's message.
    ///   - id: The stream's id.
    /// - Throws: ``StreamError`` with the position of what is wrong, as ``read(_:frame:values:)``
    ///   and ``readSubscription(_:frame:)`` do.
    public static func parse(
        _ marbles: String,
        subscription: String? = nil,
        frame: Double = 1,
        values: [Character: StreamValue] = [:],
        id: String = "marbles"
    ) throws(StreamError) -> StreamDefinition {
        let events = try read(marbles, frame: frame, values: values)
        var start = 0.0
        var end: Double?
        if let subscription {
            let window = try readSubscription(subscription, frame: frame)
            guard let subscribed = window.start else {
                return StreamDefinition(id: id, items: [], ending: .never)
            }
            start = subscribed
            end = window.end
        }
        var items: [StreamItem] = []
        var ending = StreamDefinition.Ending.never
        var previous = 0.0
        for event in events {
            let seen = event.time >= start && end.map { event.time < $0 } ?? true
            switch event.kind {
            case .value(let value) where seen:
                items.append(StreamItem(value, delay: rounded(event.time - previous)))
                previous = event.time
            case .value:
                break
            case .finished where seen || event.time < start:
                ending = .finished(after: rounded(max(event.time, start) - previous))
            case .failure(let message) where seen || event.time < start:
                ending = .failed(after: rounded(max(event.time, start) - previous), message: message)
            case .finished, .failure:
                break
            }
        }
        return StreamDefinition(id: id, items: items, ending: ending)
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
    /// `duration` seconds reaches at most ``maximumReach`` frames.
    public static func checkFrame(_ frame: Double, duration: Double) throws(StreamError) {
        try checkFrame(frame)
        guard (duration / frame).rounded() <= Double(maximumReach) else {
            throw StreamError(
                .badValue(
                    "drawing \(duration) seconds at \(frame) seconds a frame takes more than \(maximumReach) "
                        + "frames; the frame must be at least \(duration / Double(maximumReach)) seconds"
                ),
                path: "frame"
            )
        }
    }

    /// A printed diagram and what its stand-in characters mean; `#` is the failure's message.
    public struct Printed: Sendable, Hashable, CustomStringConvertible {
        /// The diagram.
        public var marbles: String
        /// The value each stand-in character of ``marbles`` means; `#` the failure's message, or
        /// a list of messages when lanes fail differently.
        public var values: [Character: StreamValue]
        public var description: String { marbles }
    }
}
