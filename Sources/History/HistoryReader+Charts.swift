import Support

extension HistoryReader {
    /// The chart series of the `period` before `now`, one point per `period.bucketSeconds`:
    /// `{"period","bucket_s","points":[{"time","messages_per_s","aircraft","with_position",
    /// "max_range_km","signal_dbfs","noise_dbfs","peak_dbfs"},...]}`. Aircraft are the most in
    /// any minute of the bucket, the powers the bucket's means (and strongest).
    package func chart(period: HistoryPeriod, now: Double) throws(HistoryError) -> String {
        let connection = try open()
        let bucket = Int64(period.bucketSeconds)
        let statement = try connection.prepare(
            """
            SELECT (time / ?) * ? AS start, sum(messages), count(*), max(aircraft), max(with_position),
                max(max_range_km), avg(signal_dbfs), avg(noise_dbfs), max(peak_signal_dbfs)
            FROM minutes WHERE time >= ? AND time <= ? GROUP BY start ORDER BY start LIMIT 1000
            """)
        try statement.bind([.integer(bucket), .integer(bucket), .real(now - period.seconds), .real(now)])
        var points: [String] = []
        while try statement.step() {
            var w = JSONObjectWriter()
            w.add("time", statement.int64(0).map(Int.init))
            let minutes = max(1, statement.int64(2) ?? 1)
            w.add("messages_per_s", Double(statement.int64(1) ?? 0) / Double(minutes * 60), decimals: 1)
            w.add("aircraft", statement.int64(3).map(Int.init))
            w.add("with_position", statement.int64(4).map(Int.init))
            w.add("max_range_km", statement.double(5), decimals: 1)
            w.add("signal_dbfs", statement.double(6), decimals: 1)
            w.add("noise_dbfs", statement.double(7), decimals: 1)
            w.add("peak_dbfs", statement.double(8), decimals: 1)
            points.append(w.result)
        }
        var root = JSONObjectWriter()
        root.add("period", period.rawValue)
        root.add("bucket_s", period.bucketSeconds)
        root.addRaw("points", "[" + points.joined(separator: ",\n") + "]")
        return root.result + "\n"
    }

    /// The coverage cells of the `period` before `now`: in each sector and band the furthest
    /// position of any hour.
    func coverageCells(period: HistoryPeriod, now: Double) throws(HistoryError) -> [CoverageCell] {
        let connection = try open()
        // SQLite gives the other columns of the row that holds max(range_km).
        let statement = try connection.prepare(
            """
            SELECT sector, band, max(range_km), latitude, longitude, altitude_ft FROM coverage
            WHERE hour >= ? AND sector >= 0 AND sector < ? AND band >= 0 AND band < ?
            GROUP BY sector, band ORDER BY sector, band
            """)
        try statement.bind([
            .integer(Int64(((now - period.seconds) / 3600).rounded(.down))), .int(RangeCoverage.sectors),
            .int(RangeCoverage.bandFloorsFt.count)
        ])
        var cells: [CoverageCell] = []
        while try statement.step() {
            guard let range = statement.double(2), range.isFinite else { continue }
            cells.append(
                CoverageCell(
                    hour: 0, sector: Int(statement.int64(0) ?? 0), band: Int(statement.int64(1) ?? 0), rangeKm: range,
                    latitude: statement.double(3) ?? 0, longitude: statement.double(4) ?? 0,
                    altitudeFt: Int(statement.int64(5) ?? 0)))
        }
        return cells
    }

    /// readsb's `outline.json` for the last 24 hours before `now`: `{"actualRange":{"last24h":
    /// {"points":[[lat,lon,alt],...]}}}`, the furthest position in each sector, going round.
    package func outlineJSON(now: Double) throws(HistoryError) -> String {
        let points = RangeCoverage.outline(try coverageCells(period: .day, now: now)).map { cell in
            "[" + HistoryReader.number(cell.latitude, places: 4) + "," + HistoryReader.number(cell.longitude, places: 4)
                + ",\(cell.altitudeFt)]"
        }
        return "{\"actualRange\":{\"last24h\":{\"points\":[" + points.joined(separator: ",") + "]}}}\n"
    }

    /// The polar coverage of the `period` before `now`: `{"period","sectors","sector_deg",
    /// "bands_ft":[floors],"cells":[[sector, band, range_km],...]}`.
    package func coverageJSON(period: HistoryPeriod, now: Double) throws(HistoryError) -> String {
        let cells = try coverageCells(period: period, now: now).map { cell in
            "[\(cell.sector),\(cell.band)," + HistoryReader.number(cell.rangeKm, places: 1) + "]"
        }
        var root = JSONObjectWriter()
        root.add("period", period.rawValue)
        root.add("sectors", RangeCoverage.sectors)
        root.add("sector_deg", 360 / Double(RangeCoverage.sectors), decimals: 1)
        let floors = RangeCoverage.bandFloorsFt.map { max(0, $0) }.map(String.init).joined(separator: ",")
        root.addRaw("bands_ft", "[" + floors + "]")
        root.addRaw("cells", "[" + cells.joined(separator: ",") + "]")
        return root.result + "\n"
    }
}
