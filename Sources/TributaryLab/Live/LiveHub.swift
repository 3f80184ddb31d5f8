import Foundation
import Tributary
import TributaryStreams

/// The viewers of each document, and what they are sent: every save, presence, deletion.
///
/// A viewer is a buffer of outgoing messages. One that fills up — a client that does not read —
/// is disconnected rather than buffered without limit, and never holds up the others.
final class LiveHub: Sendable {
    struct Viewer: Sendable {
        /// Queues a message; false when the viewer's buffer is full.
        let deliver: @Sendable (String) -> Bool
        /// Ends the viewer's connection.
        let disconnect: @Sendable () -> Void
    }

    private struct State {
        var next = 0
        var rooms: [String: [Int: Viewer]] = [:]
    }

    private let state = Protected(State())

    /// Adds a viewer of `document`; returns its number and how many view it now.
    func join(_ document: String, _ viewer: Viewer) -> (id: Int, viewers: Int) {
        state.withLock { state in
            state.next += 1
            state.rooms[document, default: [:]][state.next] = viewer
            return (state.next, state.rooms[document]?.count ?? 0)
        }
    }

    /// Removes a viewer; returns how many are left.
    @discardableResult
    func leave(_ document: String, _ id: Int) -> Int {
        state.withLock { state in
            state.rooms[document]?[id] = nil
            if state.rooms[document]?.isEmpty == true { state.rooms[document] = nil }
            return state.rooms[document]?.count ?? 0
        }
    }

    /// How many view `document`.
    func viewers(of document: String) -> Int {
        state.withLock { $0.rooms[document]?.count ?? 0 }
    }

    /// Queues `message` for every viewer of `document`; those that cannot take it are
    /// disconnected.
    func send(_ message: String, to document: String) {
        let viewers = state.withLock { Array(($0.rooms[document] ?? [:]).values) }
        for viewer in viewers where !viewer.deliver(message) {
            viewer.disconnect()
        }
    }

    /// Ends every connection to `document`.
    func disconnectAll(from document: String) {
        let viewers = state.withLock { Array(($0.rooms[document] ?? [:]).values) }
        for viewer in viewers { viewer.disconnect() }
    }
}

/// The messages of `GET /api/streams/{id}/live`, as JSON text.
enum LiveMessage {
    private struct Snapshot: Encodable {
        var type = "snapshot"
        var version: Int
        var document: StreamDocument
        var viewers: Int
    }

    private struct Saved: Encodable {
        var type = "saved"
        var version: Int
        var document: StreamDocument
        var author: String
    }

    private struct Conflict: Encodable {
        var type = "conflict"
        var version: Int
        var document: StreamDocument
    }

    private struct Invalid: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var path: String?
        }
        var type = "invalid"
        var error: Detail
    }

    private struct Presence: Encodable {
        var type = "presence"
        var viewers: Int
    }

    static func snapshot(_ stored: StoredDocument, viewers: Int) -> String {
        text(Snapshot(version: stored.version, document: stored.document, viewers: viewers))
    }

    static func saved(_ stored: StoredDocument) -> String {
        text(Saved(version: stored.version, document: stored.document, author: stored.author))
    }

    static func conflict(_ current: StoredDocument) -> String {
        text(Conflict(version: current.version, document: current.document))
    }

    static func invalid(_ code: String, _ message: String, path: String? = nil) -> String {
        text(Invalid(error: .init(code: code, message: message, path: path)))
    }

    static func presence(_ viewers: Int) -> String { text(Presence(viewers: viewers)) }

    static let deleted = #"{"type":"deleted"}"#

    private static func text(_ value: some Encodable) -> String {
        String(decoding: (try? LabJSON.encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
