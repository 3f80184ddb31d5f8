import Foundation
import Hummingbird
import Logging
import OTel
import ServiceLifecycle
import Testing
import Tracing
import Tributary
import TributaryTracing

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// Lanes recorded by `TracingLaneRecorder` into swift-otel's tracer reach an OpenTelemetry
/// collector over OTLP/HTTP: here a receiver on loopback, which keeps each export's JSON.
@Suite(.timeLimit(.minutes(5))) struct OTLPExportTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "the search service broke" }
    }

    struct State: Encodable {
        var query: String
        var results: [String]
    }

    /// A span as an export carries it: its name, its events (each with its attributes as text)
    /// and its status.
    struct ExportedSpan {
        var name: String
        var events: [(name: String, attributes: [String: String])]
        var status: [String: Any]
    }

    /// Every span in one OTLP/JSON export: `resourceSpans[].scopeSpans[].spans[]`.
    static func spans(in body: Data) -> [ExportedSpan] {
        guard let export = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
        let resources = export["resourceSpans"] as? [[String: Any]] ?? []
        let scopes = resources.flatMap { $0["scopeSpans"] as? [[String: Any]] ?? [] }
        return scopes.flatMap { $0["spans"] as? [[String: Any]] ?? [] }.map { span in
            let events = (span["events"] as? [[String: Any]] ?? []).map { event in
                let attributes = (event["attributes"] as? [[String: Any]] ?? []).reduce(
                    into: [String: String]()
                ) {
                    kept,
                    attribute in
                    guard let key = attribute["key"] as? String,
                        let value = attribute["value"] as? [String: Any]
                    else {
                        return
                    }
                    kept[key] = value.values.first.map { "\($0)" }
                }
                return (name: event["name"] as? String ?? "", attributes: attributes)
            }
            return ExportedSpan(
                name: span["name"] as? String ?? "",
                events: events,
                status: span["status"] as? [String: Any] ?? [:]
            )
        }
    }

    @Test func lanesReachAnOTLPReceiverAsSpansWithTheirValuesAndFailures() async throws {
        let (bodies, received) = AsyncStream<Data>.makeStream()
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            received.yield(Data(buffer: body))
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{}"))
            )
        }
        // The receiver's own log stays quiet: its shutdown at the end is expected.
        var quiet = Logger(label: "OTLP receiver")
        quiet.logLevel = .critical
        let receiver = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                bound.yield(channel.localAddress?.port ?? 0)
                bound.finish()
            },
            logger: quiet
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await receiver.runService(gracefulShutdownSignals: []) }
            var ports = ports.makeAsyncIterator()
            let port = try #require(await ports.next())

            var configuration = OTel.Configuration.default
            configuration.serviceName = "tributary-lanes"
            configuration.traces.otlpExporter.endpoint = "http://127.0.0.1:\(port)/v1/traces"
            configuration.traces.otlpExporter.protocol = .httpJSON
            configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(50)
            let (tracer, service) = try OTel.makeTracingBackend(configuration: configuration)
            // The exporter runs in a service group of its own, to be shut down gracefully (its
            // exports answered) before the receiver it exports to.
            let exporter = ServiceGroup(services: [service], gracefulShutdownSignals: [], logger: quiet)
            let exporting = Task { try await exporter.run() }

            let recorder = TracingLaneRecorder(tracer: tracer)
            let states = PassthroughSubject<State, Never>()
            let watched = states.lane("state", encoding: .json, recorder: recorder).sink { _ in }
            states.send(State(query: "sw", results: []))
            states.send(State(query: "swift", results: ["Swift 6"]))
            states.send(completion: .finished)
            watched.cancel()
            let failing = Fail<Int, Broken>(error: Broken()).lane("search", recorder: recorder).sink(
                receiveCompletion: { _ in },
                receiveValue: { _ in }
            )
            failing.cancel()

            // Exports come in batches, as the processor sends them, until both spans have come.
            var spans: [ExportedSpan] = []
            for await body in bodies {
                spans += Self.spans(in: body)
                if spans.contains(where: { $0.name.hasPrefix("state #") }),
                    spans.contains(where: { $0.name.hasPrefix("search #") })
                {
                    break
                }
            }
            let state = try #require(spans.first { $0.name.hasPrefix("state #") })
            let values = state.events.filter { $0.name == "value" }
            #expect(
                values.map { $0.attributes["lane.value.json"] } == [
                    #"{"query":"sw","results":[]}"#, #"{"query":"swift","results":["Swift 6"]}"#,
                ]
            )
            #expect(values.first?.attributes["lane.value"]?.contains("sw") == true)
            let search = try #require(spans.first { $0.name.hasPrefix("search #") })
            #expect(search.status["message"] as? String == "the search service broke")
            #expect(["STATUS_CODE_ERROR", "2"].contains(search.status["code"].map { "\($0)" } ?? ""))
            await exporter.triggerGracefulShutdown()
            try await exporting.value
            group.cancelAll()
        }
    }
}
