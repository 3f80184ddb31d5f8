import Foundation
import Testing

@testable import TributaryHTTP

/// One parser for the dates of HTTP headers and of feeds.
struct InternetDateTests {
    /// 1994-11-06 08:49:37 UTC.
    static let instant = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "06 Nov 1994 08:49:37 GMT", "6 Nov 94 08:49:37 UT", "Sun, 06 Nov 1994 03:49:37 EST",
        "Sun, 06 Nov 1994 10:49:37 +0200", "Sun, 06 Nov 1994 08:19:37 -0030",
        "sun, 06 november 1994 08:49:37 z",
        "Sun, 06 Nov 1994 00:49:37 PST",
    ])
    func readsEveryForm(text: String) {
        #expect(InternetDate.parse(text) == Self.instant)
    }

    @Test func readsATimeWithoutSecondsAndADateWithoutAZone() {
        #expect(InternetDate.parse("06 Nov 1994 08:49") == Self.instant.addingTimeInterval(-37))
        #expect(InternetDate.parse("Sun, 06 Nov 1994 08:49:37") == Self.instant)
        #expect(InternetDate.parse("01 Jan 69 00:00 GMT") == Date(timeIntervalSince1970: 3_124_224_000))
        #expect(InternetDate.parse("01 Jan 70 00:00 GMT") == Date(timeIntervalSince1970: 0))
    }

    @Test(arguments: [
        "", "soon", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 XYZ",
        "Sun, 06 Nov 1994 08:49:37 +2460", "Sun, 06 Nov 19940 08:49:37 GMT",
        "Sun, 06 Nov 9223372036854775807 08:49:37 GMT", "Sun Nov  6 08:49:47 -9223372036854775807",
        "Sun, 06 Nov 1994 08::37 GMT", "Sunday, 06-Nov 08:49:37 GMT", "Nov 6 1994",
    ])
    func refusesWhatIsNoDate(text: String) {
        #expect(InternetDate.parse(text) == nil)
    }
}
