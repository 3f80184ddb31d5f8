import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Tributary
import TributaryLabWire

/// A recording as one file — to download, attach to a bug report and import into another lab —
/// and as a trace that Perfetto and chrome://tracing open.
extension RecordingsController {
    /// How long an import may take to arrive and be stored.
    static let importTimeLimit: Duration = .seconds(300)
    /// How many events an import stores in one transaction.
    static let importBatch = 1_000

    /// `GET /api/recordings/{id}/export`: the recording as newline-delimited JSON, its header
    /// (``RecordingFileHeader``) and then an event a line, written a page at a time. It holds
    /// the events the recording held when asked, however it grows meanwhile.
    @Sendable func export(_ request: Request, context: LabRequestContext) async throws -> Response {
        try await streamed(context, type: "application/x-ndjson", ending: ".tributary.ndjson") { recording in
            let header = RecordingFileHeader(
                name: recording.name,
                events: recording.events,
                dropped: recording.dropped
            )
            return (
                start: [UInt8](header.line()),
                write: { event, into in
                    event.appendJSON(to: &into)
                    into.append(UInt8(ascii: "\n"))
                },
                end: { [] }
            )
        }
    }

    /// `GET /api/recordings/{id}/trace.json`: the recording in the Chrome trace event format
    /// (``RecordingTrace``), written a page at a time.
    @Sendable func trace(_ request: Request, context: LabRequestContext) async throws -> Response {
        try await streamed(context, type: "application/json", ending: ".trace.json") { recording in
            let trace = TraceBox()
            return (
                start: trace.value.begin(name: recording.name),
                write: { event, into in trace.value.write(event, to: &into) },
                end: { trace.value.end() }
            )
        }
    }

    /// The trace being written, shared by the closures that write it on the response's task.
    private final class TraceBox: @unchecked Sendable {
        // @unchecked: used only from the one task that writes the response, one call at a time.
        var value = RecordingTrace()
    }

    /// A recording written as a download a page at a time: `start`, each of its first
    /// `recording.events` events through `write`, then `end`.
    private func streamed(
        _ context: LabRequestContext,
        type: String,
        ending: String,
        _ format:
            @escaping @Sendable (RecordingSummary) -> (
                start: [UInt8],
                write: @Sendable (RecordedLaneEvent, inout [UInt8]) -> Void,
                end: @Sendable () -> [UInt8]
            )
    ) async throws -> Response {
        let service = service
        let recording = try await service.recording(try Self.id(context))
        // Held until the file is written, or until the answer is let go unwritten.
        guard let ticket = service.downloads.enter() else { throw RecordingService.downloadsBusy }
        return Response(
            status: .ok,
            headers: [
                .contentType: type, .contentDisposition: Self.attachment(recording.name, ending: ending),
            ],
            body: ResponseBody { writer in
                let (start, write, end) = format(recording)
                try await writer.write(ByteBuffer(bytes: start))
                try await service.pages(of: recording) { events in
                    var bytes: [UInt8] = []
                    bytes.reserveCapacity(events.count * 200)
                    for event in events { write(event, &bytes) }
                    try await writer.write(ByteBuffer(bytes: bytes))
                }
                try await writer.write(ByteBuffer(bytes: end()))
                try await writer.finish(nil)
                withExtendedLifetime(ticket) {}
            }
        )
    }

    /// `POST /api/recordings/import` with `Content-Type: application/x-ndjson`: a recording's
    /// file, read and checked a line at a time as it arrives (``RecordingFileReader``) and
    /// stored as a new recording, named as the file names it — `name (2)` when that is taken.
    /// The first wrong line ends it with `422 invalidRecordingFile`, naming the line, and
    /// whatever of the file was stored is deleted: a refused file leaves nothing.
    @Sendable func importFile(
        _ request: Request,
        context: LabRequestContext
    ) async throws -> EditedResponse<RecordingSummary> {
        guard request.mediaType == "application/x-ndjson" else {
            throw LabError(
                status: .unsupportedMediaType,
                code: "notRecordingFile",
                message:
                    "A recording's file is newline-delimited JSON, sent as Content-Type: application/x-ndjson."
            )
        }
        let limit = maximumImportBytes
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw LabError(
                status: .contentTooLarge,
                code: "tooLarge",
                message:
                    "The file is \(declared.formatted()) bytes; the lab imports files of at most \(limit.formatted()) bytes."
            )
        }
        let importer = RecordingImporter(service: service, limit: limit)
        let imported = try await importer.run(request.body)
        return EditedResponse(
            status: .created,
            headers: [.location: "/api/recordings/\(imported.id)"],
            response: imported
        )
    }

    /// `attachment; filename="…"`: the name in letters, digits, `-`, `_` and `.` alone.
    static func attachment(_ name: String, ending: String) -> String {
        let safe = String(
            name.unicodeScalars.prefix(80).map { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "-"
            }
        )
        return "attachment; filename=\"\(safe.isEmpty ? "recording" : safe)\(ending)\""
    }
}

/// One import: the file's lines read as they arrive, and stored a batch at a time into a new
/// recording, which is deleted again when a line is refused or the import is cut off.
struct RecordingImporter: Sendable {
    let service: RecordingService
    let limit: Int

    /// How long a file may stop arriving: shorter than the connection's idle timeout, so that
    /// the sender hears why.
    static let stallLimit: Duration = .seconds(10)

