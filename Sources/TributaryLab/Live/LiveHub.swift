import Foundation
import NIOCore
import Tributary
import TributaryLabWire
import TributaryStreams

/// The viewers of each document, and what they are sent: every save, presence, deletion.
///
/// A viewer is a buffer of outgoing messages. One that fills up — a client that does not read —
/// is disconnected rather than buffered without limit, and never holds up the others.
///
/// Each viewer is sent its snapshot first and then only newer versions, in order, however the
/// saves arrive: through this instance, or from the store when several instances share it.
final class LiveHub: Sendable {
    struct Viewer: Sendable {
        /// Queues a message — JSON text, shared by every viewer it goes to — saying whether it
        /// is a snapshot; false when the viewer's buffer is full.
        let deliver: @Sendable (_ text: ByteBuffer, _ isSnapshot: Bool) -> Bool
        /// Ends the viewer's connection.
        let disconnect: @Sendable () -> Void
    }

    private struct Member {
        var viewer: Viewer
        /// The version the viewer was last sent; nil until its snapshot.
        var shown: Int?
        /// The newest save that arrived before the snapshot.
        var pending: SharedDocument?
        /// The name the viewer gave, if any.
        var name: String?
    }

    private struct State {
        var next = 0
        var rooms: [DocumentID: [Int: Member]] = [:]
        /// The snapshot message of the latest version each document was shown at, encoded once
        /// and shared by all its viewers: a crowd joining a large document costs one copy of it,
        /// however many of them read slowly, and a viewer who comes back costs no read. Kept
        /// after the last viewer leaves, the least recently shown leaving first once they take
        /// more than ``snapshotBytes``.
        var snapshots = LRUList<DocumentID, (version: Int, message: ByteBuffer)>()
        /// The documents whose presence is being announced, or was too recently to be again.
        var announcing: Set<DocumentID> = []
        /// Those of ``announcing`` whose viewers changed since their last announcement.
        var presenceChanged: Set<DocumentID> = []
    }

    /// The bytes of presence a document's viewers are sent per second at most, counted as a
    /// message's size times its viewers: a crowd of long names changing all the time is told
    /// less often, however fast anyone renames.
    let presenceBytesPerSecond: Int
    /// The bytes of snapshot messages kept.
    let snapshotBytes: Int

    init(presenceBytesPerSecond: Int = 4 << 20, snapshotBytes: Int = 32 << 20) {
        self.presenceBytesPerSecond = presenceBytesPerSecond
        self.snapshotBytes = snapshotBytes
    }

    /// How long joins and leaves are gathered into one presence message: a crowd arriving at
    /// once costs each viewer a few messages rather than one per arrival.
    static let presenceInterval = Duration.milliseconds(50)

    private let state = Protected(State())

    /// Adds a viewer of `document`, to be sent ``show(_:to:)`` first; returns its number.
    func join(_ document: DocumentID, _ viewer: Viewer) -> Int {
        state.withLock { state in
            state.next += 1
            state.rooms[document, default: [:]][state.next] = Member(viewer: viewer)
            return state.next
        }
    }

    /// Sends viewer `id` a snapshot of `stored`, or of a newer save that arrived meanwhile,
    /// unless it was sent that version already and `again` is false.
    func show(_ stored: SharedDocument, to id: Int, again: Bool = false) {
        let dropped: Viewer? = state.withLock { state in
            guard var member = state.rooms[stored.id]?[id] else { return nil }
            let latest = [stored, member.pending].compactMap { $0 }.max { $0.version < $1.version } ?? stored
            member.pending = nil
            state.rooms[stored.id]?[id] = member
            guard again || latest.version != member.shown else { return nil }
            let message: ByteBuffer
            if let kept = state.snapshots.value(for: stored.id), kept.version == latest.version {
                message = kept.message
            } else {
                message = LiveMessage.snapshot(latest)
                keep(message, of: stored.id, version: latest.version, in: &state)
            }
            return Self.deliver(message, version: latest.version, to: id, of: stored.id, in: &state)
        }
        dropped?.disconnect()
    }

