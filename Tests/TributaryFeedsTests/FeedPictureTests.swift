import Foundation
import Testing
import TributaryFeeds
import TributarySandbox

/// Pictures, from every place feeds put them, the largest preferred.
struct FeedPictureTests {
    @Test func takesTheLargestPictureOfMediaContentWithoutATypeOrMedium() throws {
        let entry = try #require(try FeedCorpus.quirk("guardian.rss").entries.first)
        #expect(entry.image == URL(string: "https://i.guim.example/img/1/460.jpg?width=460&s=b"))
    }

    @Test func findsPicturesWhereverFeedsPutThem() throws {
        let images = try FeedCorpus.quirk("pictures.rss").entries.map(\.image)
        #expect(
            images == [
                URL(string: "https://static.nyt.example/1-large.jpg"),
                URL(string: "https://video.example/2.jpg"),
                URL(string: "https://example.com/3.png"), URL(string: "https://example.com/images/4.jpg"),
            ]
        )
    }
}
