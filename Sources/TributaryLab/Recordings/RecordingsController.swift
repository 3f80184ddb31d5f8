import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Tributary
import TributaryLabWire
import TributaryStreams

/// `/api/recordings`: the lanes recorded from running apps, made, listed, read in pages and
/// deleted. Every route needs the token or the session.
struct RecordingsController {
    let service: RecordingService
    /// Where the documents made of recordings go.
    let documents: DocumentService
    /// Where documents and tests are made of recorded events: each reads every event given.
    let pool: RunPool
    let authenticator: LabAuthenticator
    let maximumBodySize: Int
    /// The largest recording's file an import reads.
    let maximumImportBytes: Int

    /// The most events a page holds, and how many it holds unless asked for fewer.
    static let pageSize = 10_000
    /// The most bytes of events a page holds (at least one event): a page of large structured
    /// values ends early, and its `next` says where to go on.
    static let pageBytes = 8 << 20
    /// How many events are read from the store at a time for a page.
    static let readSize = 1_000

    /// The most recordings the list holds.
    static let listSize = 1_000

    var routes: RouteCollection<LabRequestContext> {
        let routes = RouteCollection(context: LabRequestContext.self)
        routes.add(middleware: authenticator)
        routes.get(use: list)
        routes.post(use: create)
        routes.post("import", use: importFile)
        routes.get(":id", use: read)
        routes.get(":id/export", use: export)
        routes.get(":id/trace.json", use: trace)
        routes.delete(":id", use: delete)
        routes.post(":id/document", use: document)
        routes.get(":id/test.swift", use: testSource)
        // Reached only when the WebSocket upgrade was not made: with the credentials checked,
        // so that a client without them learns it before any upgrade.
        routes.get(":id/ingest") { request, context -> Response in
            throw RecordingIngestController.refusal(of: request, context: context)
        }
        routes.get(":id/live", use: upgradeRequired)
        return routes
    }

    @Sendable func list(
        _ request: Request,
        context: LabRequestContext
    ) async throws -> [String: [RecordingSummary]] {
        ["recordings": try await service.list(limit: Self.listSize)]
    }

    @Sendable func create(
        _ request: Request,
        context: LabRequestContext
    ) async throws -> EditedResponse<[String: String]> {
        struct Body: Decodable { var name: String }
        let body = try await request.decode(
            as: Body.self,
            context: context.limitingBodies(to: maximumBodySize, nesting: 4),
            else: LabError.badRequest("badRecording", "A recording is made with {\"name\": \"…\"}.")
        )
        let made = try await service.create(name: body.name)
        return Self.created(made.id, at: "/api/recordings/\(made.id)")
    }

    @Sendable func read(_ request: Request, context: LabRequestContext) async throws -> RecordingPage {
        let id = try Self.id(context)
        let query = request.uri.queryParameters
        let limit = query["limit"].map { Int($0) ?? -1 } ?? Self.pageSize
        guard (1...Self.pageSize).contains(limit) else {
            throw LabError.badRequest("badLimit", "limit must be from 1 to \(Self.pageSize).")
        }
        let after = query["after"].map { Int($0) ?? -2 } ?? -1
        guard after >= -1, after < Int.max else {
            throw LabError.badRequest(
                "badCursor",
                "after is the number of an event, as a page's next gives it."
            )
        }
        // Read a thousand events at a time, up to the page's limit or its bytes, whichever
        // comes first: 10,000 events of 16 KiB values would be 160 MB.
        var events: [RecordedLaneEvent] = []
        var bytes = 0
        var scratch: [UInt8] = []
        var slice = try await service.events(id, from: after + 1, limit: min(Self.readSize, limit))
        let first = slice.first
        reading: while true {
            for event in slice.events {
                scratch.removeAll(keepingCapacity: true)
                event.appendJSON(to: &scratch)
                guard bytes + scratch.count <= Self.pageBytes || events.isEmpty else { break reading }
                bytes += scratch.count + 1
                events.append(event)
            }
            let end = slice.first + slice.events.count
            guard events.count < limit, !slice.events.isEmpty, end < slice.recording.events else { break }
            slice = try await service.events(
                id,
                from: end,
                limit: min(Self.readSize, limit - events.count)
            )
        }
        let end = first + events.count
        let page = RecordingPage(
            id: slice.recording.id,
            name: slice.recording.name,
            dropped: slice.recording.dropped,
            events: events,
            next: end < slice.recording.events && !events.isEmpty ? end - 1 : nil
        )
        return page
    }

