import Foundation
import Testing
import TributaryStreams

/// The catalogue an editor's form is made from says exactly what a node of each operator reads
/// and writes, so that a form made from it and the JSON cannot disagree.
@Suite struct OperatorCatalogueTests {
    static func node(_ entry: StreamOperator.Entry, leaving missing: String? = nil) throws -> Data {
        var node: [String: Any] = ["id": "n", "operator": entry.name.rawValue]
        if entry.joins { node["inputs"] = ["a", "a"] } else { node["input"] = "a" }
        for parameter in entry.parameters where parameter.key != missing {
            node[parameter.key] = try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(parameter.initial),
                options: .fragmentsAllowed
            )
        }
        let document: [String: Any] = [
            "schemaVersion": 1, "streams": [["id": "a", "items": [["value": 1]]]], "nodes": [node],
        ]
        return try JSONSerialization.data(withJSONObject: document)
    }

    @Test func namesEveryOperatorOnce() {
        #expect(StreamOperator.catalogue.map(\.name) == StreamOperator.Name.allCases)
    }

    @Test(arguments: StreamOperator.catalogue)
    func aNodeMadeFromTheCatalogueRunsAndWritesBackTheSameFields(_ entry: StreamOperator.Entry) throws {
        let document = try StreamDocument.decode(try Self.node(entry))
        let node = try #require(document.nodes.first)
        #expect(node.operator.name == entry.name)
        #expect(node.operator.joins == entry.joins)
        _ = try StreamRunner().run(document)
        let written = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(node)) as? [String: Any]
        )
        let expected = Set(
            ["id", "operator", entry.joins ? "inputs" : "input"] + entry.parameters.map(\.key)
        )
        #expect(Set(written.keys) == expected)
    }

    @Test(
        arguments: StreamOperator.catalogue.flatMap { entry in
            entry.parameters.filter(\.isRequired).map { (entry, $0.key) }
        }
    )
    func aNodeWithoutARequiredFieldIsRefusedNamingIt(_ entry: StreamOperator.Entry, key: String) throws {
        let error = #expect(throws: StreamError.self) {
            try StreamDocument.decode(try Self.node(entry, leaving: key))
        }
        #expect(error?.path.hasPrefix("$.nodes[0]") == true)
        #expect(error.map { "\($0)" }?.contains(key) == true, "\(String(describing: error))")
    }
}
