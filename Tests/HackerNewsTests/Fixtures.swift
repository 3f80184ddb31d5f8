import Foundation

/// Items and users in the shapes the Hacker News API sends, from the examples of its
/// documentation and the shapes the live API gives dead, deleted and unreadable items.
enum Fixtures {
    static let story = #"""
        {"by":"dhouston","descendants":71,"id":8863,"kids":[8952,9224],"score":111,"time":1175714200,"title":"My YC app: Dropbox - Throw away your USB drive","type":"story","url":"http://www.getdropbox.com/u/2/screencast.html"}
        """#

    static let ask = #"""
        {"by":"tel","descendants":16,"id":121003,"kids":[121016,121109,121168],"score":25,"text":"<i>or</i> HN: the Next Iteration<p>I get the impression that with Arc being released a lot of people who never had time for HN before are suddenly dropping in more often.","time":1203647620,"title":"Ask HN: The Arc Effect","type":"story","url":""}
        """#

    static let job = #"""
        {"by":"justin","id":192327,"score":6,"text":"Justin.tv is the biggest live video site online.<p>Responsibilities<p><pre><code>    * Contribute to product design and implementation discussions\n    * Implement projects from the idea phase to production\n    * Test and iterate code before and after production release \n</code></pre>\nQualifications<p><pre><code>    * You should know AS2, AS3, and maybe a little be of Flex.\n    * Experience building web applications.\n</code></pre>\nWhile we're growing rapidly, Justin.tv is still a small company.<p>Note: Completing the technical problem at <a href=\"http://www.justin.tv/problems/bml\" rel=\"nofollow\">http://www.justin.tv/problems/bml</a> will go a long way with us. Cheers!","time":1210981217,"title":"Justin.tv is looking for a Lead Flash Engineer!","type":"job","url":""}
        """#

    static let poll = #"""
        {"by":"pg","descendants":54,"id":126809,"kids":[126822,126823],"parts":[126810,126811,126812],"score":46,"text":"","time":1204403652,"title":"Poll: What would happen if News.YC had explicit support for polls?","type":"poll"}
        """#

    /// A poll option as the documentation's older example has it, with `poll`.
    static func pollOption(_ id: Int, score: Int, text: String) -> String {
        #"{"by":"pg","id":\#(id),"poll":126809,"score":\#(score),"text":"\#(text)","time":1204403652,"type":"pollopt"}"#
    }

    /// A poll option as the documentation's newer example has it, with `parent`.
    static let pollOptionWithParent = #"""
        {"by":"pg","id":160705,"parent":160704,"score":335,"text":"Yes, ban them; I'm tired of seeing Valleywag stories on News.YC.","time":1207886576,"type":"pollopt"}
        """#

    static let comment = #"""
        {"by":"norvig","id":2921983,"kids":[2922097,2922429],"parent":2921506,"text":"Aw shucks, guys ... you make me blush with your compliments.<p>Tell you what, Ill make a deal: I'll keep writing if you keep reading. K?","time":1314211127,"type":"comment"}
        """#

    /// A comment with a skills list kept preformatted and a link the site shortened.
    static let skillsComment = #"""
        {"by":"hiring","id":41000001,"parent":41000000,"text":"Location: Remote<p><pre><code>  - Frontend: React, TypeScript\n  - Backend: Go\n      and Postgres\n</code></pre>\nCode: <a href=\"https:&#x2F;&#x2F;github.com&#x2F;example&#x2F;app&#x2F;blob&#x2F;main&#x2F;src&#x2F;index.tsx\" rel=\"nofollow\">https:&#x2F;&#x2F;github.com&#x2F;example&#x2F;app&#x2F;blob&#x2F;main&#x2F;src&#x2F;index.t...</a> and <a href=\"https:&#x2F;&#x2F;example.com&#x2F;about\">our team</a>.","time":1714000000,"type":"comment"}
        """#

    /// A dead story that lost its title: what the live API sends for one killed early.
    static let deadStory =
        #"{"by":"spammer","dead":true,"id":41000002,"score":1,"time":1714000000,"type":"story"}"#

    static let deletedComment =
        #"{"deleted":true,"id":41000003,"parent":8863,"time":1714000000,"type":"comment"}"#

    static let deadComment = #"""
        {"by":"troll","dead":true,"id":41000004,"parent":8863,"text":"Flagged words.","time":1714000000,"type":"comment"}
        """#

    static let user = #"""
        {"about":"This is a test","created":1173923446,"delay":0,"id":"jl","karma":2937,"submitted":[8265435,8168423,8090946]}
        """#

    /// Firebase's answer to a path the rules do not let anyone read.
    static let permissionDenied = #"{"error" : "Permission denied"}"#
}
