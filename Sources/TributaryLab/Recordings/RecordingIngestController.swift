import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Tributary
import TributaryLabWire
import TributaryStreams

/// `GET /api/recordings/{id or name}/ingest?recorder=UUID`, upgraded to a WebSocket: where a
/// `LabLaneRecorder` sends its batches (``RecordingIngestBatch``) and hears how far the lab has
/// stored them (``RecordingIngestReply``).
///
/// The path names a recording by its id, or else by its name, which makes it on first use. The
/// lab answers `stored` at once and after every batch; a batch it cannot read, or one that
/// leaves a gap, is answered `invalid` and nothing of it is stored; a recording at its cap is
/// answered `full`. A message larger than ``maximumMessageSize`` ends the connection with
/// 1009 (message too big). It needs the token or the session.
///
/// A batch is read and checked on a thread of the recorders' own (``readers``), a recorder's
/// one at a time, and the connection stops reading while ``maximumWaiting`` bytes of its
/// batches wait to be handled: a recorder that sends faster than the lab stores waits, holding
/// little, and recorders together take at most one core from the runs and the requests.
struct RecordingIngestController {
    let service: RecordingService
    let connections: LiveConnections
    /// Where batches are read: one thread, off those that answer requests and those that run
    /// documents. Its queue is bounded by the connections, each waiting for one batch at most.
    let readers = RunPool(workers: 1, queueLength: .max)
    /// Which connection of each recorder is the current one.
    let sessions = RecorderSessions()

    /// The largest batch a recorder may send, in bytes.
    static let maximumMessageSize = 4 << 20
    /// The most bytes of a recorder's batches received and not yet handled: the one being
    /// handled and the next. More than a batch, so that a batch cut into frames always
    /// arrives whole.
    static let maximumWaiting = 2 * maximumMessageSize

    func addRoutes(to router: Router<LabRequestContext>) {
        router.ws("api/recordings/:id/ingest") { request, context in
            guard context.access != .anonymous else { return context.refuseWebSocket(.unauthorized()) }
            guard Self.recorder(of: request) != nil else {
                return context.refuseWebSocket(
                    .badRequest("noRecorder", "A recorder names itself with ?recorder=UUID.")
                )
            }
            guard let segment = Self.segment(context) else {
                return context.refuseWebSocket(.notFound("recording with that name"))
            }
            if let problem = Recordings.problem(withName: segment) {
                return context.refuseWebSocket(.badRequest("invalidName", problem))
            }
            context.limitWebSocketFrames(
                to: Self.maximumMessageSize + (64 << 10),
                perSecond: LabRequestContext.recorderFramesPerSecond,
                waiting: Self.maximumWaiting
            )
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let recorder = Self.recorder(of: context.request),
                let segment = Self.segment(context.requestContext)
            else { return }
            let requestContext = context.requestContext
            try await connections.serve(requestContext.remoteHost, outbound: outbound) {
                try await ingest(
                    segment,
                    recorder: recorder,
                    inbound: inbound,
                    outbound: outbound,
                    took: requestContext.tookWebSocketData,
                    isOpen: { [channel = requestContext.channel] in channel.isActive }
                )
            }
        }
    }

    /// What is wrong with an ingest request that was not upgraded, as the HTTP route answers it.
    static func refusal(of request: Request, context: LabRequestContext) -> LabError {
        guard recorder(of: request) != nil else {
            return .badRequest("badRecorder", "A recorder names itself with ?recorder=UUID.")
        }
        if let segment = segment(context), let problem = Recordings.problem(withName: segment) {
            return .badRequest("badName", problem)
        }
        return LabError(
            status: .upgradeRequired,
            code: "webSocket",
            message: "Recorders send their events over a WebSocket.",
            headers: [.upgrade: "websocket"]
        )
    }

    static func recorder(of request: Request) -> UUID? {
        request.uri.queryParameters["recorder"].flatMap { UUID(uuidString: String($0)) }
    }

    /// The path's id or name, percent-decoded.
    static func segment(_ context: LabRequestContext) -> String? {
        context.parameters.get("id").flatMap { $0.removingPercentEncoding }
    }

