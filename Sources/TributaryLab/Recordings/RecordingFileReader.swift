import Foundation
import Tributary
import TributaryLabWire
import TributaryStreams

/// Reads a recording's file a line at a time, as it arrives, and refuses the first line that is
/// wrong, naming it: a header that is no header or of another version, a line that is not UTF-8
/// or not an event, an event out of time order, a subscription that begins twice, more events
/// than a recording keeps, or a file that ends before the events its header promises. An event
/// after its subscription ended is read as it is: a publisher that sends past its end is what a
/// recording shows, and the lab exports it so. It holds one line, and a mark per subscription,
/// never the file.
struct RecordingFileReader {
    /// What was wrong, and on which line (counted from 1).
    struct Refusal: Error, Equatable {
        var line: Int
        var message: String
    }

    /// The longest line read: an event whose four texts are as long as they may be, each
    /// character written as a 12-byte escaped surrogate pair, and whose structure is as long as
    /// it may be, each byte written as a 6-byte escape, with room for its other fields.
    static let longestLine = 4 * RecordedLaneEvent.longestText * 12 + 6 * LaneEncoding.labLimit + 1_024

    static let notAnEvent =
        "is not an event, {\"kind\",\"lane\",\"subscription\",\"t\",\"source\"} with \"value\", \"error\" or \"demand\" as its kind needs."

    /// The most events a file may hold: what a recording keeps.
    let cap: Int
    private(set) var header: RecordingFileHeader?
    /// The lines read so far.
    private(set) var lines = 0
    private(set) var events = 0
    /// Each subscription seen, by lane and number: when its latest event happened. A
    /// subscription's events are in time order; a recording's need not be, as several
    /// recorders storing into one recording interleave their times.
    private var subscriptions: [Subscription: Double] = [:]

    private struct Subscription: Hashable {
        var lane: String
        var number: Int
    }

    init(cap: Int) {
        self.cap = cap
    }

    /// Reads the next line, without its newline: the header first, then an event each; nil
    /// for the header, the event otherwise.
    mutating func read(_ line: some Collection<UInt8>) throws(Refusal) -> RecordedLaneEvent? {
        lines += 1
        guard line.count <= Self.longestLine else {
            throw refusal("is longer than a line of a recording's file can be (\(Self.longestLine) bytes).")
        }
        guard String(validating: line, as: UTF8.self) != nil else {
            throw refusal("is not UTF-8 text.")
        }
        guard let header else {
            self.header = try readHeader(Data(line))
            return nil
        }
        guard !line.isEmpty else { throw refusal("is empty; each line holds one event.") }
        guard events < header.events else {
            throw refusal(
                "is one event more than the \(header.events) the first line promises."
            )
        }
        let event: RecordedLaneEvent
        do {
            event = try RecordedLaneEvent(json: Data(line))
        } catch let error as DecodingError {
            let problem = DecodingProblem(error)
            guard problem.path != "$" else { throw refusal(Self.notAnEvent) }
            throw refusal("is not an event: \(problem.message) (at \(problem.path))")
        } catch {
            throw refusal(Self.notAnEvent)
        }
        if let (problem, field) = RecordingIngestController.problem(with: event) {
            throw refusal("has an event the lab does not take: \(problem) (at $\(field))")
        }
        let key = Subscription(lane: event.lane, number: event.subscription)
        switch (event.kind, subscriptions[key]) {
        case (.subscribed, .some):
            throw refusal("begins subscription #\(event.subscription) of lane “\(event.lane)” a second time.")
        case (_, let last?) where event.t < last:
            throw refusal(
                "happened at \(event.t) s, before an earlier line of subscription #\(event.subscription) of lane “\(event.lane)” (\(last) s): a subscription's events are in the order they happened."
            )
        default:
            subscriptions[key] = event.t
        }
        events += 1
        return event
    }

    /// Checks that the file held what its header promised, once its last line is read.
    func finish() throws(Refusal) {
        guard let header else {
            throw Refusal(line: 1, message: "The file is empty: its first line names its format.")
        }
        guard events == header.events else {
            throw Refusal(
                line: lines + 1,
                message:
                    "Line \(lines + 1) is missing: the file ends after \(events) of the \(header.events) events its first line promises, so it was cut short."
            )
        }
    }

    private func readHeader(_ line: Data) throws(Refusal) -> RecordingFileHeader {
        let shape =
            "is not a recording's first line, {\"format\":\"\(RecordingFileHeader.formatName)\",\"version\":\(RecordingFileHeader.currentVersion),\"name\",\"events\",\"dropped\"}"
        guard !JSONNesting.exceeds(line, limit: 2),
            let header = try? JSONDecoder().decode(RecordingFileHeader.self, from: line)
        else { throw refusal("\(shape).") }
        guard header.format == RecordingFileHeader.formatName else {
            throw refusal(
                "names the format “\(header.format)”; a recording's file is “\(RecordingFileHeader.formatName)”."
            )
        }
        guard header.version == RecordingFileHeader.currentVersion else {
            throw refusal(
                "is of version \(header.version) of the format; this lab reads version \(RecordingFileHeader.currentVersion)."
            )
        }
        if let problem = Recordings.problem(withName: header.name) {
            throw refusal("names the recording badly: \(problem)")
        }
        guard (0...cap).contains(header.events) else {
            throw refusal("promises \(header.events) events; a recording keeps from 0 to \(cap).")
        }
        guard (0...RecordingIngestController.largestCount).contains(header.dropped) else {
            throw refusal("gives dropped as \(header.dropped); it is a count of events.")
        }
        return header
    }

    private func refusal(_ rest: String) -> Refusal {
        Refusal(line: lines, message: "Line \(lines) \(rest)")
    }
}
