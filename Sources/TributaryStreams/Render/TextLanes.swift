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
    public static func render(_ timeline: Timeline, document: StreamDocument, frame: Double = 1) -> String {
        var legend: [Character: StreamValue] = [:]
        let reserved = Marbles.literals(in: timeline.events)
        var rows: [(String, String)] = []
        for lane in timeline.lanes {
            let marbles = Marbles.print(
                timeline.events(in: lane),
                frame: frame,
                table: &legend,
                reserved: reserved
            )
            var title = lane
            if case .node(let node)? = document.element(lane) {
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
            lines.append(
                "where " + legend.keys.sorted().map { "\($0) = \(legend[$0]!)" }.joined(separator: ", ")
            )
        }
        if timeline.isTruncated { lines.append("(stopped by a guard before every lane ended)") }
        return lines.joined(separator: "\n")
    }
}
