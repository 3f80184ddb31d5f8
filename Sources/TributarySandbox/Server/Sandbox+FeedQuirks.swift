package import Foundation

extension Sandbox {
    /// A feed in one of the awkward shapes real publishers send, served at
    /// `/feeds/quirks/{name}`, so that a reader can be tried against each.
    package struct FeedQuirk: Sendable {
        /// The last part of its path.
        package var name: String
        /// What it shows.
        package var summary: String
        /// The `Content-Type` it is served with.
        package var contentType: String
        /// The document, byte for byte.
        package var body: Data
        /// The status it is served with.
        package var status: Int = 200
        /// The `Content-Location` it is served with, if any.
        package var contentLocation: String?
    }

    /// Serves the quirk called `name`.
    func quirkyFeed(named name: String) -> SandboxResponse {
        guard let quirk = Self.feedQuirks.first(where: { $0.name == name }) else {
            let names = Self.feedQuirks.map(\.name).joined(separator: ", ")
            return .error(404, "feedNotFound", "There is no quirky feed \(name); there are \(names).")
        }
        return SandboxResponse(
            status: quirk.status,
            headers: [("Content-Type", quirk.contentType)]
                + (quirk.contentLocation.map { [("Content-Location", $0)] } ?? []),
            body: quirk.body
        )
    }

    /// The quirk called `name`.
    package static func feedQuirk(_ name: String) -> FeedQuirk {
        guard let quirk = feedQuirks.first(where: { $0.name == name }) else {
            preconditionFailure("no feed quirk \(name)")
        }
        return quirk
    }

    /// Every quirk the sandbox serves.
    package static let feedQuirks: [FeedQuirk] = awkwardFeeds + sparseFeeds + brokenButReadFeeds

