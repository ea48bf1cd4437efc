import FoundationEssentials

/// An HTTP date in its preferred form (RFC 9110 section 5.6.7, IMF-fixdate:
/// `Sun, 06 Nov 1994 08:49:37 GMT`), as `Retry-After` carries it.
///
/// Parsed by hand: the platform's date parsers that read such text need the ICU data tables,
/// tens of megabytes of binary for one header. Names are matched without regard to case;
/// the day name must be one of the seven but is not checked against the date, since a
/// sender's slip there does not make the time it asks for unclear. The obsolete RFC 850 and
/// asctime forms are not read: a server sending them gets the backoff's wait instead.
package enum HTTPDate {
    private static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names, nil unless it is exactly an IMF-fixdate of a real calendar day
    /// and time (seconds up to 60, for a leap second).
    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        // "Sun, 06 Nov 1994 08:49:37 GMT": 29 bytes, each field at a fixed place.
        guard bytes.count == 29,
            dayNames.contains(name(bytes[0..<3])),
            bytes[3] == UInt8(ascii: ","), bytes[4] == UInt8(ascii: " "),
            let day = number(bytes[5..<7]), bytes[7] == UInt8(ascii: " "),
            let monthIndex = monthNames.firstIndex(of: name(bytes[8..<11])), bytes[11] == UInt8(ascii: " "),
            let year = number(bytes[12..<16]), bytes[16] == UInt8(ascii: " "),
            let hour = number(bytes[17..<19]), bytes[19] == UInt8(ascii: ":"),
            let minute = number(bytes[20..<22]), bytes[22] == UInt8(ascii: ":"),
            let second = number(bytes[23..<25]), bytes[25] == UInt8(ascii: " "),
            bytes[26...] == [UInt8(ascii: "G"), UInt8(ascii: "M"), UInt8(ascii: "T")]
        else { return nil }
        let month = monthIndex + 1
        guard (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second <= 60 else {
            return nil
        }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// The days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
    ///
    /// Counted in years that begin in March, so that February, with the leap day, comes last:
    /// the days before a month are then one linear formula of its number, and a 400-year era
    /// always has 146,097 days.
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468  // 719,468 days from 0000-03-01 to 1970-01-01
    }

    /// The number of days of `month` (1 to 12) in `year`.
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Three letters in lower case (other bytes kept, so they match no name).
    private static func name(_ bytes: ArraySlice<UInt8>) -> String {
        String(
            decoding: bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// The decimal number the bytes spell, nil unless all are digits.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
