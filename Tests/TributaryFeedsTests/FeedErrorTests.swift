import Foundation
import Testing
import TributaryFeeds
import TributarySandbox

/// Documents that are no feed, each named for what it is.
struct FeedErrorTests {
    @Test(arguments: [
        ("page.html", "This address is a web page, not a feed."),
        ("feed.json", "This is a JSON Feed, not an RSS or Atom feed."),
        ("newsml.xml", "This is a NewsML document, not an RSS or Atom feed."),
        ("broken.rss", "This feed cannot be read: its XML is broken at line 7, column "),
    ])
    func saysWhatADocumentIsWhenItIsNoFeed(quirk: String, message: String) {
        #expect {
            try FeedCorpus.quirk(quirk)
        } throws: { error in
            (error as? FeedError)?.alertMessage.hasPrefix(message) == true
        }
    }
}
