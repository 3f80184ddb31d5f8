package import Foundation

extension NewsSandbox {
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
    }

    /// Serves the quirk called `name`.
    func quirkyFeed(named name: String) -> SandboxResponse {
        guard let quirk = Self.feedQuirks.first(where: { $0.name == name }) else {
            let names = Self.feedQuirks.map(\.name).joined(separator: ", ")
            return .error(404, "feedNotFound", "There is no quirky feed \(name); there are \(names).")
        }
        return SandboxResponse(
            status: quirk.status,
            headers: [("Content-Type", quirk.contentType)],
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
    package static let feedQuirks: [FeedQuirk] = [
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
    ]

    /// An RSS 2.0 document around `items`.
    private static func rss(title: String, items: String, namespaces: String = "") -> String {
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
