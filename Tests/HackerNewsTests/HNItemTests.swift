import Foundation
import HackerNews
import Testing
import TributaryHTML

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

/// The documentation's examples and the live API's odd shapes, as items and as text.
struct HNItemFixtureTests {
    private func item(_ json: String) throws -> HNItem {
        try JSONDecoder().decode(HNItem.self, from: Data(json.utf8))
    }

    @Test func decodesEveryExampleOfTheDocumentation() throws {
        let ask = try item(Fixtures.ask)
        #expect(ask.url == nil && ask.title == "Ask HN: The Arc Effect" && ask.descendants == 16)
        #expect(ask.discussionURL.absoluteString == "https://news.ycombinator.com/item?id=121003")
        let job = try item(Fixtures.job)
        #expect(job.kind == .job && job.url == nil && job.score == 6)
        let poll = try item(Fixtures.poll)
        #expect(poll.kind == .poll && poll.parts == [126810, 126811, 126812] && poll.text == nil)
        let option = try item(Fixtures.pollOption(126810, score: 7, text: "Yes"))
        #expect(option.kind == .pollopt && option.poll == 126809 && option.score == 7)
        let newer = try item(Fixtures.pollOptionWithParent)
        #expect(newer.poll == 160704 && newer.parent == 160704)
        let user = try JSONDecoder().decode(HNUser.self, from: Data(Fixtures.user.utf8))
        #expect(user.karma == 2937 && user.delay == 0 && user.plainAbout == "This is a test")
        #expect(user.submitted == [8265435, 8168423, 8090946])
        #expect(user.profileURL.absoluteString == "https://news.ycombinator.com/user?id=jl")
        // What decodes encodes back to the same item.
        for json in [
            Fixtures.poll, Fixtures.pollOption(1, score: 2, text: "x"), Fixtures.pollOptionWithParent,
        ] {
            let decoded = try item(json)
            #expect(try JSONDecoder().decode(HNItem.self, from: JSONEncoder().encode(decoded)) == decoded)
        }
    }

    /// Only `id` is required: every other field may be missing or `null`.
    @Test func readsMissingAndNullFieldsAsAbsent() throws {
        let dead = try item(Fixtures.deadStory)
        #expect(dead.isDead && dead.title == nil && dead.url == nil && dead.kids.isEmpty)
        let bare = try item(
            #"{"id":9,"type":null,"by":null,"time":null,"text":null,"kids":null,"parts":null,"url":null,"score":null,"dead":null}"#
        )
        #expect(bare.kind == .unknown && bare.time == nil && bare.author == nil && bare.kids.isEmpty)
        #expect(!bare.isDead && bare.plainText == nil)
        #expect(try item(#"{"id":10}"#).time == nil)
    }

    /// A job's lists keep their lines and indentation; the rest is folded into paragraphs.
    @Test func keepsPreformattedLinesAndIndentation() throws {
        let text = try #require(try item(Fixtures.job).plainText)
        #expect(
            text.contains(
                """
                Responsibilities

                    * Contribute to product design and implementation discussions
                    * Implement projects from the idea phase to production
                    * Test and iterate code before and after production release

                Qualifications

                    * You should know AS2, AS3, and maybe a little be of Flex.
                    * Experience building web applications.

                While we're growing rapidly
                """
            ),
            "\(text)"
        )
        let comment = try #require(try item(Fixtures.skillsComment).plainText)
        #expect(
            comment.hasPrefix(
                "Location: Remote\n\n  - Frontend: React, TypeScript\n  - Backend: Go\n      and Postgres\n\nCode: "
            ),
            "\(comment)"
        )
    }

    /// A label the site shortened shows the full target; a label of words stays.
    @Test func showsTheFullTargetOfAShortenedLink() throws {
        let comment = try #require(try item(Fixtures.skillsComment).plainText)
        #expect(
            comment.hasSuffix(
                "Code: https://github.com/example/app/blob/main/src/index.tsx and our team."
            ),
            "\(comment)"
        )
        let job = try #require(try item(Fixtures.job).plainText)
        #expect(job.contains("problem at http://www.justin.tv/problems/bml will go"))
    }
}
