import Foundation
import Tributary
import TributaryLabWire

/// A recording in the Chrome trace event format (its JSON object form), which Perfetto's UI and
/// chrome://tracing open: a track (thread) per lane, a slice per subscription — async `b`/`e`
/// events, as a lane's subscriptions overlap — an instant event per value, and each lane's
/// outstanding demand — what its subscriptions have asked for and not yet been sent, those that
/// asked for unlimited aside — as a counter.
///
/// Written as the events are read, a page at a time: it holds a mark per subscription that is
/// open, never the recording. Times are the recording's seconds as microseconds.
struct RecordingTrace {
    private var tracks: [String: Int] = [:]
    private var open: Set<Key> = []
    private var ended: Set<Key> = []
    /// What each subscription has asked for and not yet been sent; absent once unlimited.
    private var demand: [Key: Int] = [:]
    /// The sum of `demand` over each lane's subscriptions.
    private var laneDemand: [String: Int] = [:]
    private var lastTime = 0.0
    private var wroteEvent = false

    private struct Key: Hashable {
        var lane: String
        var subscription: Int
    }

    /// The start of the file: the object, the process named after the recording.
    mutating func begin(name: String) -> [UInt8] {
        var bytes = Array(
            #"{"displayTimeUnit":"ms","otherData":{"format":"tributary-recording"},"traceEvents":["#.utf8
        )
        append(&bytes) { bytes in
            bytes += Array(#"{"args":{"name":"#.utf8)
            appendJSONString(name, to: &bytes)
            bytes += Array(#"},"name":"process_name","ph":"M","pid":1,"tid":0}"#.utf8)
        }
        return bytes
    }

    /// Writes one event of the recording.
    mutating func write(_ event: RecordedLaneEvent, to bytes: inout [UInt8]) {
        let track = track(of: event.lane, writingTo: &bytes)
        let key = Key(lane: event.lane, subscription: event.subscription)
        let time = Self.microseconds(event.t)
        lastTime = max(lastTime, event.t)
        // A subscription whose beginning was not recorded begins where it is first seen.
        if !open.contains(key), !ended.contains(key) {
            open.insert(key)
            demand[key] = 0
            slice("b", key, track: track, time: time, to: &bytes) { bytes in
                bytes += Array(#""source":"#.utf8)
                appendJSONString(event.source, to: &bytes)
            }
        }
        switch event.kind {
        case .subscribed:
            break
        case .requested:
            switch event.demand {
            case .max(let count)?:
                if demand[key] != nil { owe(count, key, track: track, time: time, to: &bytes) }
            case .unlimited?, nil:
                if let owed = demand[key], owed != 0 { owe(-owed, key, track: track, time: time, to: &bytes) }
                demand[key] = nil
                instant("requested unlimited", key, category: "demand", track: track, time: time, to: &bytes)
                { _ in }
            }
        case .value:
            if let owed = demand[key], owed > 0 { owe(-1, key, track: track, time: time, to: &bytes) }
            instant("value", key, category: "value", track: track, time: time, to: &bytes) { bytes in
                bytes += Array(#""value":"#.utf8)
                appendJSONString(event.value ?? "", to: &bytes)
                // A structured value's JSON, checked as JSON when it was stored, as an object
                // the trace viewer unfolds.
                if let structure = event.structure {
                    bytes += Array(#","json":"#.utf8)
                    bytes += Array(structure.utf8)
                }
            }
        case .finished, .failed, .cancelled:
            guard open.remove(key) != nil else { return }
            ended.insert(key)
            if let owed = demand[key], owed > 0 { owe(-owed, key, track: track, time: time, to: &bytes) }
            demand[key] = nil
            slice("e", key, track: track, time: time, to: &bytes) { bytes in
                bytes += Array(#""end":""#.utf8) + Array(event.kind.rawValue.utf8) + [UInt8(ascii: "\"")]
                if let error = event.error {
                    bytes += Array(#","error":"#.utf8)
                    appendJSONString(error, to: &bytes)
                }
            }
        }
    }

    /// The end of the file: each subscription still open ends at the recording's last event.
    mutating func end() -> [UInt8] {
        var bytes: [UInt8] = []
        let time = Self.microseconds(lastTime)
        for key in open.sorted(by: { ($0.lane, $0.subscription) < ($1.lane, $1.subscription) }) {
            slice("e", key, track: tracks[key.lane] ?? 0, time: time, to: &bytes) { bytes in
                bytes += Array(#""end":"still subscribed""#.utf8)
            }
        }
        open.removeAll()
        bytes += Array("]}".utf8)
        return bytes
    }

    /// The lane's track, named and sorted in the order lanes first appear.
    private mutating func track(of lane: String, writingTo bytes: inout [UInt8]) -> Int {
        if let track = tracks[lane] { return track }
        let track = tracks.count + 1
        tracks[lane] = track
        for (name, argument) in [("thread_name", nil), ("thread_sort_index", track)] {
            append(&bytes) { bytes in
                bytes += Array(#"{"args":{"#.utf8)
                if let argument {
                    bytes += Array(#""sort_index":\#(argument)"#.utf8)
                } else {
                    bytes += Array(#""name":"#.utf8)
                    appendJSONString(lane, to: &bytes)
                }
                bytes += Array(#"},"name":"\#(name)","ph":"M","pid":1,"tid":\#(track)}"#.utf8)
            }
        }
        return track
    }

    private mutating func slice(
        _ phase: String,
        _ key: Key,
        track: Int,
        time: String,
        to bytes: inout [UInt8],
        arguments: (inout [UInt8]) -> Void
    ) {
        let rest =
            #","id":"\#(track).\#(key.subscription)","ph":"\#(phase)","pid":1,"tid":\#(track),"ts":\#(time)}"#
        emit("subscription", "\(key.lane) #\(key.subscription)", rest, to: &bytes, arguments: arguments)
    }

    private mutating func instant(
        _ name: String,
        _ key: Key,
        category: String,
        track: Int,
        time: String,
        to bytes: inout [UInt8],
        arguments: (inout [UInt8]) -> Void
    ) {
        emit(category, name, #","ph":"i","pid":1,"s":"t","tid":\#(track),"ts":\#(time)}"#, to: &bytes) {
            bytes in
            bytes += Array(#""subscription":\#(key.subscription)"#.utf8)
            var more: [UInt8] = []
            arguments(&more)
            if !more.isEmpty { bytes += [UInt8(ascii: ",")] + more }
        }
    }

    /// Changes what subscription `key` is owed by `change`, and writes its lane's counter.
    private mutating func owe(_ change: Int, _ key: Key, track: Int, time: String, to bytes: inout [UInt8]) {
        if let owed = demand[key] { demand[key] = owed + change }
        let total = laneDemand[key.lane, default: 0] + change
        laneDemand[key.lane] = total
        emit(
            "demand",
            "\(key.lane) demand",
            #","id":"\#(track)","ph":"C","pid":1,"ts":\#(time)}"#,
            to: &bytes
        ) {
            bytes in
            bytes += Array(#""outstanding":\#(total)"#.utf8)
        }
    }

    /// One trace event: its arguments, category and name, then `rest`, the fields that follow.
    private mutating func emit(
        _ category: String,
        _ name: String,
        _ rest: String,
        to bytes: inout [UInt8],
        arguments: (inout [UInt8]) -> Void
    ) {
        append(&bytes) { bytes in
            bytes += Array(#"{"args":{"#.utf8)
            arguments(&bytes)
            bytes += Array(#"},"cat":"\#(category)","name":"#.utf8)
            appendJSONString(name, to: &bytes)
            bytes += Array(rest.utf8)
        }
    }

    /// Appends one trace event, after a comma when one came before.
    private mutating func append(_ bytes: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
        if wroteEvent { bytes.append(UInt8(ascii: ",")) }
        wroteEvent = true
        write(&bytes)
    }

    /// Seconds as whole microseconds, as the format counts them, written as JSON.
    static func microseconds(_ seconds: Double) -> String {
        String(Int64((seconds * 1_000_000).rounded()))
    }
}
