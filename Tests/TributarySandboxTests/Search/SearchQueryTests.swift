import Foundation
import NewsAPI
import Testing

@testable import TributarySandbox

@Suite struct SearchQueryTests {
    static let title = Dataset.words("Swift developers ship a faster compiler")
    static let body = Dataset.words("In Berlin, the open-source project released it after long talks.")

    @Test(arguments: [
        ("swift", true),
        ("SWIFT", true),
        ("kotlin", false),
        ("swift compiler", true),
        ("swift kotlin", false),
        ("\"faster compiler\"", true),
        ("\"compiler faster\"", false),
        ("+swift -kotlin", true),
        ("swift -berlin", false),
        ("swift AND berlin", true),
        ("kotlin OR berlin", true),
        ("kotlin OR rust", false),
        ("swift NOT berlin", false),
        ("NOT kotlin", true),
        ("(kotlin OR swift) AND (paris OR berlin)", true),
        ("(kotlin OR swift) AND (paris OR rome)", false),
        ("open-source", true),
        ("\"long talks\" OR nothing", true),
        ("-(kotlin OR rust) ship", true),
    ])
    func matches(query: String, expected: Bool) throws {
        let parsed = try SearchQuery(query)
        #expect(parsed.matches([Self.title, Self.body]) == expected, "\(query)")
    }

    @Test(arguments: ["", "   ", "(swift", "swift)", "\"open", "swift AND", "OR swift", "\"\"", "swift NOT"])
    func refusesMalformedQueries(query: String) {
        #expect(throws: SearchQuery.SyntaxError.self) { try SearchQuery(query) }
    }

    @Test func scoresTitlesAboveBodies() throws {
        let query = try SearchQuery("compiler")
        let inTitle = query.score([(Self.title, 3), (Self.body, 1)])
        let inBody = query.score([(Self.body, 3), (Self.title, 1)])
        #expect(inTitle == 3)
        #expect(inBody == 1)
    }

    @Test func neverCrashesOnRandomText() {
        var random = SeededGenerator(seed: 7)
        let alphabet = Array("ab \"()+-ANDORNOT\t")
        for _ in 0..<2_000 {
            let text = String(
                (0..<Int.random(in: 0..<30, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                }
            )
            _ = try? SearchQuery(text)
        }
        let deep = String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000)
        #expect(throws: SearchQuery.SyntaxError.self) { try SearchQuery(deep) }
    }
}
