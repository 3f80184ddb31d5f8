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
    /// says so.
    ///
    /// - Throws: ``StreamError`` when `frame` is not a positive number of seconds, when the
    ///   timeline spans more than ``Marbles/maximumFrames`` frames, or when the lanes would take
    ///   more than `maximumBytes`, which is checked before anything is printed.
    public static func render(
        _ timeline: Timeline,
        document: StreamDocument,
        frame: Double = 1,
        maximumBytes: Int = .max
    ) throws(StreamError) -> String {
        try Marbles.checkFrame(frame, duration: timeline.duration)
        let lanes = Dictionary(grouping: timeline.events, by: \.lane)
        let drawn = try Marbles.drawableFrame(for: Array(lanes.values), from: frame)
        // A lane is a column a frame, a few for each event, and its title: an upper bound that
        // refuses a huge drawing before its memory is spent.
        let columns = Int((timeline.duration / drawn).rounded()) + 2
        let estimate =
            timeline.lanes.reduce(0) { $0 + $1.utf8.count + 32 + columns } + timeline.events.count * 8
        guard estimate <= maximumBytes else {
            throw StreamError(.outputTooLarge(bytes: estimate, limit: maximumBytes), path: "$")
        }
        var legend: [Character: StreamValue] = [:]
        let reserved = Marbles.literals(in: timeline.events)
        var rows: [(String, String)] = []
        let elements = document.elements
        for lane in timeline.lanes {
            let marbles = try Marbles.print(
                lanes[lane] ?? [],
                frame: drawn,
                table: &legend,
                reserved: reserved
            )
            var title = lane
            if case .node(let node)? = elements[lane] {
                title += " = \(node.operator.label)"
                if node.operator.joins { title += "(\(node.inputs.joined(separator: ", ")))" }
            }
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
        return lines.joined(separator: "\n")
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