    /// Feeds in the shapes real publishers send that a reader must not trip over.
    private static let awkwardFeeds: [FeedQuirk] = [
        FeedQuirk(
            name: "control-character.rss",
            summary: "One raw control character in a summary, as El País once sent",
            contentType: "application/rss+xml; charset=utf-8",
            body: Data(
                rss(
                    title: "EL PAÍS: el periódico global",
                    items: """
                        <item><title>Primera noticia</title><link>https://elpais.example/1.html</link>\
                        <description>Texto con un car\u{03}ácter de control</description>\
                        <pubDate>Tue, 18 Nov 2025 09:15:00 +0100</pubDate></item>
                        <item><title>Segunda noticia</title><link>https://elpais.example/2.html</link>\
                        <pubDate>Tue, 18 Nov 2025 08:00:00 +0100</pubDate></item>
                        <item><title>Tercera noticia</title><link>https://elpais.example/3.html</link>\
                        <pubDate>Tue, 18 Nov 2025 07:30:00 +0100</pubDate></item>
                        """
                ).utf8
            )
        ),
        FeedQuirk(
            name: "html-entities.rss",
            summary: "HTML entities XML does not define and a bare ampersand, as Europa Press sends",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "Europa Press",
                    items: """
                        <item><title>El Gobierno aprueba&nbsp;el plan de vivienda</title>\
                        <link>https://europapress.example/nacional/noticia-1.html?utm_source=rss&utm_medium=feed</link>\
                        <description>Madrid, 18 nov.&nbsp;(EUROPA PRESS) &ndash; El Consejo de Ministros&hellip;</description>\
                        <pubDate>Tue, 18 Nov 2025 12:00:00 +0100</pubDate></item>
                        <item><title>Espa&ntilde;a y Portugal</title>\
                        <link>https://europapress.example/internacional/noticia-2.html</link></item>
                        """
                ).utf8
            )
        ),
        FeedQuirk(
            name: "html5-entities.rss",
            summary:
                "HTML5 entities raw and escaped once more, as CMSs send them, and numeric references to no character",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "Entities",
                    items: """
                        <item><title>Wait&hellip; it&rsquo;s the caf&eacute; &mdash; open&nbsp;late &check;</title>\
                        <link>https://entities.example/1</link>\
                        <description>&lt;p&gt;Fran&amp;ccedil;ois &amp;amp; Zo&amp;euml; &amp;ndash; &amp;starf;&lt;/p&gt;</description></item>
                        <item><title>Caf&amp;eacute; &amp;ldquo;Bl&amp;aring;&amp;rdquo; &amp;hellip;</title>\
                        <link>https://entities.example/2</link>\
                        <description>Numbers: &#150; &#0; &#x110000; &amp;#146; &amp;#xD800;</description></item>
                        """
                ).utf8
            )
        ),
        FeedQuirk(
            name: "less-than.rss",
            summary: "A raw < that opens no tag, in a title and in a summary",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "Comparisons",
                    items: """
                        <item><title>a < b, and 3 <= 4</title><link>https://less.example/1</link>\
                        <description>If x < 10 &amp;&amp; y > 2 then &lt;b&gt;bold&lt;/b&gt;</description></item>
                        """
                ).utf8
            )
        ),
        FeedQuirk(
            name: "undeclared-windows-1252.rss",
            summary: "Windows-1252 bytes in a feed that names no encoding anywhere",
            contentType: "application/rss+xml",
            body: legacy(nil, title: [0x93] + Array("quoted".utf8) + [0x94] + Array(" caf".utf8) + [0xE9])
        ),
        FeedQuirk(
            name: "undated-linkless.rss",
            summary: "An entry without a date and one without a link, beside a whole one",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "Bare entries",
                    items: """
                        <item><title>Whole entry</title><link>https://bare.example/1</link>\
                        <description>Dated and linked.</description><pubDate>Tue, 18 Nov 2025 09:00:00 GMT</pubDate></item>
                        <item><title>Undated entry</title><link>https://bare.example/2</link>\
                        <description>No date at all.</description></item>
                        <item><title>Linkless entry</title><description>A note with no page of its own.</description>\
                        <pubDate>Tue, 18 Nov 2025 08:00:00 GMT</pubDate></item>
                        """
                ).utf8
            )
        ),
        FeedQuirk(
            name: "undeclared-media.atom",
            summary: "Atom that uses media: without declaring it, as FeedKit's AtomMedia test feed",
            contentType: "application/atom+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="utf-8"?>
                <feed xmlns="http://www.w3.org/2005/Atom">
                <title>Atom with Media</title>
                <entry><title>Video post</title><link href="https://video.example/watch/1"/>\
                <id>tag:video.example,2025:1</id><updated>2025-11-18T10:00:00Z</updated>\
                <media:group><media:thumbnail url="https://video.example/t/1.jpg" width="480" height="360"/>\
                <media:title>Video post</media:title></media:group></entry>
                </feed>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "undeclared-dc.rdf",
            summary: "RSS 1.0 that uses dc: without declaring it, as FeedKit's RDFDC test feed",
            contentType: "application/rdf+xml",
            body: Data(
                """
                <?xml version="1.0"?>
                <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
                <channel rdf:about="https://rdf.example/"><title>RDF with Dublin Core</title>\
                <link>https://rdf.example/</link></channel>
                <item rdf:about="https://rdf.example/a"><title>Dated by Dublin Core</title>\
                <link>https://rdf.example/a</link><dc:date>2025-11-18T06:00:00Z</dc:date>\
                <dc:creator>R. Writer</dc:creator></item>
                </rdf:RDF>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "guardian.rss",
            summary: "media:content with only url and width, as the Guardian sends, two sizes an item",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "World news | The Guardian",
                    items: """
                        <item><title>Leaders meet in Geneva</title><link>https://guardian.example/world/1</link>\
                        <media:content width="140" url="https://i.guim.example/img/1/140.jpg?width=140&amp;s=a"/>\
                        <media:content width="460" url="https://i.guim.example/img/1/460.jpg?width=460&amp;s=b"/>\
                        <dc:date>2025-11-18T09:41:07Z</dc:date></item>
                        """,
                    namespaces:
                        #" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/""#
                ).utf8
            )
        ),
        FeedQuirk(
            name: "pictures.rss",
            summary:
                "Pictures in every place feeds put them: NYT's medium=\"image\", a thumbnail beside a video, an enclosure, an <img> in the content",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "Pictures",
                    items: """
                        <item><title>NYT style</title><link>https://nyt.example/1</link>\
                        <media:content height="550" medium="image" url="https://static.nyt.example/1-large.jpg" width="1050"/></item>
                        <item><title>Video with a thumbnail</title><link>https://video.example/2</link>\
                        <media:content url="https://video.example/2.mp4"><media:thumbnail url="https://video.example/2.jpg"/></media:content></item>
                        <item><title>Enclosure without a type</title><link>https://example.com/3</link>\
                        <enclosure url="https://example.com/3.png" length="0"/></item>
                        <item><title>Image in the content</title><link>https://example.com/4</link>\
                        <content:encoded><![CDATA[<p><img src="https://track.example/p.gif" width="1" height="1">\
                        <img alt="" src='/images/4.jpg'> Text</p>]]></content:encoded></item>
                        """,
                    namespaces:
                        #" xmlns:media="http://search.yahoo.com/mrss/" xmlns:content="http://purl.org/rss/1.0/modules/content/""#
                ).utf8
            )
        ),
        FeedQuirk(
            name: "hidden-entries.rss",
            summary:
                "Items titled only by dc:title or itunes:title, an item without a link, dcterms:modified",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "Hidden entries",
                    items: """
                        <item><dc:title>Titled by Dublin Core</dc:title><link>https://example.com/dc</link>\
                        <dcterms:modified>2025-11-18T08:00:00Z</dcterms:modified></item>
                        <item><itunes:title>Episode 12</itunes:title><enclosure url="https://cdn.example/12.mp3" type="audio/mpeg" length="1"/>\
                        <guid isPermaLink="false">episode-12</guid></item>
                        """,
                    namespaces:
                        #" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd""#
                ).utf8
            )
        ),
        FeedQuirk(
            name: "prefixed.rdf",
            summary: "RSS 1.0 whose own elements carry an rss: prefix",
            contentType: "application/rdf+xml",
            body: Data(
                """
                <?xml version="1.0"?>
                <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rss="http://purl.org/rss/1.0/">
                <rss:channel rdf:about="https://prefixed.example/"><rss:title>Prefixed</rss:title>\
                <rss:link>https://prefixed.example/</rss:link></rss:channel>
                <rss:item rdf:about="https://prefixed.example/1"><rss:title>Prefixed item</rss:title>\
                <rss:link>https://prefixed.example/1</rss:link></rss:item>
                </rdf:RDF>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "markup.atom",
            summary:
                "An HTML title, an XHTML summary, and an entry copied from another feed with its <source>",
            contentType: "application/atom+xml",
            body: Data(
                """
                <?xml version="1.0" encoding="utf-8"?>
                <feed xmlns="http://www.w3.org/2005/Atom">
                <title type="html">Example &lt;b&gt;Atom&lt;/b&gt;</title>
                <entry><title type="html">Example &lt;b&gt;Atom&lt;/b&gt;</title><id>tag:example.org,2025:1</id>\
                <link href="https://example.org/1"/><updated>2025-11-18T10:00:00Z</updated>\
                <summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Some markings</p><p>Example</p></div></summary></entry>
                <entry><title>Copied</title><id>tag:example.org,2025:2</id><updated>2025-11-18T11:00:00Z</updated>\
                <source><id>tag:elsewhere.example,2025:feed</id><title>Elsewhere</title>\
                <link rel="alternate" href="https://elsewhere.example/"/><updated>2020-01-01T00:00:00Z</updated></source></entry>
                </feed>

                """.utf8
            )
        ),
        FeedQuirk(
            name: "dates.rss",
            summary:
                "Dates in the forms feeds use: named zones, GMT offsets, no time, no zone, asctime, and no date",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "Dates",
                    items: [
                        "Mon, 26 Jan 2004 16:31:00 MET", "Mon, 26 Jan 2004 16:31:00 MEST",
                        "Mon, 26 Jan 2004 16:31:00 ET",
                        "Mon, 26 Jan 2004 16:31:00 PT", "Sun, 16 Dec 2012 11:15:00 Etc/GMT",
                        "Thu, 01 Jan 2004 19:48:21 GMT-01:01", "Thu, 01 Jan 2004", "2003-12-31T10:14:55",
                        "2003-12",
                        "Sun Jan  4 16:29:06 PST 2004", "Sun Jan  4 16:29:06 2004", "next Tuesday", "",
                    ].enumerated().map { index, date in
                        "<item><title>Date \(index + 1)</title><link>https://example.com/\(index + 1)</link>"
                            + (date.isEmpty ? "" : "<pubDate>\(date)</pubDate>") + "</item>"
                    }.joined(separator: "\n")
                ).utf8
            )
        ),
        FeedQuirk(
            name: "euc-kr.rss",
            summary: "A Korean feed in EUC-KR",
            contentType: "application/rss+xml",
            body: legacy("EUC-KR", title: [0xC7, 0xD1, 0xB1, 0xB9])
        ),
        FeedQuirk(
            name: "big5.rss",
            summary: "A Chinese feed in Big5",
            contentType: "text/xml",
            body: legacy("Big5", title: [0xA4, 0xA4, 0xA4, 0xE5])
        ),
        FeedQuirk(
            name: "gb2312.rss",
            summary: "A Chinese feed in GB2312",
            contentType: "text/xml",
            body: legacy("GB2312", title: [0xD6, 0xD0, 0xCE, 0xC4])
        ),
        FeedQuirk(
            name: "latin1.rss",
            summary: "Windows-1252 punctuation in a feed labelled ISO-8859-1",
            contentType: "application/rss+xml",
            body: legacy(
                "ISO-8859-1",
                title: Array("don".utf8) + [0x92] + Array("t ".utf8) + [
                    0x93, 0x51, 0x94, 0x20, 0x96, 0x20, 0xE9,
                ]
            )
        ),
        FeedQuirk(
            name: "charset-in-header.rss",
            summary: "A Windows-1251 feed whose charset only the HTTP header names",
            contentType: "application/rss+xml; charset=windows-1251",
            body: legacy(nil, title: [0xCD, 0xEE, 0xE2, 0xEE, 0xF1, 0xF2, 0xE8])
        ),
        FeedQuirk(
            name: "euc-jp.rss",
            summary: "A Japanese feed in EUC-JP, which Foundation on Linux cannot decode and iconv can",
            contentType: "application/rss+xml",
            body: legacy("EUC-JP", title: [0xC6, 0xFC, 0xCB, 0xDC])
        ),
        FeedQuirk(
            name: "page.html",
            summary: "A web page where a feed was expected",
            contentType: "text/html; charset=utf-8",
            body: Data(
                "<!DOCTYPE html>\n<html lang=en><head><title>News</title></head><body><p>Hello</body></html>\n"
                    .utf8
            )
        ),
        FeedQuirk(
            name: "feed.json",
            summary: "A JSON Feed",
            contentType: "application/feed+json",
            body: Data(#"{"version": "https://jsonfeed.org/version/1.1", "title": "JSON", "items": []}"#.utf8)
        ),
        FeedQuirk(
            name: "newsml.xml",
            summary: "A news agency's NewsML-G2 item",
            contentType: "application/xml",
            body: Data(
                #"<?xml version="1.0"?><newsItem xmlns="http://iptc.org/std/nar/2006-10-01/" guid="urn:x:1" version="1"/>"#
                    .utf8
            )
        ),
        FeedQuirk(
            name: "broken.rss",
            summary: "A feed whose XML is broken before its first item ends",
            contentType: "application/rss+xml",
            body: Data(
                rss(
                    title: "Broken",
                    items: "<item><title>Never closed</title>\n<link>https://example.com/1</link></itme>"
                ).utf8
            )
        ),
        FeedQuirk(
            name: "gone.rss",
            summary: "A feed host's own 404 page",
            contentType: "text/html",
            body: Data("<html><body><h1>Not Found</h1></body></html>".utf8),
            status: 404
        ),
    ]

    /// A one-item RSS feed declared as `encoding`, whose title is `title`'s bytes.
    private static func legacy(_ encoding: String?, title: [UInt8]) -> Data {
        let declaration =
            encoding.map { #"<?xml version="1.0" encoding="\#($0)"?>"# } ?? #"<?xml version="1.0"?>"#
        return Data((declaration + "\n<rss version=\"2.0\"><channel><title>Feed</title><item><title>").utf8)
            + Data(title)
            + Data("</title><link>https://example.com/1</link></item></channel></rss>\n".utf8)
    }

    /// An RSS 2.0 document around `items`.
    static func rss(title: String, items: String, namespaces: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"\(namespaces)>
        <channel>
        <title>\(title)</title>
        <link>https://example.com/</link>
        \(items)
        </channel>
        </rss>

        """
    }
}
