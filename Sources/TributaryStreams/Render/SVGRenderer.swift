import Foundation

/// Draws a timeline as a self-contained SVG marble diagram: a lane per stream and node, a
/// time axis, a labelled marble per value, a bar for completion and a cross for failure, and
/// the operator of each node in a box above its lane. The picture has a title and a
/// description for screen readers.
public enum SVGRenderer {
    public static func render(_ timeline: Timeline, document: StreamDocument, title: String? = nil) -> String
    {
        let laneHeight = 56.0
        let left = 180.0
        let right = 90.0
        let top = 50.0
        let duration = max(timeline.duration, 1)
        let scale = max(60.0, min(160.0, 720.0 / duration))
        let width = left + duration * scale + right
        let height = top + Double(timeline.lanes.count) * laneHeight + 50
        let name = title ?? document.name ?? "Stream pipeline"
        let summary =
            document.description
            ?? "Marble diagram of \(timeline.lanes.count) lanes over \(format(duration)) seconds."
        func x(_ time: Double) -> Double { left + time * scale }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(format(width))" height="\(format(height))" \
            viewBox="0 0 \(format(width)) \(format(height))" role="img" aria-labelledby="title desc" \
            font-family="-apple-system, Helvetica, Arial, sans-serif" font-size="13">
            <title id="title">\(escape(name))</title>
            <desc id="desc">\(escape(summary))</desc>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="16" y="28" font-size="16" font-weight="600" fill="#111">\(escape(name))</text>

            """
        let elements = document.elements
        let lanes = Dictionary(grouping: timeline.events, by: \.lane)
        for (index, lane) in timeline.lanes.enumerated() {
            let y = top + Double(index) * laneHeight + laneHeight / 2 + 8
            if case .node(let node)? = elements[lane] {
                let op =
                    node.operator.label
                    + (node.operator.joins ? "(\(node.inputs.joined(separator: ", ")))" : "")
                let boxWidth = Double(op.count) * 7 + 16
                svg += """
                    <g aria-label="operator \(escape(op))"><rect x="\(format(left))" y="\(format(y - 40))" \
                    width="\(format(boxWidth))" height="18" rx="4" fill="#eef2ff" stroke="#6366f1"/>\
                    <text x="\(format(left + 8))" y="\(format(y - 27))" font-size="11" fill="#3730a3">\(escape(op))</text></g>

                    """
            }
            svg += """
                <text x="16" y="\(format(y + 4))" fill="#333">\(escape(lane))</text>
                <line x1="\(format(left))" y1="\(format(y))" x2="\(format(width - right / 2))" y2="\(format(y))" \
                stroke="#999" stroke-width="1.5" marker-end="url(#arrow)"/>

                """
            // Events in one frame stand side by side, the value first and the end after it, so
            // that neither hides the other.
            var frame: (time: Double, right: Double)?
            for event in lanes[lane] ?? [] {
                var cx = x(event.time)
                let sameFrame = frame.map { abs($0.time - event.time) < 1e-9 } ?? false
                switch event.kind {
                case .value(let value):
                    let text = value.description
                    let marble = Self.marble(text)
                    if sameFrame, let frame { cx = frame.right + 3 + marble.width / 2 }
                    svg += Self.value(
                        text,
                        shown: marble.label,
                        width: marble.width,
                        cx: cx,
                        y: y,
                        time: event.time
                    )
                    frame = (event.time, cx + marble.width / 2)
                case .finished:
                    if sameFrame, let frame { cx = frame.right + 6 }
                    svg += """
                        <line x1="\(format(cx))" y1="\(format(y - 14))" x2="\(format(cx))" y2="\(format(y + 14))" \
                        stroke="#111" stroke-width="3"><title>finished at \(format(event.time))s</title></line>

                        """
                case .failure(let message):
                    if sameFrame, let frame { cx = frame.right + 12 }
                    svg += """
                        <g stroke="#dc2626" stroke-width="3"><title>failed at \(format(event.time))s: \(escape(message))</title>\
                        <line x1="\(format(cx - 9))" y1="\(format(y - 9))" x2="\(format(cx + 9))" y2="\(format(y + 9))"/>\
                        <line x1="\(format(cx - 9))" y1="\(format(y + 9))" x2="\(format(cx + 9))" y2="\(format(y - 9))"/></g>

                        """
                }
            }
        }
        let axis = height - 30
        svg += """
            <line x1="\(format(left))" y1="\(format(axis))" x2="\(format(x(duration)))" y2="\(format(axis))" stroke="#555"/>

            """
        var tick = 0.0
        let step = duration > 20 ? (duration / 10).rounded(.up) : 1
        while tick <= duration + 0.0001 {
            svg += """
                <line x1="\(format(x(tick)))" y1="\(format(axis - 4))" x2="\(format(x(tick)))" y2="\(format(axis + 4))" stroke="#555"/>\
                <text x="\(format(x(tick)))" y="\(format(axis + 18))" text-anchor="middle" font-size="11" fill="#555">\(format(tick))s</text>

                """
            tick += step
        }
        svg += """
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto">\
            <path d="M0,0 L10,5 L0,10 z" fill="#999"/></marker></defs>
            </svg>

            """
        return svg
    }

    /// The most characters a marble shows; a longer value is cut, and shown whole on hover.
    static let longestLabel = 14

    /// A value's marble: a circle for up to three characters, else a pill that fits the label.
    static func marble(_ text: String) -> (label: String, width: Double) {
        let label = text.count > longestLabel ? String(text.prefix(longestLabel - 1)) + "…" : text
        return (label, label.count <= 3 ? 26 : Double(label.count) * 6.6 + 14)
    }

    private static func value(
        _ text: String,
        shown: String,
        width: Double,
        cx: Double,
        y: Double,
        time: Double
    ) -> String {
        let shape =
            width <= 26
            ? "<circle cx=\"\(format(cx))\" cy=\"\(format(y))\" r=\"13\" "
            : "<rect x=\"\(format(cx - width / 2))\" y=\"\(format(y - 13))\" width=\"\(format(width))\" height=\"26\" rx=\"13\" "
        return """
            <g><title>\(escape(text)) at \(format(time))s</title>\
            \(shape)fill="#fde68a" stroke="#b45309" stroke-width="1.5"/>\
            <text x="\(format(cx))" y="\(format(y + 4))" text-anchor="middle" font-size="11" fill="#111">\(escape(shown))</text></g>

            """
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
