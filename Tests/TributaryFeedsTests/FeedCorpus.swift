import Foundation
import TributaryFeeds
import TributarySandbox

/// Feeds written for the tests, each with the quirks real feeds have.
enum FeedCorpus {
    /// The sandbox's quirky feed `name`, read as if it had been fetched with its `Content-Type`.
    static func quirk(_ name: String) throws -> FeedDocument {
        let feed = Sandbox.feedQuirk(name)
        return try FeedReader.document(
            feed.body,
            baseURL: URL(string: "https://example.com/feed"),
            contentType: feed.contentType,
            contentLocation: feed.contentLocation
        )
    }

    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/"
             xmlns:content="http://purl.org/rss/1.0/modules/content/">
        <channel>
          <title>Example &amp; Sons News</title>
          <link>https://news.example.com/world/</link>
          <item>
            <title><![CDATA[Markets <rise> & fall]]></title>
            <link>https://news.example.com/markets</link>
            <description><![CDATA[<p>Stocks <b>rose</b> &amp; fell.</p>]]></description>
            <author>desk@news.example.com (Ana Rossi)</author>
            <pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate>
            <guid>markets-1</guid>
            <enclosure url="https://cdn.example.com/m.jpg" length="10" type="image/jpeg"/>
          </item>
          <item>
            <title>Undated &#8220;quote&#8221;</title>
            <link>/local/story</link>
            <description>&lt;i&gt;Escaped&lt;/i&gt; HTML&#x21;</description>
            <dc:creator>Ben Walsh</dc:creator>
            <media:thumbnail url="thumbs/t.png"/>
          </item>
          <item>
            <title>Short date form</title>
            <link>https://news.example.com/short</link>
            <pubDate>10 Jun 03 00:00 EST</pubDate>
            <content:encoded><![CDATA[<div>Only full content</div>]]></content:encoded>
            <media:content url="https://cdn.example.com/v.mp4" type="video/mp4"/>
          </item>
          <item>
            <description>No title, only a summary that stands in for it.</description>
            <link>https://news.example.com/untitled</link>
            <pubDate>2003-06-10T09:30:00+02:00</pubDate>
          </item>
        </channel>
        </rss>
        """

    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
          <title type="text">Atom Example</title>
          <link rel="self" href="https://atom.example.org/feed.xml"/>
          <link rel="alternate" href="https://atom.example.org/"/>
          <updated>2003-12-13T18:30:02Z</updated>
          <entry>
            <title>Atom-Powered Robots Run Amok</title>
            <link href="http://example.org/2003/12/13/atom03"/>
            <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
            <published>2003-12-13T18:30:02.25+01:00</published>
            <updated>2003-12-14T10:00:00Z</updated>
            <summary type="html">&lt;p&gt;Some &amp;amp; text.&lt;/p&gt;</summary>
            <author><name>John Doe</name><email>john@example.org</email></author>
            <link rel="enclosure" type="image/png" href="/img/robot.png"/>
          </entry>
          <entry xml:base="https://atom.example.org/2003/">
            <title type="html">Relative &lt;em&gt;link&lt;/em&gt;</title>
            <link rel="alternate" type="text/html" href="12/14/relative.html"/>
            <link rel="replies" href="https://atom.example.org/comments"/>
            <id>tag:atom.example.org,2003:2</id>
            <updated>2003-12-14T10:20:30Z</updated>
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Inline <b>XHTML</b> body</p></div></content>
          </entry>
        </feed>
        """

    static let rdf = """
        <?xml version="1.0"?>
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                 xmlns:dc="http://purl.org/dc/elements/1.1/">
          <channel rdf:about="https://rdf.example.net/">
            <title>RDF Site</title>
            <link>https://rdf.example.net/</link>
          </channel>
          <item rdf:about="https://rdf.example.net/one">
            <title>First RDF item</title>
            <link>https://rdf.example.net/one</link>
            <dc:date>2003-06-10T04:00:00Z</dc:date>
          </item>
        </rdf:RDF>
        """

    static let unclosed = """
        <?xml version="1.0"?>
        <rss version="2.0"><channel><title>Broken</title>
        <item><title>Good</title><link>https://example.com/good</link></item>
        <item><title>Never closed</title>
        </channel></rss>
        """

    static let html = "<html><head><title>Not a feed</title></head><body></body></html>"

    /// `count` plain RSS items.
    static func items(_ count: Int) -> String {
        let items = (1...count).map {
            "<item><title>Item \($0)</title><link>https://example.com/\($0)</link></item>"
        }
        return "<rss version=\"2.0\"><channel><title>Many</title>\(items.joined())</channel></rss>"
    }
}
