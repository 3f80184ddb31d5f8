import Foundation

extension Sandbox {
    /// Feeds whose entries say little, in forms a faithful reader keeps all the same.
    static let sparseFeeds: [FeedQuirk] = [
        FeedQuirk(
            name: "sparse-entries.rss",
            summary:
                "Items that each say one thing only: a date, an author, a permalink, a summary, a media title",
            contentType: "application/rss+xml; charset=utf-8",
            body: Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
                <channel>
                <dc:title>Podcast of Little Words</dc:title>
                <link>https://sparse.example/</link>
                <item><pubDate>Tue, 18 Nov 2025 09:15:00 +0000</pubDate></item>
                <item><author>desk@sparse.example (Ada Byron)</author></item>
                <item><dc:creator>Grace Hopper</dc:creator></item>
                <item><guid>https://sparse.example/posts/4</guid></item>
                <item><guid isPermaLink="false">sparse-5</guid></item>
                <item><description>Only a description, and no title.</description></item>
                <item><media:content url="https://sparse.example/6.mp3" type="audio/mpeg"><media:title>Episode six</media:title></media:content></item>
                <item><dc:title>Titled in Dublin Core</dc:title><link>https://sparse.example/posts/7</link><guid>https://sparse.example/posts/7?guid</guid></item>
                <item></item>
                </channel>
                </rss>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "atom03-base64.atom",
            summary: "Atom 0.3 with its titles in mode=\"base64\"",
            contentType: "application/atom+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="utf-8"?>
                <feed version="0.3" xmlns="http://purl.org/atom/ns#">
                <title mode="base64">\(Data("Encoded feed".utf8).base64EncodedString())</title>
                <link rel="alternate" type="text/html" href="https://base64.example/"/>
                <modified>2004-01-26T15:31:00Z</modified>
                <entry>
                <title type="text/plain" mode="base64">\(Data("Grüße aus Köln".utf8).base64EncodedString())</title>
                <link rel="alternate" type="text/html" href="https://base64.example/1"/>
                <id>tag:base64.example,2004:1</id>
                <issued>2004-01-26T15:31:00Z</issued>
                <summary type="text/html" mode="base64">\(Data("<p>A <b>bold</b> summary</p>".utf8).base64EncodedString())</summary>
                </entry>
                </feed>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "relative-links.atom",
            summary: "Relative links under xml:base, and a Content-Location the others resolve against",
            contentType: "application/atom+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="utf-8"?>
                <feed xmlns="http://www.w3.org/2005/Atom">
                <title>Relative</title>
                <link href="https://elsewhere.example/home/"/>
                <entry><title>Against the Content-Location</title><link href="posts/1"/><id>1</id></entry>
                <entry xml:base="https://base.example/archive/"><title>Against xml:base</title><link href="2003/2"/><id>2</id></entry>
                <entry xml:base="nested/"><title>Against a relative xml:base</title><link href="3"/><id>3</id></entry>
                </feed>

                """.utf8
            ),
            contentLocation: "https://mirror.example/feeds/relative.atom"
        ),
        FeedQuirk(
            name: "international-dates.rss",
            summary:
                "Dates in Greek, Hungarian and Korean, and ISO 8601's rarer forms, and one that is no date",
            contentType: "application/rss+xml; charset=utf-8",
            body: Data(
                rss(
                    title: "Dates from everywhere",
                    items: [
                        "Κυρ, 11 Ιούλ 2004 12:00:00 EST", "2004-július-13T9:15-05:00",
                        "hétfő, 12 július 2004 10:00:00 GMT",
                        "2004년 05월 28일  01:31:15", "2004-05-25 오후 11:23:17", "2004-05-25 오전 11:23:17",
                        "031231", "-0312", "2003-012-31T10:14:55+00:00", "2013-01-27-01",
                    ].enumerated().map { index, date in
                        "<item><title>Date \(index + 1)</title><pubDate>\(date)</pubDate></item>"
                    }.joined(separator: "\n")
                ).utf8
            )
        ),
    ]

    /// Feeds that are broken and that a forgiving reader reads all the same, saying so.
    static let brokenButReadFeeds: [FeedQuirk] = [
        FeedQuirk(
            name: "truncated.rss",
            summary: "A feed cut off in its second item, as a dropped connection leaves it",
            contentType: "application/rss+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Cut off</title>
                <item><title>Complete</title><link>https://cut.example/1</link></item>
                <item><title>Half of a sec
                """.utf8
            )
        ),
        FeedQuirk(
            name: "truncated-first-entry.rss",
            summary: "A feed cut off inside a tag of its first item, before any item has closed",
            contentType: "application/rss+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Cut off early</title>
                <item><title>The only one</title><link>https://cut.example/only</link><pubDate>Tue, 18 Nov 2025 09:15:00 GMT</pubDate><desc
                """.utf8
            )
        ),
        FeedQuirk(
            name: "unterminated-cdata.rss",
            summary: "A CDATA section that never ends",
            contentType: "application/rss+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Open CDATA</title>
                <item><title>First</title><link>https://cdata.example/1</link></item>
                <item><title>Second</title><description><![CDATA[<p>Runs on to the end</p>
                </description></item></channel></rss>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "uppercase-hex-reference.rss",
            summary: "Character references written with an uppercase X",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "&#X54;he &#X58; feed",
                    items:
                        "<item><title>Caf&#XE9; &#X2014; open</title><link>https://x.example/1</link></item>"
                ).utf8
            )
        ),
        FeedQuirk(
            name: "invalid-utf8.rss",
            summary: "A feed labelled UTF-8 with one Windows-1252 byte in it",
            contentType: "application/rss+xml; charset=utf-8",
            body: Data(
                Data(
                    rss(
                        title: "Mostly UTF-8",
                        items: """
                            <item><title>Caf\u{E9} first</title><link>https://utf8.example/1</link></item>
                            <item><title>It@s broken here</title><link>https://utf8.example/2</link></item>
                            """
                    ).utf8
                ).map { $0 == UInt8(ascii: "@") ? 0x92 : $0 }
            )
        ),
        FeedQuirk(
            name: "prefixed-root.rss",
            summary: "RSS whose elements all carry a namespace prefix, the root included",
            contentType: "application/rss+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <r:rss xmlns:r="http://backend.userland.com/rss2" version="2.0"><r:channel>
                <r:title>Prefixed</r:title>
                <r:item><r:title>Prefixed item</r:title><r:link>https://prefixed.example/1</r:link></r:item>
                </r:channel></r:rss>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "internal-entities.rss",
            summary: "Entities declared in the DOCTYPE, an external one among them",
            contentType: "application/rss+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE rss [
                  <!ENTITY site "Entity Times">
                  <!ENTITY motto "All the &site; that fits">
                  <!ENTITY secret SYSTEM "file:///etc/passwd">
                ]>
                <rss version="2.0"><channel><title>&site;</title>
                <item><title>&motto;</title><link>https://entities.example/1</link><description>&secret;</description></item>
                </channel></rss>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "billion-laughs.rss",
            summary: "Entities that expand to gigabytes",
            contentType: "application/rss+xml",
            body: Data(
                (#"<?xml version="1.0"?>"# + "\n<!DOCTYPE rss [\n<!ENTITY lol \"lol\">\n"
                    + (1...9).map { level in
                        "<!ENTITY lol\(level) \""
                            + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10)
                            + "\">\n"
                    }.joined()
                    + "]>\n<rss version=\"2.0\"><channel><title>&lol9;</title></channel></rss>\n").utf8
            )
        ),
    ]
}
