import DequeModule
public import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
public import Tributary
import TributaryLabWire

/// A `LaneRecording` that sends every lane event of a running app to a lab, where everyone
/// watching the recording sees it live.
///
/// ```swift
/// Lanes.recorder = LabLaneRecorder(lab: URL(string: "http://127.0.0.1:8080")!, token: token,
///                                  recording: "search screen")
/// ```
///
/// Recording never holds up the thread that sends a value: ``record(_:)`` appends to a bounded
/// buffer and returns. A task of the recorder's own sends the buffer in batches, every 50 ms or
/// every 1,000 events, over one WebSocket, and keeps each event until the lab says it stored it.
/// When the connection drops it is made again after a pause that grows from 0.1 s to 5 s, and
/// the lab says how far it got, so no event is stored twice or lost. Events that arrive while
/// the buffer is full are counted in ``dropped``, which the lab shows beside the recording; with
/// the lab gone the app runs on at full speed and counts what it could not keep.
public final class LabLaneRecorder: LaneRecording {
    /// Why ``flush(timeout:)`` could not confirm every event.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The recording is at the lab's cap; the events past it were dropped.
        case recordingFull(String)
        /// The lab had not stored every event within the time allowed.
        case timedOut(stored: Int, recorded: Int)
        /// The lab stored none of the events in the time allowed, and the last attempt to reach
        /// it failed for the reason given: nothing listening, or the token refused.
        case unreachable(String)
        /// The lab refused a batch as malformed, which a recorder of this version never sends;
        /// the recorder stopped rather than send what the lab cannot take.
        case refused(String)