    private func ingest(
        _ segment: String,
        recorder: UUID,
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        took: (Int) -> Void,
        isOpen: @escaping @Sendable () -> Bool
    ) async throws {
        let id: String
        let next: Int
        do {
            id = try await service.open(segment).id
            next = try await service.next(id, recorder: recorder)
        } catch {
            try await outbound.write(.text(Self.reply(.invalid(Self.problem(error)))))
            try await outbound.close(.unexpectedServerError, reason: "The lab could not open the recording.")
            return
        }
        // A recorder sends over one connection. The newest is the one: a recorder that reconnects
        // need not wait for the lab to notice its old connection is gone, and the old one's late
        // batches are refused aloud rather than taken for resends and dropped.
        let key = "\(id)/\(recorder.uuidString)"
        let session = sessions.begin(key)
        defer { sessions.end(key, session) }
        try await outbound.write(.text(Self.reply(.stored(recording: id, next: next))))
        var message = ByteBuffer()
        /// The payload of the frames read, in all.
        var read = 0
        do {
            for try await frame in inbound {
                read += frame.data.readableBytes
                if frame.opcode == .continuation {
                    var data = frame.data
                    message.writeBuffer(&data)
                } else {
                    message = frame.data
                }
                guard message.readableBytes <= Self.maximumMessageSize else {
                    try await outbound.close(.messageTooLarge, reason: Self.tooLarge)
                    return
                }
                guard frame.fin else { continue }
                guard sessions.isCurrent(key, session) else {
                    let problem = LabProblem(
                        code: "superseded",
                        message: "A newer connection of this recorder took over; this one sends no more."
                    )
                    try await outbound.write(.text(Self.reply(.invalid(problem))))
                    try await outbound.close(
                        .policyViolation,
                        reason: "A newer connection of this recorder took over."
                    )
                    return
                }
                let reply = await handle(
                    Data(message.readableBytesView),
                    id: id,
                    recorder: recorder,
                    isOpen: isOpen
                )
                message = ByteBuffer()
                took(read)
                try await outbound.write(.text(Self.reply(reply)))
                if case .invalid(let problem) = reply, problem.code == "notFound" {
                    try await outbound.close(.normalClosure, reason: "The recording was deleted.")
                    return
                }
            }
        } catch NIOWebSocketError.invalidFrameLength {
            try? await outbound.close(.messageTooLarge, reason: Self.tooLarge)
        } catch {
            // A broken connection ends the ingest, and nothing else.
        }
    }

    static let tooLarge = "A batch is at most \(maximumMessageSize >> 20) MiB; send smaller ones."

    /// What the lab answers a batch; one whose connection closed while it waited for the
    /// ``readers`` thread is neither read nor stored, for nobody would hear its answer.
    private func handle(
        _ data: Data,
        id: String,
        recorder: UUID,
        isOpen: @escaping @Sendable () -> Bool
    ) async -> RecordingIngestReply {
        let batch: RecordingIngestBatch
        let gone = LabProblem(code: "closed", message: "The connection closed before the batch was read.")
        let reading = try? await readers.run { isOpen() ? Self.read(data) : .refused(gone) }
        switch reading ?? .refused(gone) {
        case .batch(let read): batch = read
        case .refused(let problem): return .invalid(problem)
        }
        do throws(RecordingStoreError) {
            switch try await service.append(batch, to: id, recorder: recorder) {
            case .stored(let growth):
                return .stored(recording: id, next: growth.next)
            case .full(let growth):
                return .full(
                    recording: id,
                    next: growth.next,
                    problem: LabProblem(
                        code: "recordingFull",
                        message:
                            "The recording holds as many events as the lab keeps in one (\(service.cap)); start another to record more."
                    )
                )
            case .gap(let next):
                return .invalid(
                    LabProblem(
                        code: "invalidBatch",
                        message:
                            "The batch begins at event \(batch.first), but the lab holds this recorder's events below \(next) only; send from \(next).",
                        path: "$.first"
                    )
                )
            }
        } catch {
            return .invalid(Self.problem(error))
        }
    }

    enum Reading: Sendable {
        case batch(RecordingIngestBatch)
        case refused(LabProblem)
    }

    /// A batch as a recorder sends it, checked: every event has what its kind needs.
    static func read(_ data: Data) -> Reading {
        let batch: RecordingIngestBatch
        do {
            batch = try RecordingIngestBatch(json: data)
        } catch let error as DecodingError {
            return .refused(invalid(DecodingProblem(error).message, path: DecodingProblem(error).path))
        } catch {
            return .refused(
                invalid("A batch is a JSON object: {\"type\":\"events\",\"first\",\"events\",\"dropped\"}.")
            )
        }
        guard batch.type == "events" else {
            return .refused(invalid("A recorder sends messages of type \"events\" only.", path: "$.type"))
        }
        guard (0...largestCount).contains(batch.first) else {
            return .refused(
                invalid("first is an event's number, from 0 to \(largestCount).", path: "$.first")
            )
        }
        guard (0...largestCount).contains(batch.dropped) else {
            return .refused(
                invalid("dropped is a count of events, from 0 to \(largestCount).", path: "$.dropped")
            )
        }
        for (index, event) in batch.events.enumerated() {
            if let (problem, field) = problem(with: event) {
                return .refused(invalid(problem, path: "$.events[\(index)]\(field)"))
            }
        }
        return .batch(batch)
    }

    /// The largest count or number a batch may give: far beyond any recording, and far from
    /// where sums of them would overflow.
    static let largestCount = 1 << 50

    /// The latest `t` an event may have: decades of running, and far from where milliseconds of
    /// it would overflow.
    static let largestTime = 1e9

