import Foundation
public import Tracing
public import Tributary

/// A lane recorder that turns each subscription through a lane into a span of
/// swift-distributed-tracing, so that lanes appear in any tracing backend — an OpenTelemetry
/// collector through swift-otel, Jaeger, Zipkin:
///
/// - a span per subscription, named `lane #n`, begun when it subscribes (or at its first event),
///   as a child of the task's current span, with the lane, subscription and source as attributes;
/// - an event per value (`value`, with the value) and per demand (`requested`);
/// - ended when the subscription ends: `lane.end` says how, and a failure is recorded on the
///   span with an error status.
///
/// ```swift
/// Lanes.recorder = TracingLaneRecorder()   // InstrumentationSystem.tracer
/// ```
///
/// Spans still open are held, one per subscription, until they end.
public final class TracingLaneRecorder: LaneRecording, @unchecked Sendable {
    // @unchecked: `open` is reached only under `lock`; the tracer is Sendable.
    private let tracer: any Tracer
    private let lock = NSLock()
    private var open: [Key: any Span] = [:]

    private struct Key: Hashable {
        var lane: String
        var subscription: Int
    }

    /// Records into `tracer`, by default the one the process bootstrapped.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    public func record(_ event: LaneEvent) {
        let key = Key(lane: event.lane, subscription: event.subscription)
        let span = lock.withLock { () -> any Span in
            if let span = open[key] { return span }
            let span = tracer.startSpan(
                "\(event.lane) #\(event.subscription)",
                context: InstrumentationContext.current ?? .topLevel,
                ofKind: .internal
            )
            span.attributes["lane.name"] = event.lane
            span.attributes["lane.subscription"] = event.subscription
            span.attributes["code.source"] = event.source
            open[key] = span
            return span
        }
        switch event.kind {
        case .subscribed:
            break
        case .requested(let demand):
            let asked: SpanAttribute = demand.max.map { .int64(Int64($0)) } ?? .string("unlimited")
            span.addEvent(SpanEvent(name: "requested", attributes: ["lane.demand": asked]))
        case .value(let value):
            var attributes: SpanAttributes = ["lane.value": .string(value)]
            switch event.structure {
            case .json(let json)?: attributes["lane.value.json"] = SpanAttribute.string(json)
            case .cut?: attributes["lane.value.cut"] = SpanAttribute.bool(true)
            case nil: break
            }
            span.addEvent(SpanEvent(name: "value", attributes: attributes))
        case .finished:
            end(key, span, as: "finished")
        case .failed(let reason):
            span.recordError(LaneFailure(description: reason))
            span.setStatus(SpanStatus(code: .error, message: reason))
            end(key, span, as: "failed")
        case .cancelled:
            end(key, span, as: "cancelled")
        }
    }

    private func end(_ key: Key, _ span: any Span, as ending: String) {
        span.attributes["lane.end"] = ending
        span.end()
        lock.withLock { _ = open.removeValue(forKey: key) }
    }

    /// How many spans are open: subscriptions that have not ended.
    public var openSpans: Int { lock.withLock { open.count } }
}

/// A lane's failure, as its description was recorded, recorded on the span as an error.
public struct LaneFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
}