    @Sendable func delete(_ request: Request, context: LabRequestContext) async throws -> Response {
        try await service.delete(try Self.id(context))
        return Response(status: .noContent)
    }

    /// `{"lanes": ["a", "b"], "frame": 0.1}`: a new stream document of the lanes, answered
    /// with its id.
    @Sendable func document(
        _ request: Request,
        context: LabRequestContext
    ) async throws -> EditedResponse<[String: String]> {
        struct Body: Decodable {
            var lanes: [String]
            var frame: Double?
        }
        let id = try Self.id(context)
        let refusal = LabError.badRequest(
            "badRequest",
            "Name the lanes to draw, as {\"lanes\": [\"a\", \"b\"]}."
        )
        let body = try await request.decode(
            as: Body.self,
            context: context.limitingBodies(to: maximumBodySize, nesting: 4),
            else: refusal
        )
        guard !body.lanes.isEmpty else { throw refusal }
        _ = try Self.checked(frame: body.frame)
        let (name, document, size) = try await service.replaying(body.lanes, in: id) { recorded in
            let (document, size) = try await pool.execute { () throws(LabError) in
                do throws(StreamError) {
                    let document = try RecordingDocument.make(
                        name: recorded.recording.name,
                        lanes: recorded.lanes,
                        of: recorded.events,
                        frame: body.frame
                    )
                    return (document, (try? document.encoded().count) ?? Int.max)
                } catch {
                    throw LabError.invalidDocument(error)
                }
            }
            return (recorded.recording.name, document, size)
        }
        guard size <= maximumBodySize else {
            throw RecordingService.tooLargeToReplay(
                "The lanes make a document of \(size) bytes, and a document is at most \(maximumBodySize). Choose fewer lanes."
            )
        }
        let created = try await documents.create(document, author: "recording \(name)")
        return Self.created(created.id.description, at: "/api/streams/\(created.id)")
    }

    /// `?input=a&output=b&frame=0.1`: a Swift Testing source that replays lane `a` into a
    /// pipeline for the reader to fill in, and expects lane `b`.
    @Sendable func testSource(_ request: Request, context: LabRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let query = request.uri.queryParameters
        guard let input = query["input"].map(String.init), let output = query["output"].map(String.init)
        else {
            throw LabError.badRequest("badRequest", "Name the lanes, as ?input=a&output=b.")
        }
        let frame = try Self.frame(query["frame"].map(String.init)) ?? 0.1
        let source = try await service.replaying([input, output], in: id) { recorded in
            try await pool.execute { () throws(LabError) in
                do throws(StreamError) {
                    return try RecordingTestSource.make(
                        recording: recorded.recording,
                        input: input,
                        output: output,
                        events: recorded.events,
                        frame: frame
                    )
                } catch {
                    throw LabError(
                        status: .unprocessableContent,
                        code: "notMarbles",
                        message: "These lanes cannot be written as marbles: \(error)"
                    )
                }
            }
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/x-swift; charset=utf-8",
                .contentDisposition: "attachment; filename=\"RecordedLanesTests.swift\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: source))
        )
    }

    /// A `frame` query item: seconds above 0, or nil when not given.
    static func frame(_ text: String?) throws(LabError) -> Double? {
        guard let text else { return nil }
        return try checked(frame: Double(text) ?? .nan)
    }

    static func checked(frame: Double?) throws(LabError) -> Double? {
        guard let frame else { return nil }
        // Tests count time in milliseconds, and a document's waits are at most a day.
        guard frame.isFinite, (0.001...86_400).contains(frame) else {
            throw .badRequest("badFrame", "frame is a number of seconds from 0.001 to 86400.")
        }
        return frame
    }

    /// `201 {"id"}`, saying where the new thing is.
    static func created(_ id: String, at location: String) -> EditedResponse<[String: String]> {
        EditedResponse(status: .created, headers: [.location: location], response: ["id": id])
    }

    @Sendable func upgradeRequired(_ request: Request, context: LabRequestContext) async throws -> Response {
        throw LabError(
            status: .upgradeRequired,
            code: "webSocket",
            message: "A recording is watched live over a WebSocket.",
            headers: [.upgrade: "websocket"]
        )
    }

    static func id(_ context: LabRequestContext) throws(LabError) -> String {
        try context.requireDocumentID(naming: "such recording").description
    }
}
