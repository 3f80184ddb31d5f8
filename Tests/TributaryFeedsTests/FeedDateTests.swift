import Foundation
import Testing
import TributaryFeeds
import TributarySandbox

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
        ("Wed, 14 Jan 2004 08:59:35 -0500 (EST)", "2004-01-14T13:59:35Z"),
        ("Tue, 27 Jan 2004 01:31:00 +0000 GMT", "2004-01-27T01:31:00Z"),
        ("Mon,  6 Jun 2016 23:37:34 UT", "2016-06-06T23:37:34Z"),
        ("Tue, 10 Jun 2003 04:00:00.000 GMT", "2003-06-10T04:00:00Z"),
        ("Thu, 04 Jan 2007 22:52:00 GMT+0100", "2007-01-04T21:52:00Z"),
        ("2004-07-08 23:56:58.0", "2004-07-08T23:56:58Z"),
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
        "yesterday", "2003-12-31T10:14:55+25:00", "Tue, 27 Jan 2004 01:31:00 +0100 GMT",
    ])
    func leavesUndatedWhatIsNoDate(text: String) throws {
        let xml = """
            <rss version="2.0"><channel><title>T</title><item><title>x</title><pubDate>\(text)</pubDate></item></channel></rss>
            """
        #expect(try FeedReader.read(Data(xml.utf8)).first?.published == nil)
    }
}
