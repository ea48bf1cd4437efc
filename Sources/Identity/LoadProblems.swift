/// What was wrong with a data file that loaded anyway: each kind of bad row counted, so one
/// log line can say what was skipped while the rest of the file is used.
package struct LoadProblems: Sendable, Equatable {
    /// Rows that are not valid UTF-8, or whose quotes do not close, or whose key is not
    /// what its table needs (six hex digits, a callsign, a type designator).
    package var malformed = 0
    /// Rows with fewer or more fields than the format has.
    package var wrongColumns = 0
    /// Rows whose key an earlier row already had: the first one is kept.
    package var duplicates = 0
    /// Routes naming an airport the store does not know: left out.
    package var unknownAirports = 0
    /// Rows past the table's row limit: left out.
    package var overLimit = 0

    /// Nothing wrong yet.
    package init() {}

    /// Every skipped row.
    package var total: Int { malformed + wrongColumns + duplicates + unknownAirports + overLimit }

    /// One line for the log: "12 malformed, 3 duplicates", or "none".
    package var summary: String {
        let parts = [
            (malformed, "malformed"), (wrongColumns, "with the wrong number of fields"), (duplicates, "duplicates"),
            (unknownAirports, "with an unknown airport"), (overLimit, "over the row limit")
        ]
        .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// Both counts added.
    package static func + (a: LoadProblems, b: LoadProblems) -> LoadProblems {
        var sum = a
        sum.malformed += b.malformed
        sum.wrongColumns += b.wrongColumns
        sum.duplicates += b.duplicates
        sum.unknownAirports += b.unknownAirports
        sum.overLimit += b.overLimit
        return sum
    }
}