    /// What is wrong with an event, and the field it is in; nil when nothing is.
    static func problem(with event: RecordedLaneEvent) -> (String, String)? {
        if event.lane.isEmpty { return ("A lane has a name.", ".lane") }
        for (text, field) in [
            (event.lane, ".lane"), (event.source, ".source"), (event.value ?? "", ".value"),
            (event.error ?? "", ".error"),
        ]
        where text.unicodeScalars.count > RecordedLaneEvent.longestText {
            return (
                "At most \(RecordedLaneEvent.longestText) characters; a recorder cuts longer texts.", field
            )
        }
        if !(1...largestCount).contains(event.subscription) {
            return ("Subscriptions are numbered from 1 to \(largestCount).", ".subscription")
        }
        if !event.t.isFinite || !(0...largestTime).contains(event.t) {
            return (
                "t is seconds since the recorder began, from 0 to \(Int(largestTime)) (about 31 years).", ".t"
            )
        }
        if let structure = event.structure {
            if let problem = structureProblem(structure, kind: event.kind, cut: event.cut) {
                return (problem, ".structure")
            }
        } else if event.cut == true, event.kind != .value {
            return ("Only a value event is cut.", ".cut")
        }
        switch event.kind {
        case .value where event.value == nil: return ("A value event has a value.", ".value")
        case .failed where event.error == nil: return ("A failed event has an error.", ".error")
        case .requested where event.demand == nil: return ("A requested event has a demand.", ".demand")
        default: return nil
        }
    }

    /// What is wrong with a value's structure: it belongs to a value that is not cut, and is
    /// JSON of at most `LaneEncoding.labLimit` bytes, nested at most `LaneEncoding.maximumDepth`
    /// levels; its depth and length are checked before it is read.
    static func structureProblem(_ structure: String, kind: RecordedLaneEvent.Kind, cut: Bool?) -> String? {
        guard kind == .value else { return "Only a value event has a structure." }
        guard cut != true else { return "A cut value has no structure." }
        let bytes = Data(structure.utf8)
        guard bytes.count <= LaneEncoding.labLimit else {
            return
                "A value's structure is at most \(LaneEncoding.labLimit) bytes of JSON; a recorder cuts larger ones."
        }
        guard !JSONNesting.exceeds(bytes, limit: LaneEncoding.maximumDepth) else {
            return
                "A value's structure nests at most \(LaneEncoding.maximumDepth) levels of arrays and objects."
        }
        // The grammar first, which JSONSerialization reads loosely (it takes `[1,]`); then
        // JSONSerialization, for what the grammar allows and no reader can hold (`1e400`).
        guard JSONGrammar.isValid(bytes, maximumDepth: LaneEncoding.maximumDepth),
            (try? JSONSerialization.jsonObject(with: bytes, options: .fragmentsAllowed)) != nil
        else {
            return "A value's structure is JSON text, and this is not."
        }
        return nil
    }

    static func invalid(_ message: String, path: String? = nil) -> LabProblem {
        LabProblem(code: "invalidBatch", message: message, path: path)
    }

    static func problem(_ error: any Error) -> LabProblem {
        switch error {
        case RecordingStoreError.notFound:
            LabProblem(code: "notFound", message: "The recording was deleted; nothing more is stored.")
        case let error as LabError: LabProblem(code: error.code, message: error.message)
        default: LabProblem(code: "storage", message: "The lab's database failed; nothing was stored.")
        }
    }

    static func reply(_ reply: RecordingIngestReply) -> String { LabJSON.text(reply) }
}

/// A decoding failure as a sentence and the JSON path it happened at.
struct DecodingProblem {
    var message: String
    var path: String

    init(_ error: DecodingError) {
        let context: DecodingError.Context
        switch error {
        case .keyNotFound(let key, let found):
            context = found
            message = "\(key.stringValue) is missing."
            path = Self.path(found.codingPath + [key])
            return
        case .valueNotFound(_, let found), .typeMismatch(_, let found), .dataCorrupted(let found):
            context = found
        @unknown default:
            message = "The batch does not read."
            path = "$"
            return
        }
        message =
            context.codingPath.isEmpty
            ? "The batch is not JSON of the form {\"type\":\"events\",\"first\",\"events\",\"dropped\"}."
            : context.debugDescription
        path = Self.path(context.codingPath)
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce("$") { path, key in
            if let index = key.intValue { return path + "[\(index)]" }
            return path + "." + key.stringValue
        }
    }
}

/// The current connection of each recorder to each recording, by a number that grows.
final class RecorderSessions: Sendable {
    private let state = Protected<(next: Int, current: [String: Int])>((0, [:]))

    /// Makes a new connection for `key` the current one; returns its number.
    func begin(_ key: String) -> Int {
        state.withLock { state in
            state.next += 1
            state.current[key] = state.next
            return state.next
        }
    }

    func isCurrent(_ key: String, _ session: Int) -> Bool {
        state.withLock { $0.current[key] == session }
    }

    func end(_ key: String, _ session: Int) {
        state.withLock { state in
            if state.current[key] == session { state.current[key] = nil }
        }
    }
}
