import Foundation

/// Draws timelines as text, one aligned lane per stream and node.
public enum TextLanes {
    /// Every lane of `timeline` as marbles under one time scale, with what each node does and
    /// which letters stand for longer values.
    ///
    /// ```
    /// numbers                      -1234|
    /// doubled = map($0 * 2)        -2468|
    /// ```
    ///
    /// A group takes as many frames as it has characters, as in RxJS; when a group would cover
    /// the event after it, the lanes are drawn at a shorter frame that fits, and a last line
    /// says so. A stretch of more than ``Marbles/spanFrames`` frames in which no lane has an
    /// event is written as a time span in every lane that passes through it, so the lanes stay
    /// aligned and a quiet day takes a few characters:
    ///
    /// ```
    /// n                     1-(2|)
    /// late = delay(86000s)  ------ 85994s 1-(2|)
    /// ```
    ///
    /// - Throws: ``StreamError`` when `frame` is not a positive number of seconds, when the
    ///   timeline reaches past ``Marbles/maximumReach`` frames or a lane would write more than
    ///   ``Marbles/maximumFrames`` of them as dashes, or when the lanes would take more than
    ///   `maximumBytes`, which is checked as they are printed, before the limit is spent.
    public static func render(
        _ timeline: Timeline,
        document: StreamDocument,
        frame: Double = 1,
        maximumBytes: Int = .max
    ) throws(StreamError) -> String {
        try draw(timeline, document: document, frame: frame, maximumBytes: maximumBytes).text
    }

    /// Lanes drawn by ``render(_:document:frame:maximumBytes:)``, and the values their
    /// stand-ins stand for, as a table ``Marbles/read(_:frame:values:)`` takes.
    public struct Drawing: Sendable, Hashable {
        /// The lanes, the legend and the notes under them.
        public var text: String
        /// What each stand-in means; `#` is the failures' messages.
        public var values: [Character: StreamValue]
    }

    /// ``render(_:document:frame:maximumBytes:)`` with the table of its stand-ins, so that a
    /// lane can be read back with its values.
    ///
    /// - Throws: ``StreamError`` as ``render(_:document:frame:maximumBytes:)`` does.
    public static func draw(
        _ timeline: Timeline,
        document: StreamDocument,
        frame: Double = 1,
        maximumBytes: Int = .max
    ) throws(StreamError) -> Drawing {
        let elements = document.elements
        var titles: [String: String] = [:]
        for lane in timeline.lanes {
            guard case .node(let node)? = elements[lane] else { continue }
            var title = "\(lane) = \(node.operator.label)"
            if node.operator.joins { title += "(\(node.inputs.joined(separator: ", ")))" }
            titles[lane] = title
        }
        return try draw(timeline, titles: titles, frame: frame, maximumBytes: maximumBytes)
    }

    /// Every lane of `timeline` as marbles under one time scale, each after its title (its
    /// name where `titles` has none), with the table of the stand-ins, as
    /// ``draw(_:document:frame:maximumBytes:)`` draws them.
    ///
    /// - Throws: ``StreamError`` as ``render(_:document:frame:maximumBytes:)`` does.
    public static func draw(
        _ timeline: Timeline,
        titles: [String: String],
        frame: Double = 1,
        maximumBytes: Int = .max
    ) throws(StreamError) -> Drawing {
        try Marbles.checkFrame(frame, duration: timeline.duration)
        let lanes = Dictionary(grouping: timeline.events, by: \.lane)
        let drawn = try Marbles.drawableFrame(for: Array(lanes.values), from: frame)
        let layouts = timeline.lanes.map { Marbles.layout(lanes[$0] ?? [], frame: drawn) }
        let quiet = Marbles.quietStretches(in: layouts, frame: drawn)
        var legend: [Character: StreamValue] = [:]
        let reserved = Marbles.literals(in: timeline.events)
        var rows: [(String, String)] = []
        var bytes = 0
        for (lane, layout) in zip(timeline.lanes, layouts) {
            let title = titles[lane] ?? lane
            bytes += title.utf8.count + 3
            let marbles = try Marbles.print(
                layout,
                frame: drawn,
                quiet: quiet,
                table: &legend,
                reserved: reserved,
                bytes: &bytes,
                maximumBytes: maximumBytes
            )
            rows.append((title, marbles))
        }
        let width = rows.map(\.0.count).max() ?? 0
        var lines = rows.map { title, marbles in
            title.padding(toLength: width + 2, withPad: " ", startingAt: 0) + marbles
        }
        if !legend.isEmpty {
            lines.append("")
            lines += Self.legend(legend, inOrderOf: rows.map(\.1))
        }
        if drawn != frame {
            lines.append(
                "(drawn at \(drawn) seconds a frame: at \(frame), a group would cover the event after it)"
            )
        }
        if timeline.isTruncated { lines.append("(stopped by a guard before every lane ended)") }
        let text = lines.joined(separator: "\n")
        guard text.utf8.count <= maximumBytes else {
            throw StreamError(.outputTooLarge(bytes: text.utf8.count, limit: maximumBytes), path: "$")
        }
        return Drawing(text: text, values: legend)
    }

    /// The widest line of a legend, in characters.
    static let legendWidth = 100

    /// What each stand-in means, in the order the stand-ins first appear in the lanes, so that
    /// a reader meets them as the diagram does, whichever scripts they come from; the entries
    /// wrap rather than run on in one line, however many values there are.
    static func legend(_ legend: [Character: StreamValue], inOrderOf lanes: [String]) -> [String] {
        var order: [Character] = []
        var seen: Set<Character> = []
        for character in lanes.joined() where legend[character] != nil && seen.insert(character).inserted {
            order.append(character)
        }
        order += legend.keys.filter { !seen.contains($0) }.sorted()
        var lines: [String] = []
        var line = "where"
        for (index, character) in order.enumerated() {
            let entry = "\(character) = \(legend[character]!)" + (index < order.count - 1 ? "," : "")
            if line.count + 1 + entry.count > legendWidth, line != "where" {
                lines.append(line)
                line = "     " + entry
            } else {
                line += " " + entry
            }
        }
        lines.append(line)
        return lines
    }
}