    /// Sends viewer `id` the kept snapshot of `version` of `document`, when one is kept and no
    /// newer save is waiting for the viewer; false when there is none to send, and the caller
    /// reads the document and ``show(_:to:again:)``s it.
    func showKept(_ document: DocumentID, version: Int, to id: Int, again: Bool = false) -> Bool {
        let (shown, dropped): (Bool, Viewer?) = state.withLock { state in
            guard let member = state.rooms[document]?[id] else { return (true, nil) }
            guard member.pending == nil, let kept = state.snapshots.value(for: document),
                kept.version == version
            else { return (false, nil) }
            guard again || version != member.shown else { return (true, nil) }
            return (true, Self.deliver(kept.message, version: version, to: id, of: document, in: &state))
        }
        dropped?.disconnect()
        return shown
    }

    /// Queues a snapshot of `version` for viewer `id`; answers the viewer when it cannot take it.
    private static func deliver(
        _ message: ByteBuffer,
        version: Int,
        to id: Int,
        of document: DocumentID,
        in state: inout State
    ) -> Viewer? {
        guard var member = state.rooms[document]?[id] else { return nil }
        member.shown = max(member.shown ?? 0, version)
        state.rooms[document]?[id] = member
        return member.viewer.deliver(message, true) ? nil : member.viewer
    }

    private func keep(_ message: ByteBuffer, of document: DocumentID, version: Int, in state: inout State) {
        state.snapshots.set((version, message), for: document, cost: message.readableBytes)
        while state.snapshots.totalCost > snapshotBytes, state.snapshots.removeOldest() != nil {}
    }

    /// Records the name viewer `id` of `document` goes by, or that it gives none, for presence.
    func name(_ name: String?, viewer id: Int, of document: DocumentID) {
        let changed = state.withLock { state in
            guard let member = state.rooms[document]?[id], member.name != name else { return false }
            state.rooms[document]?[id]?.name = name
            return true
        }
        if changed { announcePresence(of: document) }
    }

    /// Removes a viewer; returns how many are left.
    @discardableResult
    func leave(_ document: DocumentID, _ id: Int) -> Int {
        state.withLock { state in
            state.rooms[document]?[id] = nil
            if state.rooms[document]?.isEmpty == true { state.rooms[document] = nil }
            return state.rooms[document]?.count ?? 0
        }
    }

    /// The documents that someone views.
    func viewedDocuments() -> [DocumentID] {
        state.withLock { Array($0.rooms.keys) }
    }

    /// Whether a viewer of `document` has not yet been sent `version`.
    func awaits(_ document: DocumentID, version: Int) -> Bool {
        state.withLock { state in
            (state.rooms[document] ?? [:]).values.contains { ($0.shown ?? 0) < version }
        }
    }

    /// Sends `stored` as `saved` to every viewer that has an older version.
    func publish(_ stored: SharedDocument) {
        let message = LiveMessage.saved(stored)
        let dropped: [Viewer] = state.withLock { state in
            guard var room = state.rooms[stored.id] else { return [] }
            var dropped: [Viewer] = []
            for (id, var member) in room {
                guard let shown = member.shown else {
                    if stored.version > member.pending?.version ?? 0 { member.pending = stored }
                    room[id] = member
                    continue
                }
                guard stored.version > shown else { continue }
                member.shown = stored.version
                room[id] = member
                if !member.viewer.deliver(message, false) { dropped.append(member.viewer) }
            }
            state.rooms[stored.id] = room
            return dropped
        }
        for viewer in dropped { viewer.disconnect() }
    }

