import Foundation

/// Draws a timeline as a self-contained SVG marble diagram: a lane per stream and node, a
/// time axis, a labelled marble per value, a bar for completion and a cross for failure. Each
/// lane is headed by its name, the operator that produces it and the lanes it reads. The
/// picture has a title and a description for screen readers.
///
/// No two marbles of a lane overlap: values close in time stack in up to three rows, the time
/// axis widens until a crowded lane fits, and a marble that still has to move aside is tied
/// to its moment by a thin line. A shortened label keeps the whole value in its hover title.
public enum SVGRenderer {
    /// The size of a value's text, in pixels at the diagram's own size.
    public static let valueFontSize = 13.0
    /// The widest a diagram grows to keep a crowded lane apart, in pixels.
    public static let maximumWidth = 24_000.0

    /// Draws `timeline`, a run of `document`, as the text of an SVG image.
    ///
    /// - Parameters:
    ///   - timeline: The run to draw.
    ///   - document: The document that ran, whose nodes head their lanes with their operators
    ///     and inputs, and whose description describes the picture.
    ///   - title: The picture's title; by default the document's name, or "Stream pipeline".
    /// - Returns: A self-contained SVG document.
    public static func render(_ timeline: Timeline, document: StreamDocument, title: String? = nil) -> String
    {
        let headings = Self.headings(timeline, document: document)
        let left = min(360, max(150, headings.map(\.width).max() ?? 0) + 28)
        let right = 60.0
        let top = 48.0
        let duration = max(timeline.duration, 1)
        let lanes = Dictionary(grouping: timeline.events, by: \.lane)
        var scale = max(60.0, min(160.0, 720.0 / duration))
        var layouts = timeline.lanes.map { Layout(lanes[$0] ?? [], left: left, scale: scale) }
        // Widening the axis parts values that share little time. Values of one moment stay
        // together however wide it grows, so widening stops once it no longer helps, or at the
        // widest drawing; what is left moves aside.
        while let crowded = layouts.map(\.drift).max(), crowded > Layout.tolerated,
            left + duration * scale * 1.6 + right <= maximumWidth
        {
            let wider = timeline.lanes.map { Layout(lanes[$0] ?? [], left: left, scale: scale * 1.6) }
            guard (wider.map(\.drift).max() ?? 0) < crowded - 1 else { break }
            scale *= 1.6
            layouts = wider
        }
        let reach = layouts.map(\.right).max() ?? 0
        let width = max(left + duration * scale + right, reach + right)
        var laneTops: [Double] = []
        var y = top
        for layout in layouts {
            laneTops.append(y)
            y += layout.height
        }
        let height = y + 44
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
        for (index, lane) in timeline.lanes.enumerated() {
            let layout = layouts[index]
            let laneTop = laneTops[index]
            let line = laneTop + Layout.firstRow
            if index > 0 {
                svg += """
                    <line x1="8" y1="\(format(laneTop))" x2="\(format(width - 8))" y2="\(format(laneTop))" stroke="#eee"/>

                    """
            }
            svg += "<g class=\"lane\" data-lane=\"\(escape(lane))\">"
            svg += heading(headings[index], top: laneTop, room: left - 24)
            svg += """
                <line x1="\(format(left))" y1="\(format(line))" x2="\(format(width - right / 2))" y2="\(format(line))" \
                stroke="#999" stroke-width="1.5" marker-end="url(#arrow)"/>

                """
            for placed in layout.placed {
                let cy = line + Double(placed.row) * Layout.rowHeight
                let moment = x(placed.event.time)
                if placed.row > 0 || abs(placed.cx - moment) > 0.5 {
                    svg += """
                        <line class="tie" x1="\(format(moment))" y1="\(format(line))" x2="\(format(placed.cx))" \
                        y2="\(format(cy))" stroke="#d6a74a" stroke-width="1"/>

                        """
                }
            }
            for placed in layout.placed {
                let cy = line + Double(placed.row) * Layout.rowHeight
                let time = placed.event.time
                switch placed.event.kind {
                case .value(let value):
                    svg += Self.value(
                        value.description,
                        marble: placed.marble,
                        cx: placed.cx,
                        y: cy,
                        time: time
                    )
                case .finished:
                    svg += """
                        <line x1="\(format(placed.cx))" y1="\(format(cy - 14))" x2="\(format(placed.cx))" y2="\(format(cy + 14))" \
                        stroke="#111" stroke-width="3"><title>finished at \(format(time))s</title></line>

                        """
                case .failure(let message):
                    let cx = placed.cx
                    svg += """
                        <g stroke="#dc2626" stroke-width="3"><title>failed at \(format(time))s: \(escape(message))</title>\
                        <line x1="\(format(cx - 9))" y1="\(format(cy - 9))" x2="\(format(cx + 9))" y2="\(format(cy + 9))"/>\
                        <line x1="\(format(cx - 9))" y1="\(format(cy + 9))" x2="\(format(cx + 9))" y2="\(format(cy - 9))"/></g>

                        """
                }
            }
            svg += "</g>\n"
        }
        let axis = height - 30
        svg += """
            <line x1="\(format(left))" y1="\(format(axis))" x2="\(format(x(duration)))" y2="\(format(axis))" stroke="#555"/>

            """
        let step = tickStep(scale: scale)
        var tick = 0
        while Double(tick) * step <= duration + 0.0001 {
            let time = (Double(tick) * step * 1000).rounded() / 1000
            svg += """
                <line x1="\(format(x(time)))" y1="\(format(axis - 4))" x2="\(format(x(time)))" y2="\(format(axis + 4))" stroke="#555"/>\
                <text x="\(format(x(time)))" y="\(format(axis + 18))" text-anchor="middle" font-size="12" fill="#555">\(format(time))s</text>

                """
            tick += 1
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
        return (label, label.count <= 3 ? 30 : Double(label.count) * 8 + 16)
    }

    /// Seconds between labelled ticks: a round step at least 70 pixels wide.
    static func tickStep(scale: Double) -> Double {
        var magnitude = 0.001
        while true {
            for factor in [1.0, 2.0, 5.0] where magnitude * factor * scale >= 70 {
                return magnitude * factor
            }
            magnitude *= 10
        }
    }

    /// What heads a lane: its name; for a node, the operator and the lanes it reads; and, for a
    /// crowded lane, how many values it has.
    struct Heading {
        var lines: [(text: String, size: Double, weight: String, color: String)]
        var operatorLabel: String?

        var width: Double {
            lines.map { Double($0.text.count) * $0.size * 0.56 }.max() ?? 0
        }
    }

    static func headings(_ timeline: Timeline, document: StreamDocument) -> [Heading] {
        let elements = document.elements
        let counts = Dictionary(grouping: timeline.events.filter { !$0.kind.isEnd }, by: \.lane).mapValues(
            \.count
        )
        return timeline.lanes.map { lane in
            var heading = Heading(lines: [(lane, 13, "600", "#222")])
            if case .node(let node)? = elements[lane] {
                let label = node.operator.label
                heading.operatorLabel = label
                heading.lines.append(("= \(label)", 12, "400", "#3730a3"))
                let inputs = node.inputs.joined(separator: ", ")
                heading.lines.append(("← \(inputs)", 12, "400", "#666"))
            }
            if let count = counts[lane], count >= 20 {
                heading.lines.append(("\(count) values", 11, "400", "#666"))
            }
            return heading
        }
    }

    private static func heading(_ heading: Heading, top: Double, room: Double) -> String {
        var svg = ""
        if let label = heading.operatorLabel { svg += "<g aria-label=\"operator \(escape(label))\">" }
        for (index, line) in heading.lines.enumerated() {
            let fits = max(4, Int(room / (line.size * 0.56)))
            let shown = line.text.count > fits ? String(line.text.prefix(fits - 1)) + "…" : line.text
            svg += """
                <text x="16" y="\(format(top + 18 + Double(index) * 15))" font-size="\(format(line.size))" \
                font-weight="\(line.weight)" fill="\(line.color)"><title>\(escape(line.text))</title>\(escape(shown))</text>
                """
        }
        if heading.operatorLabel != nil { svg += "</g>" }
        return svg + "\n"
    }

    /// Where each event of one lane is drawn.
    struct Layout {
        struct Placed {
            var event: Timeline.Event
            var marble: (label: String, width: Double)
            var cx: Double
            var row: Int
        }

        /// The centre of the first row, below the lane's top.
        static let firstRow = 26.0
        static let rowHeight = 34.0
        static let rows = 3
        static let gap = 4.0
        /// How far a marble may move aside before the axis is widened.
        static let tolerated = 12.0

        var placed: [Placed] = []
        var rowsUsed = 1
        var drift = 0.0

        init(_ events: [Timeline.Event], left: Double, scale: Double) {
            var ends = [Double](repeating: -.infinity, count: Self.rows)
            for event in events {
                let moment = left + event.time * scale
                switch event.kind {
                case .value(let value):
                    let marble = SVGRenderer.marble(value.description)
                    let half = marble.width / 2
                    let row =
                        ends.firstIndex { $0 + Self.gap <= moment - half }
                        ?? ends.indices.min { ends[$0] < ends[$1] }!
                    let cx = max(moment, ends[row] + Self.gap + half)
                    ends[row] = cx + half
                    drift = max(drift, cx - moment)
                    rowsUsed = max(rowsUsed, row + 1)
                    placed.append(Placed(event: event, marble: marble, cx: cx, row: row))
                case .finished, .failure:
                    let half = 10.0
                    let cx = max(moment, ends[0] + Self.gap + half)
                    ends[0] = cx + half
                    placed.append(Placed(event: event, marble: ("", 2 * half), cx: cx, row: 0))
                }
            }
        }

        var right: Double { placed.map { $0.cx + $0.marble.width / 2 }.max() ?? 0 }

        var height: Double { max(66, Self.firstRow + Double(rowsUsed - 1) * Self.rowHeight + 26) }
    }

    private static func value(
        _ text: String,
        marble: (label: String, width: Double),
        cx: Double,
        y: Double,
        time: Double
    ) -> String {
        let width = marble.width
        let shape =
            width <= 30
            ? "<circle cx=\"\(format(cx))\" cy=\"\(format(y))\" r=\"15\" "
            : "<rect x=\"\(format(cx - width / 2))\" y=\"\(format(y - 13))\" width=\"\(format(width))\" height=\"26\" rx=\"13\" "
        return """
            <g class="value"><title>\(escape(text)) at \(format(time))s</title>\
            \(shape)fill="#fde68a" stroke="#b45309" stroke-width="1.5"/>\
            <text x="\(format(cx))" y="\(format(y + 4.5))" text-anchor="middle" font-size="\(format(valueFontSize))" fill="#111">\(escape(marble.label))</text></g>

            """
    }

    /// `value` with at most two decimals and no trailing zeros or point, as SVG reads numbers.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// `text` as XML character data or an attribute value: the markup characters escaped, and
    /// the characters XML 1.0 does not allow at all — controls but tab, line feed and carriage
    /// return, and U+FFFE and U+FFFF — replaced by U+FFFD, so that any value draws as a
    /// well-formed document.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                escaped.unicodeScalars.append("\u{FFFD}")
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
