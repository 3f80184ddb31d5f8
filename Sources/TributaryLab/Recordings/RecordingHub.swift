import Foundation
import NIOCore
import Tributary
import TributaryLabWire

/// The live viewers of each recording, and the events they are sent.
///
/// Each viewer is sent its snapshot first, then every event after it once and in order, however
/// the events arrive: from ingests through this instance, or read from the store after another
/// instance's notice. A batch that would leave a gap for a viewer — one stored meanwhile that it
/// has not been sent — is not sent to it; the hub says from where the viewer is behind, and the
/// events are read from the store.
final class RecordingHub: Sendable {
    struct Viewer: Sendable {
        /// Queues a message; false when the viewer's buffer is full.
        let deliver: @Sendable (ByteBuffer) -> Bool
        /// Ends the viewer's connection.
        let disconnect: @Sendable () -> Void
    }

    private struct Member {
        var viewer: Viewer
        /// How many events the viewer has been sent, counting those its snapshot left out; nil
        /// until its snapshot.
        var shown: Int?
        /// The dropped total it was last sent.
        var dropped = 0
        /// The most events the recording was known to hold before the snapshot.
        var wanted = 0
    }

    private let rooms = Protected([String: [Int: Member]]())
    private let counter = Protected(0)

    /// Adds a viewer of `recording`, to be sent ``show(_:truncated:to:)`` first; returns its number.
    func join(_ recording: String, _ viewer: Viewer) -> Int {
        let number = counter.withLock { counter in
            counter += 1
            return counter
        }
        rooms.withLock { $0[recording, default: [:]][number] = Member(viewer: viewer) }
        return number
    }

    func leave(_ recording: String, _ number: Int) {
        rooms.withLock { rooms in
            rooms[recording]?[number] = nil
            if rooms[recording]?.isEmpty == true { rooms[recording] = nil }
        }
    }

    /// The recordings that someone views.
    func viewedRecordings() -> [String] { rooms.withLock { Array($0.keys) } }

    /// Sends viewer `number` its snapshot, `slice` being the latest events; true when events
    /// were stored meanwhile that the snapshot may lack.
    func show(_ slice: RecordingSlice, truncated: Int, to number: Int) -> Bool {
        let recording = slice.recording
        let message = Self.encode(
            .snapshot(
                recording: recording.id,
                name: recording.name,
                dropped: recording.dropped,
                first: slice.first,
                events: slice.events,
                truncated: truncated
            )
        )
        let (dropped, behind): (Viewer?, Bool) = rooms.withLock { rooms in
            guard var member = rooms[recording.id]?[number] else { return (nil, false) }
            member.shown = slice.first + slice.events.count
            member.dropped = recording.dropped
            rooms[recording.id]?[number] = member
            guard member.viewer.deliver(message) else { return (member.viewer, false) }
            return (nil, member.wanted > slice.first + slice.events.count)
        }
        dropped?.disconnect()
        return behind
    }

    /// Sends the events of `slice` to every viewer that has been sent those before them, and
    /// what of them it lacks to one that has been sent some. Returns the fewest events a viewer
    /// has been sent among those that are behind the slice's start, whose events are to be read
    /// from the store; nil when none is.
    @discardableResult
    func publish(_ slice: RecordingSlice) -> Int? {
        let end = slice.first + slice.events.count
        let dropped = slice.recording.dropped
        var shared: ByteBuffer?
        let (gone, behind): ([Viewer], Int?) = rooms.withLock { rooms in
            guard var room = rooms[slice.recording.id] else { return ([], nil) }
            var gone: [Viewer] = []
            var behind: Int?
            for (number, var member) in room {
                guard let shown = member.shown else {
                    member.wanted = max(member.wanted, end)
                    room[number] = member
                    continue
                }
                if shown < slice.first {
                    behind = min(behind ?? shown, shown)
                    continue
                }
                guard shown < end || (shown == end && member.dropped != dropped && slice.events.isEmpty)
                else { continue }
                let message: ByteBuffer
                if shown == slice.first {
                    if shared == nil {
                        shared = Self.encode(
                            .events(first: slice.first, events: slice.events, dropped: dropped)
                        )
                    }
                    message = shared ?? ByteBuffer()
                } else {
                    let unseen = Array(slice.events[(shown - slice.first)...])
                    message = Self.encode(.events(first: shown, events: unseen, dropped: dropped))
                }
                member.shown = max(shown, end)
                member.dropped = dropped
                room[number] = member
                if !member.viewer.deliver(message) { gone.append(member.viewer) }
            }
            rooms[slice.recording.id] = room
            return (gone, behind)
        }
        for viewer in gone { viewer.disconnect() }
        return behind
    }

    /// The fewest events a viewer of `recording` has been sent, among those sent fewer than
    /// `events`; nil when none is behind.
    func behind(_ recording: String, events: Int) -> Int? {
        rooms.withLock { rooms in
            var behind: Int?
            for (number, var member) in rooms[recording] ?? [:] {
                guard let shown = member.shown else {
                    member.wanted = max(member.wanted, events)
                    rooms[recording]?[number] = member
                    continue
                }
                if shown < events { behind = min(behind ?? shown, shown) }
            }
            return behind
        }
    }

    /// Tells every viewer of `recording` that it is gone, and ends their connections.
    func publishDeletion(of recording: String) {
        let viewers = rooms.withLock { Array(($0[recording] ?? [:]).values.map(\.viewer)) }
        for viewer in viewers {
            _ = viewer.deliver(Self.deleted)
            viewer.disconnect()
        }
    }

    static let deleted = encode(.deleted)

    static let notFound = encode(.notFound)

    static func encode(_ message: RecordingLiveMessage) -> ByteBuffer {
        ByteBuffer(bytes: (try? LabJSON.encoder.encode(message)) ?? Data("{}".utf8))
    }
}