    /// Tells every viewer of `document` that it is gone, and ends their connections.
    func publishDeletion(of document: DocumentID) {
        let viewers = state.withLock { state in
            _ = state.snapshots.remove(document)
            return Array((state.rooms[document] ?? [:]).values.map(\.viewer))
        }
        for viewer in viewers {
            _ = viewer.deliver(LiveMessage.deleted, false)
            viewer.disconnect()
        }
    }

    /// Tells every viewer of `document` how many view it and by what names, once the joins and
    /// leaves of the next ``presenceInterval`` are in, and no sooner after the last time than
    /// ``presenceBytesPerSecond`` allows.
    func announcePresence(of document: DocumentID) {
        let starts = state.withLock { state in
            guard state.announcing.insert(document).inserted else {
                state.presenceChanged.insert(document)
                return false
            }
            return true
        }
        guard starts else { return }
        Task {
            while true {
                try? await Task.sleep(for: Self.presenceInterval)
                let (viewers, names) = state.withLock { state in
                    state.presenceChanged.remove(document)
                    let members = state.rooms[document]?.values ?? [:].values
                    return (members.count, members.compactMap(\.name).sorted())
                }
                if viewers > 0 {
                    let message = LiveMessage.presence(viewers, names: names)
                    send(message, to: document)
                    try? await Task.sleep(
                        for: Self.presenceCooldown(
                            cost: message.readableBytes * viewers,
                            bytesPerSecond: presenceBytesPerSecond
                        )
                    )
                }
                let again = state.withLock { state in
                    guard viewers > 0, state.presenceChanged.remove(document) != nil else {
                        state.announcing.remove(document)
                        return false
                    }
                    return true
                }
                guard again else { return }
            }
        }
    }

    /// How long a presence announcement that cost its viewers `cost` bytes in all keeps the
    /// next one back, so that they are sent `bytesPerSecond` at most; beyond the
    /// ``presenceInterval`` every announcement waits.
    static func presenceCooldown(cost: Int, bytesPerSecond: Int) -> Duration {
        let wait = Duration.seconds(Double(cost) / Double(max(1, bytesPerSecond)))
        return max(.zero, wait - presenceInterval)
    }

    /// Queues `message` for every viewer of `document` that has had its snapshot; those that
    /// cannot take it are disconnected.
    func send(_ message: ByteBuffer, to document: DocumentID) {
        let dropped: [Viewer] = state.withLock { state in
            (state.rooms[document] ?? [:]).values.filter {
                $0.shown != nil && !$0.viewer.deliver(message, false)
            }
            .map(\.viewer)
        }
        for viewer in dropped { viewer.disconnect() }
    }
}

/// The messages of `GET /api/streams/{id}/live`, as JSON text ready to be sent.
enum LiveMessage {
    /// A snapshot without the viewer count, which presence messages carry, so that one encoded
    /// copy serves every viewer.
    static func snapshot(_ stored: SharedDocument) -> ByteBuffer {
        encode(.snapshot(stored, viewers: nil))
    }

    static func saved(_ stored: SharedDocument) -> ByteBuffer {
        encode(.saved(stored))
    }

    static func conflict(_ current: SharedDocument) -> ByteBuffer {
        encode(.conflict(current))
    }

    static func invalid(_ code: String, _ message: String, path: String? = nil) -> ByteBuffer {
        encode(.invalid(LabProblem(code: code, message: message, path: path)))
    }

    /// ``invalid(_:_:path:)`` as a string, for the news socket's messages.
    static func invalidText(_ code: String, _ message: String) -> String {
        LabJSON.text(LiveServerMessage.invalid(LabProblem(code: code, message: message)))
    }

    static func presence(_ viewers: Int, names: [String]) -> ByteBuffer {
        encode(.presence(viewers: viewers, names: names))
    }

    static let deleted = encode(.deleted)

    static let notFound = encode(.notFound)

    static func encode(_ message: LiveServerMessage) -> ByteBuffer {
        ByteBuffer(bytes: (try? LabJSON.encoder.encode(message)) ?? Data("{}".utf8))
    }
}
