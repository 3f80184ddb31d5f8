import Foundation
import Testing
import TributaryLabWire

@Suite struct DocumentIDTests {
    /// Ids are well formed and never begin with `-`, which a command line takes for an option;
    /// one in 64 would, if nothing prevented it.
    @Test func makesWellFormedIdsThatNoCommandLineMistakesForOptions() {
        let ids = (0..<2_000).map { _ in DocumentID.random() }
        #expect(ids.allSatisfy { DocumentID($0.description) == $0 })
        #expect(!ids.contains { $0.description.hasPrefix("-") })
        #expect(Set(ids).count == ids.count)
    }

    @Test(arguments: [
        "", "AAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAA+A",
        "AAAAAAAAAAAAAAAAAAAA/A", "AAAAAAAAAAAAAAAAAAAA=A", "AAAAAAAAAAAAAAAAAAAAÄ", "AAAAAAAAAAAAAAAAAAAA A",
        "../../../../etc/passwd", "AAAAAAAAAAAAAAAAAAAAA\u{0}",
    ])
    func refusesWhatIsNotAnId(_ text: String) {
        #expect(DocumentID(text) == nil)
    }

    @Test func takesTwentyTwoURLSafeCharacters() throws {
        let id = try #require(DocumentID("Az09-_Az09-_Az09-_Az09"))
        #expect(id.description == "Az09-_Az09-_Az09-_Az09")
    }

    /// A decoded id is checked as a constructed one is, so that no body can bring in another.
    @Test func decodesOnlyIds() throws {
        let id = try JSONDecoder().decode(DocumentID.self, from: Data(#""Az09-_Az09-_Az09-_Az09""#.utf8))
        #expect(id.description == "Az09-_Az09-_Az09-_Az09")
        #expect(String(decoding: try JSONEncoder().encode(id), as: UTF8.self) == #""Az09-_Az09-_Az09-_Az09""#)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DocumentID.self, from: Data(#""../etc""#.utf8))
        }
    }

    @Test func refusesALongText() {
        #expect(DocumentID(String(repeating: "A", count: 1 << 20)) == nil)
    }
}
