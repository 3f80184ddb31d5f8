import Foundation

/// One difference between two values of a structured lane, at a path of their JSON.
///
/// ```swift
/// LaneChange.changes(from: #"{"query":"s","results":[]}"#, to: #"{"query":"sw","results":[1]}"#)
/// // ~ query: "s" → "sw"
/// // + results[0]: 1
/// ```
public struct LaneChange: Sendable, Equatable, CustomStringConvertible {
    /// What happened at the path.
    public enum Kind: String, Sendable, Equatable {
        /// The path has a value after but not before.
        case added
        /// The path had a value before but not after.
        case removed
        /// The value at the path differs.
        case changed
    }

    /// Where, as the lab's paths read: `query`, `results[2].title`, `["a key"]`; empty for the
    /// whole value.
    public var path: String
    /// What happened at the path.
    public var kind: Kind
    /// The JSON before, for a change or a removal.
    public var old: String?
    /// The JSON after, for a change or an addition.
    public var new: String?

    /// Creates a change.
    public init(path: String, kind: Kind, old: String?, new: String?) {
        self.path = path
        self.kind = kind
        self.old = old
        self.new = new
    }

    /// `~ query: "s" → "sw"`, `+ results[0]: 1`, `- error: "timeout"`; paths and values longer
    /// than 120 characters are shortened.
    public var description: String {
        let place = path.isEmpty ? "(the value)" : Self.shortened(path)
        switch kind {
        case .added: return "+ \(place): \(Self.shortened(new ?? ""))"
        case .removed: return "- \(place): \(Self.shortened(old ?? ""))"
        case .changed: return "~ \(place): \(Self.shortened(old ?? "")) → \(Self.shortened(new ?? ""))"
        }
    }

    package static func shortened(_ text: String, most: Int = 120) -> String {
        text.count > most ? String(text.prefix(most - 1)) + "…" : text
    }

    /// What changed from the JSON `old` to the JSON `new`, depth first, an object's keys in
    /// sorted order and an array's items by index; nil when either is not JSON.
    ///
    /// The values are walked with a list of places still to compare, not by recursion, so a
    /// value's depth costs no stack.
    public static func changes(from old: String, to new: String) -> [LaneChange]? {
        guard let before = json(old), let after = json(new) else { return nil }
        enum Step {
            case compare(path: String, old: Any, new: Any)
            case note(LaneChange)
        }
        var changes: [LaneChange] = []
        var pending: [Step] = [.compare(path: "", old: before, new: after)]
        while let step = pending.popLast() {
            guard case .compare(let path, let old, let new) = step else {
                if case .note(let change) = step { changes.append(change) }
                continue
            }
            var steps: [Step] = []
            if let old = old as? [String: Any], let new = new as? [String: Any] {
                let keys = Set(old.keys).union(new.keys).sorted {
                    $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars)
                }
                for key in keys {
                    let place = path + member(key, first: path.isEmpty)
                    switch (old[key], new[key]) {
                    case (let was?, let now?): steps.append(.compare(path: place, old: was, new: now))
                    case (let was?, nil):
                        steps.append(.note(LaneChange(path: place, kind: .removed, old: text(was), new: nil)))
                    case (nil, let now?):
                        steps.append(.note(LaneChange(path: place, kind: .added, old: nil, new: text(now))))
                    case (nil, nil): break
                    }
                }
            } else if let old = old as? [Any], let new = new as? [Any] {
                for index in 0..<max(old.count, new.count) {
                    let place = "\(path)[\(index)]"
                    if index < old.count, index < new.count {
                        steps.append(.compare(path: place, old: old[index], new: new[index]))
                    } else if index < old.count {
                        steps.append(
                            .note(LaneChange(path: place, kind: .removed, old: text(old[index]), new: nil))
                        )
                    } else {
                        steps.append(
                            .note(LaneChange(path: place, kind: .added, old: nil, new: text(new[index])))
                        )
                    }
                }
            } else {
                let (was, now) = (text(old), text(new))
                if was != now { changes.append(LaneChange(path: path, kind: .changed, old: was, new: now)) }
            }
            // Last pushed, first taken: the steps run in reading order.
            pending.append(contentsOf: steps.reversed())
        }
        return changes
    }

    /// A member's part of a path: `.name` for a plain name (`name` when `first`), else `["…"]`.
    static func member(_ key: String, first: Bool) -> String {
        let scalars = key.unicodeScalars
        let plain =
            scalars.allSatisfy { $0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0) }
            && scalars.first.map { !("0"..."9").contains($0) } == true
        if plain { return first ? key : "." + key }
        var quoted: [UInt8] = []
        appendJSONString(key, to: &quoted)
        return "[\(String(decoding: quoted, as: UTF8.self))]"
    }

    private static func json(_ text: String) -> Any? {
        let data = Data(text.utf8)
        guard JSONGrammar.isValid(data, maximumDepth: LaneEncoding.maximumDepth) else { return nil }
        return try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    }

    /// `value` as compact JSON, an object's keys in the order of their Unicode scalar values
    /// (as the lab's page orders them); a value's depth is at most 32, which `json` checked.
    private static func text(_ value: Any) -> String {
        if let object = value as? [String: Any] {
            let members = object.keys.sorted {
                $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars)
            }.map {
                key in
                var quoted: [UInt8] = []
                appendJSONString(key, to: &quoted)
                return String(decoding: quoted, as: UTF8.self) + ":" + text(object[key] ?? NSNull())
            }
            return "{" + members.joined(separator: ",") + "}"
        }
        if let array = value as? [Any] {
            return "[" + array.map(text).joined(separator: ",") + "]"
        }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value,
                options: [.fragmentsAllowed, .withoutEscapingSlashes]
            )
        else { return String(describing: value) }
        return String(decoding: data, as: UTF8.self)
    }
}
