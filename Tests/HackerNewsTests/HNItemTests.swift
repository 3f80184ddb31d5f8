import Foundation
import HackerNews
import Testing

/// Items decode from every shape the API sends.
struct HNItemTests {
    @Test func decodesAStoryACommentADeletedItemAndNull() throws {
        let decoder = JSONDecoder()
        let story = try decoder.decode(
            HNItem.self,
            from: Data(
                #"{"by":"dhouston","descendants":71,"id":8863,"kids":[8952,9224],"score":111,"time":1175714200,"title":"My YC app: Dropbox","type":"story","url":"http://www.getdropbox.com/u/2/screencast.html"}"#
                    .utf8
            )
        )
        #expect(story.kind == .story && story.author == "dhouston" && story.kids == [8952, 9224])
        #expect(story.time == Date(timeIntervalSince1970: 1_175_714_200))
        #expect(story.site == "getdropbox.com" && !story.isGone)
        let deleted = try decoder.decode(
            HNItem.self,
            from: Data(#"{"id":2,"type":"comment","time":1,"parent":1,"deleted":true}"#.utf8)
        )
        #expect(deleted.isDeleted && deleted.isGone && deleted.author == nil && deleted.plainText == nil)
        #expect(try decoder.decode(HNItem?.self, from: Data("null".utf8)) == nil)
        let strange = try decoder.decode(
            HNItem.self,
            from: Data(#"{"id":3,"type":"ballot","time":5,"url":"not a url"}"#.utf8)
        )
        #expect(strange.kind == .unknown && strange.url == nil)
        // What it encodes decodes to the same item.
        #expect(try decoder.decode(HNItem.self, from: JSONEncoder().encode(story)) == story)
    }

    /// The text is HTML: tags go, entities are decoded, paragraphs stay apart, and an inline
    /// element does not split the words around it.
    @Test func readsTheHTMLTextAsPlainText() {
        let item = HNItem(
            id: 1,
            kind: .comment,
            time: Date(),
            text:
                "I think <i>this</i> &amp; that&#x27;s it.<p>Second <a href=\"https://x.example\">link</a>.<p><pre><code>let x = 1</code></pre>"
        )
        #expect(item.plainText == "I think this & that's it.\n\nSecond link.\n\nlet x = 1")
    }
}
