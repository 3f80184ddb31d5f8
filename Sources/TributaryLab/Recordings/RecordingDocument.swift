import Foundation
import TributaryLabWire
import TributaryStreams

/// A recording's lanes as a stream document: one stream per lane, holding the values of all the
/// lane's subscriptions at the times they were recorded, as `merge` would pass them on.
///
/// A lane with many subscriptions — one inside a `flatMap`, or before a `retry` — is everything
/// that went through that point of the pipeline, so none is left out. The stream ends as a merge
/// of the subscriptions would: failed at the first failure (nothing after it), finished when every
/// subscription finished, and never when one was cancelled or was still running. Time 0 is the
/// earliest event of the chosen lanes; a `frame` rounds every time to a multiple of it, as
/// marbles count time in frames.
enum RecordingDocument {
    /// One lane, its subscriptions merged: its values at their times, and its end if it ended.
    struct Lane {
        var name: String
        var values: [(t: Double, value: String)]
        var end: (t: Double, error: String?)?
    }

    /// Each of `names` among `events`, its subscriptions merged, times measured from the earliest
    /// of them and rounded to `frame`.
    static func lanes(_ names: [String], of events: [RecordedLaneEvent], frame: Double?) -> [Lane] {
        // One pass over the events, whatever the number of lanes: each lane's own, in order.
        let wanted = Set(names)
        let byLane = Dictionary(grouping: events.lazy.filter { wanted.contains($0.lane) }, by: \.lane)
        let origin = byLane.values.lazy.flatMap { $0.lazy.map(\.t) }.min() ?? 0
        func time(_ t: Double) -> Double {
            let since = max(0, t - origin)
            guard let frame, frame > 0 else { return since }
            return nanoseconds((since / frame).rounded() * frame)
        }
        return names.map { name in
            let own = byLane[name] ?? []
            var values: [(t: Double, value: String)] = []
            var failure: (t: Double, error: String)?
            var running = Set<Int>()
            var finished: Double?
            var cancelled = false
            for event in own {
                running.insert(event.subscription)
                switch event.kind {
                case .value: values.append((event.t, event.value ?? ""))
                case .finished:
                    running.remove(event.subscription)
                    finished = max(finished ?? event.t, event.t)
                case .failed:
                    running.remove(event.subscription)
                    if failure == nil || event.t < failure?.t ?? 0 {
                        failure = (event.t, event.error ?? "failed")
                    }
                case .cancelled:
                    running.remove(event.subscription)
                    cancelled = true
                case .subscribed, .requested: break
                }
            }
            // Threads stamp their events a little out of order; the merged lane is in time order.
            values = values.enumerated()
                .sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }
                .map(\.element)
            var lane = Lane(name: name, values: [], end: nil)
            if let failure {
                lane.values = values.filter { $0.t <= failure.t }.map { (time($0.t), $0.value) }
                lane.end = (time(failure.t), failure.error)
            } else {
                lane.values = values.map { (time($0.t), $0.value) }
                if let finished, running.isEmpty, !cancelled { lane.end = (time(finished), nil) }
            }
            return lane
        }
    }

    static func make(
        name: String,
        lanes names: [String],
        of events: [RecordedLaneEvent],
        frame: Double?
    ) throws(StreamError) -> StreamDocument {
        let streams = lanes(names, of: events, frame: frame).map { lane in
            var previous = 0.0
            var items: [StreamItem] = []
            for (t, text) in lane.values {
                items.append(StreamItem(value(text), delay: nanoseconds(max(0, t - previous))))
                previous = max(previous, t)
            }
            let ending: StreamDefinition.Ending
            switch lane.end {
            case .none: ending = .never
            case .some((let t, nil)): ending = .finished(after: nanoseconds(max(0, t - previous)))
            case .some((let t, let error?)):
                ending = .failed(after: nanoseconds(max(0, t - previous)), message: error)
            }
            return StreamDefinition(id: lane.name, items: items, ending: ending)
        }
        return try StreamDocument(
            name: name,
            description: "Recorded lanes \(names.joined(separator: ", ")).",
            streams: streams,
            nodes: []
        )
    }

    /// `seconds` to the nanosecond: frames times a count, and differences of times, carry binary
    /// noise (`0.30000000000000004`) that no recording holds.
    static func nanoseconds(_ seconds: Double) -> Double {
        let rounded = (seconds * 1e9).rounded() / 1e9
        return rounded.isFinite ? rounded : seconds
    }

    /// A recorded value's description as a stream value: a number or boolean when the
    /// description is exactly how one is written (`42`, `0.5`, `true`), anything else as text —
    /// `1.0`, `1e2`, ` 1`, `-0` or a number past what a value holds stay the text they were.
    static func value(_ text: String) -> StreamValue {
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default: break
        }
        // Only a short text that begins as a number is written can be one: the longest a value
        // holds is a double's 24 characters. The rest are not decoded at all.
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || (48...57).contains(first),
            text.utf8.count <= 32
        else { return .string(text) }
        if let read = try? JSONDecoder().decode(StreamValue.self, from: Data(text.utf8)) {
            switch read {
            case .integer, .decimal, .boolean:
                if let written = try? JSONEncoder().encode(read),
                    String(decoding: written, as: UTF8.self) == text
                {
                    return read
                }
            case .string, .list: break
            }
        }
        return .string(text)
    }
}
