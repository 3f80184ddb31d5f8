import Foundation
import NewsAPI
import NewsSandbox
import Testing

/// Dates in the forms real feeds write them; what is no date stays undated.
struct FeedDateTests {
    private func date(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    @Test func readsTheDateFormsFeedsUseAndInventsNone() throws {
        let dates = try FeedCorpus.quirk("dates.rss").entries.map(\.published)
        #expect(
            dates == [
                date("2004-01-26T15:31:00Z"), date("2004-01-26T14:31:00Z"), date("2004-01-26T21:31:00Z"),
                date("2004-01-27T00:31:00Z"), date("2012-12-16T11:15:00Z"), date("2004-01-01T20:49:21Z"),
                date("2004-01-01T00:00:00Z"), date("2003-12-31T10:14:55Z"), date("2003-12-01T00:00:00Z"),
                date("2004-01-05T00:29:06Z"), date("2004-01-04T16:29:06Z"), nil, nil,
            ]
        )
    }

    @Test(arguments: [
        ("Thu, 01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
        ("Thu, 01 Jan 04 19:48:21 GMT", "2004-01-01T19:48:21Z"),
        ("Thu, 1 January 2004 19:48 -0500", "2004-01-02T00:48:00Z"),
        ("Thursday, 01-Jan-04 19:48:21 GMT", "2004-01-01T19:48:21Z"),
        ("01 Jan 2004 19:48:21 +01:00", "2004-01-01T18:48:21Z"),
        ("Sun, 16 Dec 2012 01:02:03 UTC+2", "2012-12-15T23:02:03Z"),
        ("Tue Jun 29 10:17:38 +0000 2010", "2010-06-29T10:17:38Z"),
        ("Fri, 2006/09/15 08:19:53 EDT", "2006-09-15T12:19:53Z"),
        ("2003-12-31T10:14:55-08:00", "2003-12-31T18:14:55Z"),
        ("2003-12-31T10:14:55+0800", "2003-12-31T02:14:55Z"),
        ("2003-12-31 10:14:55Z", "2003-12-31T10:14:55Z"),
        ("20031231T101455Z", "2003-12-31T10:14:55Z"),
        ("2003-12-31T10:14Z", "2003-12-31T10:14:00Z"),
        ("2003-12-31", "2003-12-31T00:00:00Z"),
        ("2003", "2003-01-01T00:00:00Z"),
        ("  Thu,\n 01 Jan 2004 19:48:21 GMT ", "2004-01-01T19:48:21Z"),
    ])
    func readsDates(text: String, expected: String) throws {
        let xml = """
            <rss version="2.0"><channel><title>T</title><item><title>x</title><pubDate>\(text)</pubDate></item></channel></rss>
            """
        #expect(try FeedReader.read(Data(xml.utf8)).first?.published == date(expected))
    }

    @Test(arguments: [
        "Thu, 31 Feb 2004 10:00:00 GMT", "Thu, 01 Jan 2004 25:00:00 GMT", "2003-13-01",
        "Thu, 01 Jan 2004 10:00 XYZ",
        "yesterday", "2003-12-31T10:14:55+25:00",
    ])
    func leavesUndatedWhatIsNoDate(text: String) throws {
        let xml = """
            <rss version="2.0"><channel><title>T</title><item><title>x</title><pubDate>\(text)</pubDate></item></channel></rss>
            """
        #expect(try FeedReader.read(Data(xml.utf8)).first?.published == nil)
    }
}
