/// Dates as magnetic models take them: a decimal year, the year plus the part of it gone by
/// (2025.5 is the middle of 2025). WMM's own software counts it the same way: the fraction is
/// the time since 1 January 00:00 UTC over the length of that year (365 or 366 days).
package enum DecimalYear {
    /// The decimal year of `secondsSince1970` (UTC, leap seconds ignored as Unix time
    /// ignores them).
    package static func from(secondsSince1970 seconds: Double) -> Double {
        // Beyond ±100,000 years no calendar matters (and whole years would overflow `Int`):
        // mean Gregorian years are close enough, and nothing traps.
        guard abs(seconds) < 3e12 else { return 1970 + seconds / (365.2425 * 86_400) }
        let day = (seconds / 86_400).rounded(.down)
        // A first guess from the mean Gregorian year, then a step either way to the year whose
        // span holds the day; the guess is never off by more than one.
        var year = 1970 + Int((day / 365.2425).rounded(.down))
        while Double(daysBefore(year: year)) > day { year -= 1 }
        while Double(daysBefore(year: year + 1)) <= day { year += 1 }
        let start = Double(daysBefore(year: year)) * 86_400
        let length = Double(daysBefore(year: year + 1) - daysBefore(year: year)) * 86_400
        return Double(year) + (seconds - start) / length
    }

    /// Days from 1 January 1970 to 1 January of `year` (negative before 1970), counting the
    /// Gregorian leap years: every fourth, but not centuries unless divisible by 400.
    static func daysBefore(year: Int) -> Int {
        func leapDays(before year: Int) -> Int {
            let y = year - 1
            return floorDivision(y, 4) - floorDivision(y, 100) + floorDivision(y, 400)
        }
        return 365 * (year - 1970) + leapDays(before: year) - leapDays(before: 1970)
    }

    /// a / b rounded towards minus infinity (Swift's `/` rounds towards zero).
    private static func floorDivision(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
