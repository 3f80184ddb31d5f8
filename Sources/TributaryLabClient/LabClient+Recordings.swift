import Foundation
import HTTPTypes
public import Tributary
public import TributaryHTTP
public import TributaryLabWire

/// A recording with its events, as `LaneEvent`s whose times count from the recorder's start.
public struct Recording: Sendable, Equatable {
    /// The lab's id for the recording.
    public var id: String
    /// The recording's name, unique in the lab.
    public var name: String
    /// How many events its recorders reported they could not keep.
    public var dropped: Int
    /// Every event, in the order the lab stored them.
    public var events: [LaneEvent]

    /// The names of its lanes, in the order they first appear.
    public var lanes: [String] {
        var seen = Set<String>()
        return events.map(\.lane).filter { seen.insert($0).inserted }
    }

    /// The events in a `LaneMemory`, for its marbles.
    public var memory: LaneMemory {
        let memory = LaneMemory()
        for event in events { memory.record(event) }
        return memory
    }
}

extension LabClient {
    /// Every recording, most recently updated first.
    public func recordings() async throws(APIError) -> [RecordingSummary] {
        struct Page: Decodable { var recordings: [RecordingSummary] }
        return try await api.send(Request<Page>("api/recordings")).recordings
    }

    /// A recording and all its events, read page by page.
    public func recording(_ id: String) async throws(APIError) -> Recording {
        var recording: Recording?
        var after: Int?
        repeat {
            // 2,000 events a page: at most 4,096 characters a text, a page stays within reach.
            var query = [URLQueryItem(name: "limit", value: "2000")]
            if let after { query.append(URLQueryItem(name: "after", value: String(after))) }
            var request = Request<RecordingPage>(.path("api/recordings/\(id)"), query: query)
            request.maximumResponseBodySize = 256 << 20
            let page = try await api.send(request)
            let events = page.events.map(\.laneEvent)
            if recording == nil {
                recording = Recording(id: page.id, name: page.name, dropped: page.dropped, events: events)
            } else {
                recording?.events += events
            }
            // A cursor that does not move would read the same page for ever.
            after = page.next == after ? nil : page.next
        } while after != nil
        return recording ?? Recording(id: id, name: id, dropped: 0, events: [])
    }

    /// Makes a stream document of `lanes`' values at their recorded times; returns its id.
    ///
    /// - Parameters:
    ///   - id: The recording.
    ///   - lanes: The lanes that become streams.
    ///   - frame: The seconds times are rounded to, if any.
    public func document(
        fromRecording id: String,
        lanes: [String],
        frame: Double? = nil
    ) async throws(APIError) -> String {
        struct Body: Encodable, Sendable {
            var lanes: [String]
            var frame: Double?
        }
        struct Made: Decodable { var id: String }
        let request = Request<Made>(
            .path("api/recordings/\(id)/document"),
            method: .post,
            body: .json(Body(lanes: lanes, frame: frame))
        )
        return try await api.send(request).id
    }

    /// A Swift Testing test that feeds `input`'s recorded values through a pipeline and expects
    /// `output`'s, as Swift source.
    public func test(forRecording id: String, input: String, output: String) async throws(APIError) -> String
    {
        let request = Request<Data>(
            .path("api/recordings/\(id)/test.swift"),
            query: [URLQueryItem(name: "input", value: input), URLQueryItem(name: "output", value: output)]
        )
        return String(decoding: try await api.send(request), as: UTF8.self)
    }

    /// Deletes a recording and its events.
    public func deleteRecording(_ id: String) async throws(APIError) {
        try await api.send(Request<Void>(.path("api/recordings/\(id)"), method: .delete))
    }
}

extension RecordedLaneEvent {
    /// The event as the `lane` operator recorded it.
    var laneEvent: LaneEvent {
        let kind: LaneEvent.Kind =
            switch self.kind {
            case .subscribed: .subscribed
            case .requested:
                switch demand {
                case .max(let count)?: .requested(.max(count))
                case .unlimited?, nil: .requested(.unlimited)
                }
            case .value: .value(value ?? "")
            case .finished: .finished
            case .failed: .failed(error ?? "")
            case .cancelled: .cancelled
            }
        let nanoseconds = (t * 1e9).rounded()
        return LaneEvent(
            lane: lane,
            subscription: subscription,
            kind: kind,
            time: nanoseconds.isFinite && abs(nanoseconds) < 9e18 ? .nanoseconds(Int64(nanoseconds)) : .zero,
            source: source,
            structure: structure.map { .json($0) } ?? (cut == true ? .cut : nil)
        )
    }
}
