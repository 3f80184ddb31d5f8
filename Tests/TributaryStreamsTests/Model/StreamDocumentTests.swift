import Foundation
import PropertyBased
import Testing
import TributaryStreams

@Suite struct StreamDocumentTests {
    static let example = #"""
        {
          "schemaVersion": 1,
          "name": "Serial",
          "description": "1, 2, 3, 4 one second apart, doubled, filtered, summed",
          "streams": [
            {"id": "numbers", "items": [
              {"value": 1, "operators": [{"operator": "delay", "seconds": 1}]},
              {"value": 2, "operators": [{"operator": "delay", "seconds": 1}]},
              {"value": 3, "operators": [{"operator": "delay", "seconds": 1}]},
              {"value": 4, "operators": [{"operator": "delay", "seconds": 1}]}]},
            {"id": "letters", "items": [{"value": "a", "operators": [{"operator": "delay", "seconds": 1.5}]},
                                        {"value": "b", "operators": [{"operator": "delay", "seconds": 2}]}],
             "ending": {"kind": "finished", "after": 1}}
          ],
          "nodes": [
            {"id": "doubled", "operator": "map", "input": "numbers", "expression": "$0 * 2"},
            {"id": "big", "operator": "filter", "input": "doubled", "expression": "$0 > 2"},
            {"id": "sum", "operator": "scan", "input": "big", "initial": 0, "expression": "acc + $0"},
            {"id": "pairs", "operator": "combineLatest", "inputs": ["numbers", "letters", "sum"]},
            {"id": "quiet", "operator": "debounce", "input": "numbers", "seconds": 0.5},
            {"id": "sampled", "operator": "throttle", "input": "numbers", "seconds": 2, "latest": true}
          ]
        }
        """#

    @Test func decodesAndRoundTripsThroughJSON() throws {
        let document = try StreamDocument.decode(Data(Self.example.utf8))
        #expect(document.streams.map(\.id) == ["numbers", "letters"])
        #expect(
            document.nodes.map(\.operator.name) == [
                .map, .filter, .scan, .combineLatest, .debounce, .throttle,
            ]
        )
        #expect(document.nodes[3].inputs == ["numbers", "letters", "sum"])
        #expect(document.streams[1].ending == .finished(after: 1))
        let again = try StreamDocument.decode(try document.encoded())
        #expect(again == document)
        let text = String(decoding: try document.encoded(), as: UTF8.self)
        #expect(text.contains(#""schemaVersion" : 1"#))
        #expect(text.contains(#""expression" : "$0 * 2""#))
    }

    /// The note `tributary streams pull` writes at the top of a file is the one field a document
    /// has that it does not read.
    @Test func readsADocumentWithTheLabsNote() throws {
        let document = try StreamDocument.decode(
            Data(#"{"lab": {"id": "abc", "version": 3}, "schemaVersion": 1, "streams": []}"#.utf8)
        )
        #expect(document.streams.isEmpty)
    }

    /// Each kind of malformed document, with where it is wrong.
    @Test(arguments: [
        (#"{"schemaVersion": 2, "streams": []}"#, "$.schemaVersion", "schema version 2"),
        (#"{"streams": []}"#, "$", #""schemaVersion" is missing"#),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": [{"value": {}}]}]}"#,
            "$.streams[0].items[0].value", "Expected"
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}], "nodes": [{"id": "n", "operator": "explode", "input": "s"}]}"#,
            "$.nodes[0].operator", #""explode" is not an operator"#
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}], "nodes": [{"id": "n", "operator": "map", "input": "t", "expression": "$0"}]}"#,
            "$.nodes[0].input", #""t" names no stream or node"#
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}], "nodes": [{"id": "n", "operator": "merge", "inputs": ["s", "u"]}]}"#,
            "$.nodes[0].inputs[1]", #""u" names no stream"#
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}], "nodes": [{"id": "n", "operator": "map", "input": "s"}]}"#,
            "$.nodes[0]", #""expression" is missing"#
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}], "nodes": [{"id": "n", "operator": "map", "input": "s", "expression": "$0 +"}]}"#,
            "$.nodes[0].expression", "does not parse"
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}], "nodes": [{"id": "n", "operator": "prefix", "input": "s", "count": -1}]}"#,
            "$.nodes[0].count", "cannot be negative"
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}], "nodes": [{"id": "n", "operator": "delay", "input": "s", "seconds": 1e9}]}"#,
            "$.nodes[0].seconds", "from 0 to 86400"
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}, {"id": "s", "items": []}]}"#,
            "$.streams[1].id", #""s" is used twice"#
        ),
        (
            #"{"schemaVersion": 1, "streams": [], "nodes": [{"id": "a", "operator": "map", "input": "b", "expression": "$0"}, {"id": "b", "operator": "map", "input": "a", "expression": "$0"}]}"#,
            "$.nodes[0]", "cycle: a → b → a"
        ),
        (
            #"{"schemaVersion": 1, "streams": [], "nodes": [{"id": "a", "operator": "merge", "inputs": ["a"]}]}"#,
            "$.nodes[0]", "cycle: a → a"
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": [], "ending": {"kind": "later"}}]}"#,
            "$.streams[0].ending.kind", "finished, failed or never"
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": [{"value": 1, "operators": [{"operator": "wait"}]}]}]}"#,
            "$.streams[0].items[0].operators[0].operator", #""wait" is not"#
        ),
        (#"{"schemaVersion": 1, "streams": [{"id": "s""#, "$", "cannot be read"),
        // A misspelt or misplaced field is named, not left out without a word.
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": [{"value": 1, "delay": 2}]}]}"#,
            "$.streams[0].items[0].delay",
            #"there is no field "delay" here; the fields here are "value", "operators""#
        ),
        (#"{"schemaVersion": 1, "title": "T", "streams": []}"#, "$.title", #"no field "title""#),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": [], "ending": {"kind": "finished", "afer": 1}}]}"#,
            "$.streams[0].ending.afer", #"no field "afer""#
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": [{"value": 1, "operators": [{"operator": "delay", "second": 1}]}]}]}"#,
            "$.streams[0].items[0].operators[0].second", #"no field "second""#
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": []}], "nodes": [{"id": "n", "operator": "map", "input": "s", "expresion": "$0", "expression": "$0"}]}"#,
            "$.nodes[0].expresion", #"no field "expresion""#
        ),
        (
            #"{"schemaVersion": 1, "streams": [{"id": "s", "items": [], "colour": "red"}]}"#,
            "$.streams[0].colour", "no field"
        ),
    ])
    func reportsWhatIsWrongAndWhere(json: String, path: String, message: String) {
        do {
            _ = try StreamDocument.decode(Data(json.utf8))
            Issue.record("decoded: \(json)")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func neverCrashesOnRandomBytesOrMangledDocuments() {
        var random = Xoshiro(seed: (0x5EED, 10, 11, 12))
        let source = Array(Self.example.utf8)
        for round in 0..<500 {
            var bytes = source
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0..<200, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            } else {
                for _ in 0..<3 {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
                        in: 32...126,
                        using: &random
                    )
                }
            }
            _ = try? StreamDocument.decode(Data(bytes))
        }
    }
}
