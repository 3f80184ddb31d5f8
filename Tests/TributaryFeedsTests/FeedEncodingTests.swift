import Foundation
import Testing
import TributaryFeeds
import TributarySandbox
import TributaryTestSupport

/// Encodings decoded as browsers decode them, and refused where this system cannot.
struct FeedEncodingTests {
    @Test(arguments: [
        ("euc-kr.rss", "한국"), ("big5.rss", "中文"), ("gb2312.rss", "中文"), ("latin1.rss", "don’t “Q” – é"),
        ("charset-in-header.rss", "Новости"),
    ])
    func decodesAsBrowsersDo(quirk: String, title: String) throws {
        #expect(try FeedCorpus.quirk(quirk).entries.map(\.title) == [title])
    }

    /// A document that names no encoding anywhere and is not UTF-8 is read as browsers read
    /// it, as Windows-1252, and the repairs say so; one that names UTF-8 is still held to it.
    @Test func readsAnUndeclaredDocumentThatIsNotUTF8AsWindows1252() throws {
        let feed = try FeedCorpus.quirk("undeclared-windows-1252.rss")
        #expect(feed.entries.map(\.title) == ["“quoted” café"])
        #expect(feed.forgiven == [.decodedAsWindows1252])
        #expect(
            feed.forgiven.map(\.description) == [
                "read the document as Windows-1252, since it names no encoding and is not valid UTF-8"
            ]
        )
        // Labelled UTF-8 and not valid UTF-8, it is read as Windows-1252 all the same, and the
        // repairs say where the UTF-8 breaks.
        let body = Sandbox.feedQuirk("undeclared-windows-1252.rss").body
        let labelled = try FeedReader.document(body, contentType: "application/rss+xml; charset=utf-8")
        #expect(labelled.entries.map(\.title) == ["“quoted” café"])
        #expect(labelled.forgiven.count == 1)
        if case .redecodedAsWindows1252 = labelled.forgiven.first {
        } else {
            Issue.record("\(labelled.forgiven)")
        }
        let utf8 = Data(#"<rss version="2.0"><channel><item><title>café</title></item></channel></rss>"#.utf8)
        #expect(try FeedReader.document(utf8).entries.map(\.title) == ["café"])
        #expect(try FeedReader.document(utf8).forgiven.isEmpty)
    }

    @Test func theHeadersCharsetOutranksTheDeclarationAndAByteOrderMarkOutranksBoth() throws {
        let latin = Sandbox.feedQuirk("latin1.rss").body
        #expect(
            try FeedReader.read(latin, contentType: "text/xml; charset=\"windows-1251\"").first?.title
                == "don’t “Q” – й"
        )
        let marked =
            Data([0xEF, 0xBB, 0xBF])
            + Data(#"<rss version="2.0"><channel><item><title>é</title></item></channel></rss>"#.utf8)
        #expect(try FeedReader.read(marked, contentType: "text/xml; charset=iso-8859-1").first?.title == "é")
    }

    /// `text` in `encoding`, as the system's `iconv` command writes it.
    private func encoded(_ text: String, as encoding: String) throws -> Data {
        let process = try Spawned(
            URL(fileURLWithPath: "/usr/bin/iconv"),
            arguments: ["-f", "UTF-8", "-t", encoding]
        )
        try process.standardInput.write(contentsOf: Data(text.utf8))
        try process.standardInput.close()
        let data = try process.standardOutput.readToEnd() ?? Data()
        _ = process.wait()
        return data
    }

    /// EUC-JP, which Foundation on Linux lacks, the DOS, Mac and EBCDIC code pages and Python's
    /// names for encodings are read through the system's iconv; an encoding nothing here
    /// decodes, and the standard's unsafe ones, are refused rather than mangled.
    @Test func readsEncodingsFoundationLacksThroughIconvAndRefusesTheRest() throws {
        #expect(try FeedCorpus.quirk("euc-jp.rss").entries.map(\.title) == ["日本"])
        func feed(_ label: String, title: [UInt8]) -> Data {
            Data(
                "<?xml version=\"1.0\" encoding=\"\(label)\"?><rss version=\"2.0\"><channel><item><title>"
                    .utf8
            )
                + Data(title) + Data("</title></item></channel></rss>".utf8)
        }
        // 0x80 is Ç in code page 437, Ä in Mac Roman, € in Windows-1252 (named as Python names it).
        #expect(try FeedReader.read(feed("cp437", title: [0x80])).map(\.title) == ["Ç"])
        #expect(try FeedReader.read(feed("macroman", title: [0x80])).map(\.title) == ["Ä"])
        #expect(try FeedReader.read(feed("windows_1252", title: [0x80])).map(\.title) == ["€"])
        // A whole document in EBCDIC (code page 37), found by its first bytes.
        let ebcdic = try encoded(
            #"<?xml version="1.0" encoding="cp037"?><rss version="2.0"><channel><item><title>EBCDIC</title></item></channel></rss>"#,
            as: "IBM037"
        )
        #expect(try FeedReader.read(ebcdic).map(\.title) == ["EBCDIC"])
        #expect(
            throws: FeedError(
                .unsupported(reason: #"the encoding "x-no-such-code-page""#),
                line: 1,
                column: 31
            )
        ) {
            try FeedReader.read(feed("x-no-such-code-page", title: [0x41]))
        }
        #expect(throws: FeedError(.unsupported(reason: #"the encoding "hz-gb-2312""#), line: 1, column: 1)) {
            try FeedReader.read(Data(#"<?xml version="1.0" encoding="hz-gb-2312"?><rss/>"#.utf8))
        }
    }
}
