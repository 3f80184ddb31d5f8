import Foundation
import TributaryLabWire
import TributaryStreams

/// A recording's lanes as a stream document: one stream per lane, holding the values of the
/// lane's first subscription at the times they were recorded, and ending as that subscription
/// ended — finished, failed, or never when it was still running or was cancelled.
///
/// Later subscriptions of a lane run the same pipeline again, so the first stands for them.
/// Time 0 is the earliest event of the chosen lanes; a `frame` rounds every time to a multiple
/// of it, as marbles count time in frames.
enum RecordingDocument {
    /// One lane's first subscription: its values at their times, and its end if it ended.
    struct Lane {
        var name: String
        var values: [(t: Double, value: String)]
        var end: (t: Double, error: String?)?
    }

    /// The first subscription of each of `names` among `events`, times measured from the
    /// earliest of them and rounded to `frame`.
    static func lanes(_ names: [String], of events: [RecordedLaneEvent], frame: Double?) -> [Lane] {
        let origin = events.filter { names.contains($0.lane) }.map(\.t).min() ?? 0
        func time(_ t: Double) -> Double {
            let since = max(0, t - origin)
            guard let frame, frame > 0 else { return since }
            return (since / frame).rounded() * frame
        }
        return names.map { name in
            let own = events.filter { $0.lane == name }
            let first = own.map(\.subscription).min()
            var lane = Lane(name: name, values: [], end: nil)
            for event in own where event.subscription == first && lane.end == nil {
                switch event.kind {
                case .value: lane.values.append((time(event.t), event.value ?? ""))
                case .finished: lane.end = (time(event.t), nil)
                case .failed: lane.end = (time(event.t), event.error ?? "failed")
                case .subscribed, .requested, .cancelled: break
                }
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
                items.append(StreamItem(value(text), delay: max(0, t - previous)))
                previous = max(previous, t)
            }
            let ending: StreamDefinition.Ending
            switch lane.end {
            case .none: ending = .never
            case .some((let t, nil)): ending = .finished(after: max(0, t - previous))
            case .some((let t, let error?)): ending = .failed(after: max(0, t - previous), message: error)
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

    /// A recorded value's description as a stream value: a JSON number or boolean as such,
    /// anything else as text.
    static func value(_ text: String) -> StreamValue {
        if let read = try? JSONDecoder().decode(StreamValue.self, from: Data(text.utf8)) {
            switch read {
            case .integer, .decimal, .boolean: return read
            case .string, .list: break
            }
        }
        return .string(text)
    }
}
