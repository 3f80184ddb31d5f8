import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Tributary
import TributaryLabWire
import TributaryStreams

/// Runs of documents: `POST /api/run`, `POST /api/diagram.svg`, `POST /api/marbles`, which take
/// any document and so need the token or the session, and `GET /api/streams/{id}/run` and
/// `GET /api/streams/{id}/diagram.svg` (`?version=N`, the latest by default), which run and draw
/// a stored version for whoever has its link, once per version (see ``SharedRuns``).
///
/// Every run has a budget — real time, events, operators and the bytes of its answer — and runs
/// on threads of its own (``RunPool``), so that no run, however heavy, delays another request.
/// A run past its budget is answered `422 runBudgetExceeded`, naming the limit; a full pool `503`
/// with `Retry-After`. Text lanes count as printed, their quiet stretches as time spans, so a
/// timeline that is wide but quiet is answered, and only one whose printed lanes are still too
/// long is refused.
struct RunsController {
    let documents: DocumentService
    /// The recordings whose lanes are drawn, if the lab keeps any.
    let recordings: RecordingService?
    let pool: RunPool
    let budget: RunBudget
    let authenticator: LabAuthenticator
    let maximumBodySize: Int
    /// The stored versions run and drawn for their links.
    let shared: SharedRuns

    /// The longest marble diagram `/api/marbles` reads: a diagram longer than this is no longer
    /// one a person draws.
    static let maximumMarbles = 16 << 10

    func addRoutes(to router: Router<LabRequestContext>) {
        router.get("api/streams/:id/diagram.svg", use: storedDiagram)
        router.get("api/streams/:id/run", use: storedRun)
        let runs = RouteCollection(context: LabRequestContext.self)
        runs.add(middleware: authenticator)
        runs.post("run", use: run)
        runs.post("diagram.svg", use: diagram)
        runs.post("marbles", use: marbles)
        if recordings != nil { runs.get("recordings/:id/diagram.svg", use: recordingDiagram) }
        router.addRoutes(runs, atPath: "api")
    }