    func run(_ body: RequestBody) async throws -> RecordingSummary {
        let state = Stored(service: service)
        // When the last bytes came, and how many lines were read by then.
        let progress = Protected((at: ContinuousClock.now, lines: 0))
        do {
            return try await withThrowingTaskGroup(of: RecordingSummary?.self) { group in
                group.addTask {
                    try await read(body, into: state, progress: progress)
                    return try await state.summary()
                }
                group.addTask {
                    try await Self.watch(progress)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let summary = first else {
                    let (at, lines) = progress.withLock { $0 }
                    let total = ContinuousClock.now - at < Self.stallLimit
                    throw LabError(
                        status: .requestTimeout,
                        code: "bodyTimeout",
                        message: total
                            ? "The file did not arrive and store within \(RecordingsController.importTimeLimit.components.seconds / 60) minutes; nothing of it is kept."
                            : "Line \(lines + 1) did not arrive: the file stopped coming for \(Self.stallLimit.components.seconds) s; nothing of it is kept."
                    )
                }
                return summary
            }
        } catch {
            await state.discard()
            if let refusal = error as? RecordingFileReader.Refusal {
                throw LabError(
                    status: .unprocessableContent,
                    code: "invalidRecordingFile",
                    message: refusal.message
                )
            }
            throw error
        }
    }

    /// Returns once the file has stopped arriving for ``stallLimit``, or the whole import has
    /// taken ``RecordingsController/importTimeLimit``.
    private static func watch(_ progress: Protected<(at: ContinuousClock.Instant, lines: Int)>) async throws {
        let started = ContinuousClock.now
        while true {
            try await Task.sleep(for: .milliseconds(500))
            let now = ContinuousClock.now
            if now - progress.withLock({ $0.at }) > stallLimit
                || now - started > RecordingsController.importTimeLimit
            {
                return
            }
        }
    }

    private func read(
        _ body: RequestBody,
        into stored: Stored,
        progress: Protected<(at: ContinuousClock.Instant, lines: Int)>
    ) async throws {
        var reader = RecordingFileReader(cap: service.cap)
        var pending: [UInt8] = []
        var received = 0
        for try await buffer in body {
            progress.withLock { $0.at = ContinuousClock.now }
            received += buffer.readableBytes
            guard received <= limit else {
                throw LabError(
                    status: .contentTooLarge,
                    code: "tooLarge",
                    message:
                        "Line \(reader.lines + 1) goes past \(limit.formatted()) bytes, the largest file the lab imports; nothing of it is kept."
                )
            }
            pending.append(contentsOf: buffer.readableBytesView)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = pending[start..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                try await take(line, reader: &reader, into: stored)
                start = newline + 1
            }
            pending.removeSubrange(..<start)
            progress.withLock { $0.lines = reader.lines }
            guard pending.count <= RecordingFileReader.longestLine else {
                throw RecordingFileReader.Refusal(
                    line: reader.lines + 1,
                    message:
                        "Line \(reader.lines + 1) is longer than a line of a recording's file can be (\(RecordingFileReader.longestLine) bytes)."
                )
            }
        }
        if !pending.isEmpty {
            do {
                try await take(pending[...], reader: &reader, into: stored)
            } catch let refusal as RecordingFileReader.Refusal
                where reader.events < reader.header?.events ?? 0
            {
                // A last line with no newline that does not read, short of the events promised,
                // is where the file was cut.
                throw RecordingFileReader.Refusal(
                    line: refusal.line,
                    message:
                        "Line \(refusal.line) is cut short: the file ends inside it, after \(reader.events) of the \(reader.header?.events ?? 0) events its first line promises."
                )
            }
        }
        try reader.finish()
        try await stored.flush(dropped: reader.header?.dropped ?? 0)
    }

    private func take(
        _ line: ArraySlice<UInt8>,
        reader: inout RecordingFileReader,
        into stored: Stored
    ) async throws {
        if let event = try reader.read(line) {
            try await stored.add(event, dropped: reader.header?.dropped ?? 0)
        } else if let header = reader.header {
            try await stored.begin(header)
        }
    }

    /// The recording being made, and the events read and not yet stored.
    private actor Stored {
        let service: RecordingService
        let recorder = UUID()
        var recording: RecordingSummary?
        var waiting: [RecordedLaneEvent] = []
        var stored = 0

        init(service: RecordingService) {
            self.service = service
        }

        /// Makes the recording, named as the file says, or with the first free `(N)` after it.
        func begin(_ header: RecordingFileHeader) async throws {
            for attempt in 1...100 {
                let suffix = attempt == 1 ? "" : " (\(attempt))"
                let name = String(header.name.prefix(100 - suffix.count)) + suffix
                do {
                    recording = try await service.create(name: name)
                    return
                } catch let error as RecordingStoreError {
                    guard case .nameTaken = error else { throw error }
                }
            }
            throw LabError(
                status: .conflict,
                code: "nameTaken",
                message:
                    "The recording “\(header.name)” and a hundred numbered after it are taken; rename one."
            )
        }

        func add(_ event: RecordedLaneEvent, dropped: Int) async throws {
            waiting.append(event)
            if waiting.count >= RecordingsController.importBatch { try await flush(dropped: dropped) }
        }

        func flush(dropped: Int) async throws {
            guard let recording, !waiting.isEmpty || dropped > 0 else { return }
            let batch = RecordingIngestBatch(first: stored, events: waiting, dropped: dropped)
            switch try await service.append(batch, to: recording.id, recorder: recorder) {
            case .stored(let growth): stored = growth.next
            case .full, .gap:
                throw LabError(
                    status: .unprocessableContent,
                    code: "recordingFull",
                    message: "The file holds more events than a recording keeps (\(service.cap))."
                )
            }
            waiting.removeAll(keepingCapacity: true)
        }

        func summary() async throws -> RecordingSummary {
            guard let recording else {
                throw RecordingFileReader.Refusal(
                    line: 1,
                    message: "The file is empty: its first line names its format."
                )
            }
            return try await service.recording(recording.id)
        }

        func discard() async {
            guard let recording else { return }
            self.recording = nil
            try? await service.delete(recording.id)
        }
    }
}
