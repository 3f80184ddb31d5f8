import Testing
import TributaryLabWire

@Suite struct DocumentIDTests {
    /// Ids are well formed and never begin with `-`, which a command line takes for an option;
    /// one in 64 would, if nothing prevented it.
    @Test func makesWellFormedIdsThatNoCommandLineMistakesForOptions() {
        let ids = (0..<2_000).map { _ in DocumentID.make() }
        #expect(ids.allSatisfy(DocumentID.isWellFormed))
        #expect(!ids.contains { $0.hasPrefix("-") })
        #expect(Set(ids).count == ids.count)
    }
}