    @Sendable func run(_ request: Request, context: LabRequestContext) async throws -> Response {
        let document = try await request.decode(
            as: StreamDocument.self,
            context: context.limitingBodies(to: maximumBodySize)
        )
        let budget = budget
        let body = try await pool.execute { () throws(LabError) -> Data in
            try Self.runBody(of: document, budget: budget)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    /// A stored version's run, as `POST /api/run` answers it, for whoever has its link.
    @Sendable func storedRun(_ request: Request, context: LabRequestContext) async throws -> Response {
        Self.answer(
            try await sharedVersion(request, context: context).run,
            type: "application/json; charset=utf-8"
        )
    }

    /// `200` with `body`, of `type`, which a browser asks for again rather than keep.
    private static func answer(_ body: Data, type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    /// The version `?version=` names (the latest without it), run and drawn, kept or made once.
    private func sharedVersion(
        _ request: Request,
        context: LabRequestContext
    ) async throws -> SharedRuns.Drawn {
        let id = try DocumentsController.id(context)
        var named = try await documents.latestVersion(id)
        if let text = request.uri.queryParameters["version"] {
            // Digits alone, as a link writes a version: not +1, 01 or 1e0.
            guard text.utf8.allSatisfy({ (48...57).contains($0) }), text.first != "0", let given = Int(text),
                given > 0
            else {
                throw LabError.badRequest("badVersion", "A version is a number from 1.")
            }
            guard given <= named else { throw DocumentService.noSuchVersion(given, latest: named) }
            named = given
        }
        let (documents, budget, number) = (documents, budget, named)
        // The version is read only when its answers are not kept, and only once it is charged
        // to the caller: reading a large document is work, too.
        return try await shared.drawn(
            .init(id: id, version: number),
            for: SharedRuns.caller(context.remoteHost)
        ) {
            let stored = try await documents.version(number, of: id)
            let (document, title) = (stored.document, stored.title)
            return try await pool.execute { () throws(LabError) -> SharedRuns.Drawn in
                let timeline = try Self.timeline(of: document, budget: budget)
                let svg = Data(SVGRenderer.render(timeline, document: document, title: title).utf8)
                try Self.check(output: svg.count, budget: budget)
                return SharedRuns.Drawn(
                    run: try Self.runBody(of: document, timeline: timeline, budget: budget),
                    svg: svg
                )
            }
        }
    }

    /// The JSON of a run: the marbles as text with their values, the timeline, and whether a
    /// guard stopped it.
    static func runBody(
        of document: StreamDocument,
        timeline given: Timeline? = nil,
        budget: RunBudget
    ) throws(LabError)
        -> Data
    {
        let timeline: Timeline
        if let given {
            timeline = given
        } else {
            timeline = try Self.timeline(of: document, budget: budget)
        }
        let drawing = try Self.withinBudget { () throws(StreamError) in
            try TextLanes.draw(timeline, document: document, maximumBytes: budget.outputBytes)
        }
        struct Body: Encodable {
            var marbles: String
            var values: [String: StreamValue]
            var timeline: [Timeline.Event]
            var isTruncated: Bool
        }
        let values = Dictionary(uniqueKeysWithValues: drawing.values.map { (String($0.key), $0.value) })
        let body = Body(
            marbles: drawing.text,
            values: values,
            timeline: timeline.events,
            isTruncated: timeline.isTruncated
        )
        guard let data = try? LabJSON.encoder.encode(body) else { throw LabError.unencodable }
        try Self.check(output: data.count, budget: budget)
        return data
    }

    @Sendable func diagram(_ request: Request, context: LabRequestContext) async throws -> Response {
        try await svg(
            try await request.decode(
                as: StreamDocument.self,
                context: context.limitingBodies(to: maximumBodySize)
            )
        )
    }

    @Sendable func storedDiagram(_ request: Request, context: LabRequestContext) async throws -> Response {
        Self.answer(
            try await sharedVersion(request, context: context).svg,
            type: "image/svg+xml; charset=utf-8"
        )
    }

    /// A recording's lanes drawn: `?lanes=a,b` (all by default) and `frame`, as
    /// `POST /api/recordings/{id}/document` makes them into a document.
    @Sendable func recordingDiagram(_ request: Request, context: LabRequestContext) async throws -> Response {
        guard let recordings else { throw LabError.notFound("such recording") }
        let id = try RecordingsController.id(context)
        let query = request.uri.queryParameters
        let frame = try RecordingsController.frame(query["frame"].map(String.init))
        let named = query["lanes"].map { $0.split(separator: ",").map(String.init) }
        return try await recordings.replaying(named, in: id) { recorded in
            // Made on the run threads, as the run and the drawing are: it reads every event.
            let document = try await pool.execute { () throws(LabError) -> StreamDocument in
                do throws(StreamError) {
                    return try RecordingDocument.make(
                        name: recorded.recording.name,
                        lanes: recorded.lanes,
                        of: recorded.events,
                        frame: frame
                    )
                } catch {
                    throw LabError.invalidDocument(error)
                }
            }
            return try await svg(document, title: recorded.recording.name)
        }
    }

    @Sendable func marbles(_ request: Request, context: LabRequestContext) async throws -> Response {
        struct Marbles: Decodable {
            var marbles: String
            var frame: Double?
            var id: String?
            var values: [String: StreamValue]?
        }
        let given = try await request.decode(
            as: Marbles.self,
            context: context.limitingBodies(to: Self.maximumMarbles + 1_024),
            else: LabError.badRequest(
                "malformedJSON",
                "The body is {\"marbles\": \"-a-b|\", \"frame\": seconds, \"id\": name, \"values\": {\"a\": value}}."
            )
        )
        guard given.marbles.utf8.count <= Self.maximumMarbles else {
            throw LabError(
                status: .contentTooLarge,
                code: "tooLarge",
                message: "A marble diagram has at most \(Self.maximumMarbles) characters."
            )
        }
        var values: [Character: StreamValue] = [:]
        for (key, value) in given.values ?? [:] {
            guard key.count == 1, let character = key.first else {
                throw LabError.invalidDocument(
                    StreamError(
                        .badValue("a value stands for one character of the diagram, not \"\(key)\""),
                        path: "$.values"
                    )
                )
            }
            values[character] = value
        }
        let budget = budget
        let body = try await pool.execute { [values] () throws(LabError) -> Data in
            let stream = try Self.withinBudget { () throws(StreamError) in
                try TributaryStreams.Marbles.parse(
                    given.marbles,
                    frame: given.frame ?? 1,
                    values: values,
                    id: given.id ?? "marbles"
                )
            }
            guard let data = try? LabJSON.encoder.encode(["stream": stream]) else {
                throw LabError.unencodable
            }
            try Self.check(output: data.count, budget: budget)
            return data
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    // MARK: Pieces of the routes

    private func svg(_ document: StreamDocument, title: String? = nil) async throws -> Response {
        let budget = budget
        let drawing = try await pool.execute { () throws(LabError) -> String in
            let timeline = try Self.timeline(of: document, budget: budget)
            let drawing = SVGRenderer.render(timeline, document: document, title: title)
            try Self.check(output: drawing.utf8.count, budget: budget)
            return drawing
        }
        return Response(
            status: .ok,
            headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: drawing))
        )
    }

    /// Runs `document` within `budget`; a run stopped by the budget is an error that names the
    /// limit, while one that reaches the end of the virtual time it covers is answered as it is.
    static func timeline(of document: StreamDocument, budget: RunBudget) throws(LabError) -> Timeline {
        let runner = StreamRunner(
            maximumEvents: budget.events,
            maximumBytes: budget.outputBytes,
            maximumOperators: budget.operators,
            timeLimit: budget.time
        )
        let timeline: Timeline
        do throws(StreamError) {
            timeline = try runner.run(document)
        } catch {
            if case .runTooLarge = error.kind { throw exceeded("\(error)") }
            throw LabError.invalidDocument(error)
        }
        switch timeline.stoppedBy {
        case .duration?, nil: return timeline
        case let limit?: throw exceeded("The run was stopped at \(limit).")
        }
    }

    static func withinBudget<Value>(_ body: () throws(StreamError) -> Value) throws(LabError) -> Value {
        do throws(StreamError) {
            return try body()
        } catch {
            if case .outputTooLarge = error.kind { throw exceeded("\(error)") }
            throw LabError.invalidDocument(error)
        }
    }

    static func check(output bytes: Int, budget: RunBudget) throws(LabError) {
        guard bytes <= budget.outputBytes else {
            throw exceeded(
                "The answer would take \(bytes) bytes, more than the limit of \(budget.outputBytes)."
            )
        }
    }

    static func exceeded(_ message: String) -> LabError {
        LabError(status: .unprocessableContent, code: "runBudgetExceeded", message: message)
    }
}

extension HTTPField.Name {
    static let retryAfter = Self("Retry-After")!
}
