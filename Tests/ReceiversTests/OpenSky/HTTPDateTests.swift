import Foundation
import Support
import Testing

@testable import Receivers

/// `Retry-After` dates (RFC 9110 IMF-fixdate), read without the platform's date formatters.
@Suite struct HTTPDateTests {
    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Wed, 31 Dec 1969 23:59:59 GMT", -1),
        ("Thu, 29 Feb 2024 12:00:00 GMT", 1_709_208_000),
        ("Wed, 01 Mar 2000 00:00:00 GMT", 951_868_800),
        ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
        ("Sat, 01 Jan 0000 00:00:00 GMT", -62_167_219_200),
        ("sun, 06 NOV 1994 08:49:37 GMT", 784_111_777),
        ("Tue, 30 Jun 2015 23:59:60 GMT", 1_435_708_800)
    ])
    func readsTheSecondsSince1970(text: String, seconds: Double) throws {
        let date = try #require(HTTPDate.parse(text), "\(text)")
        #expect(date.timeIntervalSince1970 == seconds, "\(text)")
    }

    /// The same dates as the platform's full date formatter reads them, over many days.
    @Test func agreesWithTheFullFoundationFormatterDayByDay() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var seconds = -4_000_000_000.0
        while seconds < 8_000_000_000 {
            let date = Date(timeIntervalSince1970: seconds)
            let text = formatter.string(from: date)
            #expect(HTTPDate.parse(text) == date, "\(text)")
            seconds += 86_400 * 97 + 3_761
        }
    }

    @Test(arguments: [
        "", "Sun, 06 Nov 1994", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 gmt ",
        " Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Now 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT", "Fri, 29 Feb 2023 08:49:37 GMT", "Mon, 29 Feb 1900 00:00:00 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT ", "Sun, 06 Nov 1994 08:49:3x GMT", "Sun, +6 Nov 1994 08:49:37 GMT",
        "Sun; 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08.49.37 GMT", "Sün, 06 Nov 1994 08:49:37 GMT"
    ])
    func refusesEverythingElse(text: String) {
        #expect(HTTPDate.parse(text) == nil, "\(text)")
    }

    @Test func aRetryAfterDateIsTheTimeLeftUntilIt() throws {
        let policy = RetryPolicy()
        let now = Date(timeIntervalSince1970: 784_111_777)
        #expect(policy.retryAfter(header: " Sun, 06 Nov 1994 08:50:07 GMT ", now: now) == .seconds(30))
        #expect(policy.retryAfter(header: "Sun, 06 Nov 1994 08:49:00 GMT", now: now) == .zero)
        #expect(policy.retryAfter(header: "Mon, 07 Nov 1994 08:49:37 GMT", now: now) == .seconds(3600))
        #expect(policy.retryAfter(header: "Sun, 06 Nov 1994 08:49:37 UTC", now: now) == nil)
    }
}
