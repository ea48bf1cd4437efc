import Support

extension HistoryReader {
    /// Most airlines and types the diary lists.
    static let diaryListLimit = 50

    /// The diary of `range` (a day, for the app's "today"): how many aircraft, the lowest,
    /// the highest, the fastest, the closest, the biggest (by class), the first and the last,
    /// and the airlines and types seen with how many of each. Each aircraft is an object
    /// with `hex`, `callsign`, `registration`, `type`, `description`, `class`, `operator`,
    /// `first_seen`, `last_seen`, and the extreme that put it there.
    package func diaryJSON(in range: ClosedRange<Double>) throws(HistoryError) -> String {
        let connection = try open()
        let bounds: [SQLiteValue?] = [.real(range.upperBound), .real(range.lowerBound)]
        let visible = "start <= ? AND last_seen >= ?"
        var root = JSONObjectWriter()
        root.add("from", range.lowerBound, decimals: 0)
        root.add("to", range.upperBound, decimals: 0)
        root.add(
            "aircraft", try count(connection, "SELECT count(DISTINCT address) FROM sightings WHERE \(visible)", bounds))
        let extremes: [(String, String)] = [
            ("lowest", "min_altitude_ft IS NOT NULL ORDER BY min_altitude_ft ASC"),
            ("highest", "max_altitude_ft IS NOT NULL ORDER BY max_altitude_ft DESC"),
            ("fastest", "max_speed_kt IS NOT NULL ORDER BY max_speed_kt DESC"),
            ("closest", "closest_km IS NOT NULL ORDER BY closest_km ASC"),
            ("biggest", "class IS NOT NULL ORDER BY \(Self.sizeOrder) DESC, max_altitude_ft DESC"),
            ("first", "1 ORDER BY start ASC"),
            ("last", "1 ORDER BY last_seen DESC")
        ]
        for (name, order) in extremes {
            let sql = "SELECT \(Self.sightingColumns) FROM sightings WHERE \(visible) AND \(order) LIMIT 1"
            root.addRaw(name, try sighting(connection, sql, bounds) ?? "null")
        }
        root.addRaw("airlines", try tally(connection, column: "operator", visible: visible, bounds))
        root.addRaw("types", try tally(connection, column: "type_code", visible: visible, bounds))
        return root.result + "\n"
    }

    /// Classes from smallest to biggest, as an SQL expression over `class`.
    static let sizeOrder = """
        CASE class WHEN 'heavy' THEN 6 WHEN 'medium_jet' THEN 5 WHEN 'military' THEN 4 WHEN 'small' THEN 3 \
        WHEN 'helicopter' THEN 2 WHEN 'light' THEN 1 ELSE 0 END
        """

    static let sightingColumns = """
        address, callsign, registration, type_code, type_description, class, operator, start, last_seen,
        min_altitude_ft, max_altitude_ft, max_speed_kt, closest_km
        """

    private func count(_ connection: SQLiteConnection, _ sql: String, _ values: [SQLiteValue?]) throws(HistoryError)
        -> Int
    {
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        guard try statement.step() else { return 0 }
        return Int(statement.int64(0) ?? 0)
    }

    private func sighting(_ connection: SQLiteConnection, _ sql: String, _ values: [SQLiteValue?]) throws(HistoryError)
        -> String?
    {
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        guard try statement.step() else { return nil }
        var w = JSONObjectWriter()
        w.add("hex", Self.hex(statement.int64(0) ?? 0))
        w.add("callsign", statement.text(1))
        w.add("registration", statement.text(2))
        w.add("type", statement.text(3))
        w.add("description", statement.text(4))
        w.add("class", statement.text(5))
        w.add("operator", statement.text(6))
        w.add("first_seen", statement.double(7), decimals: 0)
        w.add("last_seen", statement.double(8), decimals: 0)
        w.add("min_altitude_ft", statement.int64(9).map(Int.init))
        w.add("max_altitude_ft", statement.int64(10).map(Int.init))
        w.add("max_speed_kt", statement.double(11), decimals: 0)
        w.add("closest_km", statement.double(12), decimals: 1)
        return w.result
    }

    /// `[{"name","count"},...]` of `column`'s values among the aircraft seen, most first.
    private func tally(
        _ connection: SQLiteConnection, column: String, visible: String, _ values: [SQLiteValue?]
    ) throws(HistoryError) -> String {
        let statement = try connection.prepare(
            """
            SELECT \(column), count(DISTINCT address) AS n FROM sightings WHERE \(visible) AND \(column) IS NOT NULL
            GROUP BY \(column) ORDER BY n DESC, \(column) LIMIT \(Self.diaryListLimit)
            """)
        try statement.bind(values)
        var items: [String] = []
        while try statement.step() {
            var w = JSONObjectWriter()
            w.add("name", statement.text(0))
            w.add("count", statement.int64(1).map(Int.init))
            items.append(w.result)
        }
        return "[" + items.joined(separator: ",") + "]"
    }
}