        public var description: String {
            switch self {
            case .recordingFull(let message): "The lab's recording is full: \(message)"
            case .timedOut(let stored, let recorded):
                "The lab had stored \(stored) of \(recorded) events when the time ran out."
            case .refused(let message): "The lab refused the recorder's events: \(message)"
            case .unreachable(let reason): "The lab stored none of the events: \(reason)"
            }
        }
    }

    public let began: ContinuousClock.Instant
    private let buffer: EventBuffer
    private let sender: Task<Void, Never>

    /// - Parameters:
    ///   - lab: The lab's address, such as `http://127.0.0.1:8080`.
    ///   - token: The lab's token.
    ///   - recording: The recording's name, or its id; a name the lab does not know yet makes a
    ///     new recording.
    ///   - capacity: How many events are kept while the lab has not stored them.
    ///   - batchSize: The most events in one batch; a full batch is sent without waiting.
    ///   - interval: How long events wait for a batch to fill.
    public init(
        lab: URL,
        token: String,
        recording: String,
        capacity: Int = 100_000,
        batchSize: Int = 1_000,
        interval: Duration = .milliseconds(50)
    ) {
        precondition(capacity > 0 && batchSize > 0, "A recorder keeps and sends at least one event.")
        let began = ContinuousClock.now
        self.began = began
        let buffer = EventBuffer(capacity: capacity)
        self.buffer = buffer
        let link = IngestLink(
            url: Self.ingestURL(lab: lab, recording: recording),
            token: token,
            began: began,
            batchSize: batchSize,
            interval: interval
        )
        sender = Task.detached { await link.run(buffer) }
    }

    deinit {
        sender.cancel()
    }

    public func record(_ event: LaneEvent) {
        buffer.append(event)
    }

    /// Events recorded that were not kept: the buffer was full, the recording is, or the lab
    /// refused them.
    public var dropped: Int {
        buffer.state.withLock { $0.dropped }
    }

    /// Why the last attempt to reach the lab failed — nothing listening, or the token refused —
    /// while the recorder has no connection; nil once it has one.
    public var connectionProblem: String? {
        buffer.state.withLock { $0.lastFailure }
    }

    /// Returns once the lab has stored every event recorded before the call, so a read of the
    /// recording right after it sees them all.
    ///
    /// - Parameter timeout: How long to wait for the lab.
    /// - Throws: ``Error/recordingFull(_:)`` when the recording is at its cap,
    ///   ``Error/timedOut(stored:recorded:)`` when the lab does not confirm in time, and
    ///   `CancellationError` when the calling task is cancelled.
    public func flush(timeout: Duration = .seconds(30)) async throws {
        let (target, start) = buffer.state.withLock { state in
            state.flushing = true
            return (state.recorded, state.acknowledged)
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            let (acknowledged, ended) = buffer.state.withLock { ($0.acknowledged, $0.ended) }
            // An ended recorder gives up on what it cannot keep, which also settles the count.
            if let ended { throw ended }
            if acknowledged >= target { return }
            guard ContinuousClock.now < deadline else {
                let failure = buffer.state.withLock { $0.lastFailure }
                if acknowledged == start, let failure { throw Error.unreachable(failure) }
                throw Error.timedOut(stored: acknowledged - start, recorded: target - start)
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    static func ingestURL(lab: URL, recording: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        let segment = recording.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        var components = URLComponents(url: lab, resolvingAgainstBaseURL: true)
        components?.scheme = lab.scheme == "https" ? "wss" : "ws"
        let base = components?.percentEncodedPath ?? ""
        components?.percentEncodedPath =
            (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/api/recordings/\(segment)/ingest"
        components?.queryItems = [URLQueryItem(name: "recorder", value: UUID().uuidString)]
        return components?.string ?? ""
    }
}

/// The events a recorder holds until the lab stores them, numbered in the recorder's sequence.
final class EventBuffer: Sendable {
    struct State {
        /// Events not yet stored by the lab, the first numbered `acknowledged`.
        var pending: Deque<LaneEvent> = []
        /// How many events the lab has stored or the recorder has given up on.
        var acknowledged = 0
        /// The number of the next event to send on the current connection.
        var sent = 0
        var dropped = 0
        /// Why the recorder stopped sending: the recording is full, or the lab refused a batch.
        var ended: LabLaneRecorder.Error?
        /// Someone waits for everything to be stored: send what there is without waiting.
        var flushing = false
        /// Why the last attempt to connect to the lab failed; nil once a connection is made.
        var lastFailure: String?
        var recorded: Int { acknowledged + pending.count }
    }

    let capacity: Int
    let state = Protected(State())
    /// About how many bytes of JSON one batch holds at most.
    static let batchBytes = 1 << 20

    /// About how many bytes an event takes as JSON: its texts, as sent, and the rest.
    static func size(of event: LaneEvent) -> Int {
        let text: Int =
            switch event.kind {
            case .value(let value), .failed(let value):
                min(value.utf8.count, RecordedLaneEvent.longestText * 4)
            default: 0
            }
        let structure: Int =
            switch event.structure {
            case .json(let json): min(json.utf8.count, LaneEncoding.labLimit) * 2
            case .cut, nil: 0
            }
        return 120 + min(event.lane.utf8.count, RecordedLaneEvent.longestText * 4)
            + min(event.source.utf8.count, RecordedLaneEvent.longestText * 4) + text + structure
    }

    init(capacity: Int) {
        self.capacity = capacity
    }

    func append(_ event: LaneEvent) {
        state.withLock { state in
            if state.pending.count >= capacity || state.ended != nil {
                state.dropped += 1
            } else {
                state.pending.append(event)
            }
        }
    }

    /// The lab holds everything numbered below `next`.
    func acknowledge(_ next: Int) {
        state.withLock { state in
            let stored = min(max(next - state.acknowledged, 0), state.pending.count)
            state.pending.removeFirst(stored)
            state.acknowledged += stored
            state.sent = max(state.sent, state.acknowledged)
            if state.pending.isEmpty { state.flushing = false }
        }
    }

    /// Stops recording for `reason`: what is held and what comes is counted as dropped.
    func end(_ reason: LabLaneRecorder.Error) {
        state.withLock { state in
            state.ended = reason
            state.dropped += state.pending.count
            state.acknowledged += state.pending.count
            state.pending.removeAll()
            state.sent = state.acknowledged
        }
    }

    /// Starts a connection's sending over from the first event the lab has not stored.
    func rewind() {
        state.withLock { $0.sent = $0.acknowledged }
    }

    /// The next batch to send: the events after those sent, once `batchSize` of them wait, the
    /// oldest has waited `interval`, or someone flushes; nil while too many are unconfirmed.
    func nextBatch(batchSize: Int, due: Bool, inFlightLimit: Int) -> (first: Int, events: [LaneEvent])? {
        state.withLock { state in
            let waiting = state.recorded - state.sent
            guard waiting > 0, waiting >= batchSize || due || state.flushing,
                state.sent - state.acknowledged < inFlightLimit
            else { return nil }
            let start = state.sent - state.acknowledged
            // Bounded in bytes too, well under the lab's 4 MiB a message, however long the values.
            var count = 0
            var bytes = 0
            while count < min(waiting, batchSize), count == 0 || bytes < Self.batchBytes {
                bytes += Self.size(of: state.pending[start + count])
                count += 1
            }
            let events = Array(state.pending[start..<(start + count)])
            let first = state.sent
            state.sent += count
            return (first, events)
        }
    }
}

/// The recorder's connection to the lab: made, fed, and made again when it drops.
struct IngestLink: Sendable {

    var url: String
    var token: String
    var began: ContinuousClock.Instant
    var batchSize: Int
    var interval: Duration

    func run(_ buffer: EventBuffer) async {
        var logger = Logger(label: "LabLaneRecorder")
        logger.logLevel = .critical
        var pause = Duration.milliseconds(100)
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        while !Task.isCancelled, buffer.state.withLock({ $0.ended == nil }) {
            let heard = Protected(false)
            do {
                try await connect(buffer, headers: headers, logger: logger, heard: heard)
            } catch  where !heard.withLock({ $0 }) {
                let reason = Self.reason(error, url: url)
                buffer.state.withLock { $0.lastFailure = reason }
            } catch {}
            if heard.withLock({ $0 }) { pause = .milliseconds(100) }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }

    /// Why connecting to the lab failed, in a sentence a developer can act on.
    static func reason(_ error: any Swift.Error, url: String) -> String {
        let place =
            URLComponents(string: url).map { "\($0.host ?? "?"):\($0.port.map(String.init) ?? "?")" } ?? url
        if let error = error as? WebSocketClientError, error == .webSocketUpgradeFailed {
            return "the lab at \(place) refused the recorder's connection: is the token the one it printed?"
        }
        return "nothing answered at \(place) (\(error)): is the lab running there?"
    }

    /// One connection: events sent as the lab is ready for them, until it drops.
    private func connect(
        _ buffer: EventBuffer,
        headers: HTTPFields,
        logger: Logger,
        heard: Protected<Bool>
    ) async throws {
        _ = try await WebSocketClient.connect(
            url: url,
            configuration: .init(additionalHeaders: headers),
            logger: logger
        ) { inbound, outbound, _ in
            buffer.state.withLock { $0.lastFailure = nil }
            buffer.rewind()
            let ready = Protected(false)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await message in inbound.messages(maxSize: 1 << 16) {
                        guard case .text(let text) = message,
                            let reply = try? JSONDecoder().decode(
                                RecordingIngestReply.self,
                                from: Data(text.utf8)
                            )
                        else { continue }
                        heard.withLock { $0 = true }
                        switch reply {
                        case .stored(_, let next):
                            buffer.acknowledge(next)
                            ready.withLock { $0 = true }
                        case .full(_, let next, let problem):
                            buffer.acknowledge(next)
                            buffer.end(.recordingFull(problem.message))
                            return
                        case .invalid(let problem) where problem.code == "superseded":
                            // Another connection of this recorder took over; connect again.
                            return
                        case .invalid(let problem):
                            // Sending the same events again would be refused again.
                            buffer.end(.refused(problem.message))
                            return
                        }
                    }
                }
                group.addTask {
                    try await send(buffer, to: outbound, whenReady: ready)
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    private func send(
        _ buffer: EventBuffer,
        to outbound: WebSocketOutboundWriter,
        whenReady ready: Protected<Bool>
    ) async throws {
        var lastSent = ContinuousClock.now
        while !Task.isCancelled {
            guard ready.withLock({ $0 }) else {
                try await Task.sleep(for: .milliseconds(5))
                continue
            }
            let due = ContinuousClock.now - lastSent >= interval
            guard
                let batch = buffer.nextBatch(batchSize: batchSize, due: due, inFlightLimit: batchSize * 20)
            else {
                try await Task.sleep(for: .milliseconds(5))
                continue
            }
            let dropped = buffer.state.withLock { $0.dropped }
            let message = RecordingIngestBatch(
                first: batch.first,
                events: batch.events.map(recorded),
                dropped: dropped
            )
            try await outbound.writeTextMessage(message.json)
            lastSent = .now
        }
    }

    private func recorded(_ event: LaneEvent) -> RecordedLaneEvent {
        let elapsed = event.time.components
        // What the lab checks, a recorder always meets: a named lane, a time that is not negative.
        var record = RecordedLaneEvent(
            lane: event.lane.isEmpty ? "lane" : Self.clipped(event.lane),
            subscription: max(event.subscription, 1),
            kind: .subscribed,
            t: max(Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18, 0),
            source: Self.clipped(event.source)
        )
        switch event.kind {
        case .subscribed: record.kind = .subscribed
        case .requested(let demand):
            record.kind = .requested
            record.demand = demand.max.map { .max($0) } ?? .unlimited
        case .value(let value):
            record.kind = .value
            record.value = Self.clipped(value)
            switch event.structure {
            case .json(let json) where json.utf8.count <= LaneEncoding.labLimit: record.structure = json
            case .json, .cut: record.cut = true
            case nil: break
            }
        case .finished: record.kind = .finished
        case .failed(let error):
            record.kind = .failed
            record.error = Self.clipped(error)
        case .cancelled: record.kind = .cancelled
        }
        return record
    }

    /// `text`, cut to `RecordedLaneEvent.longestText` scalars (so at most four times as many bytes) with an
    /// ellipsis where it was cut.
    static func clipped(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > RecordedLaneEvent.longestText else { return text }
        var cut = String.UnicodeScalarView(scalars.prefix(RecordedLaneEvent.longestText - 1))
        cut.append("…")
        return String(cut)
    }
}
