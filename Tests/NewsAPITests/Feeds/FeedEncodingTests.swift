import Foundation
import NewsAPI
import NewsSandbox
import Testing

/// Encodings decoded as browsers decode them, and refused where this system cannot.
struct FeedEncodingTests {
    @Test(arguments: [
        ("euc-kr.rss", "한국"), ("big5.rss", "中文"), ("gb2312.rss", "中文"), ("latin1.rss", "don’t “Q” – é"),
        ("charset-in-header.rss", "Новости"),
    ])
    func decodesAsBrowsersDo(quirk: String, title: String) throws {
        #expect(try FeedCorpus.quirk(quirk).entries.map(\.title) == [title])
    }

    @Test func theHeadersCharsetOutranksTheDeclarationAndAByteOrderMarkOutranksBoth() throws {
        let latin = NewsSandbox.feedQuirk("latin1.rss").body
        #expect(
            try FeedReader.read(latin, contentType: "text/xml; charset=\"windows-1251\"").first?.title
                == "don’t “Q” – й"
        )
        let marked =
            Data([0xEF, 0xBB, 0xBF])
            + Data(#"<rss version="2.0"><channel><item><title>é</title></item></channel></rss>"#.utf8)
        #expect(try FeedReader.read(marked, contentType: "text/xml; charset=iso-8859-1").first?.title == "é")
    }

    @Test func refusesAnEncodingFoundationCannotDecodeRatherThanMangleIt() throws {
        #expect {
            try FeedCorpus.quirk("euc-jp.rss")
        } throws: { error in
            guard let error = error as? FeedError, case .unsupported(let reason) = error.kind else {
                return false
            }
            return reason == #"the encoding "EUC-JP", which Foundation cannot decode on this system"#
        }
        #expect(throws: FeedError(.unsupported(reason: #"the encoding "hz-gb-2312""#), line: 1, column: 1)) {
            try FeedReader.read(Data(#"<?xml version="1.0" encoding="hz-gb-2312"?><rss/>"#.utf8))
        }
    }
}
