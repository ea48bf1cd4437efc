import ModeS
import Support

/// Answers the history endpoints from the store: each call opens the file read-only (WAL
/// lets it read while the writer writes), runs bounded queries with bound parameters, and
/// returns JSON text. It never writes and never makes the file.
package struct HistoryReader: Sendable {
    /// The directory of the store.
    package let directory: String
    /// The receiver's position (coverage is measured from it).
    package let receiver: GeoPoint?

    /// A reader of the store in `directory`.
    package init(directory: String, receiver: GeoPoint?) {
        self.directory = directory
        self.receiver = receiver
    }

    /// A read-only connection to the store.
    func open() throws(HistoryError) -> SQLiteConnection {
        try SQLiteConnection(path: HistoryStore.path(in: directory), readOnly: true, create: false)
    }

    /// `{"from","to","truncated","positions":[{hex,time,lat,lon,alt,gs,track,rate,ground},...]}`:
    /// the stored positions of every aircraft in `range`, oldest first, at most `limit`.
    package func tracks(in range: ClosedRange<Double>, limit: Int) throws(HistoryError) -> String {
        let connection = try open()
        let statement = try connection.prepare(
            "SELECT \(Self.positionColumns) FROM positions WHERE time >= ? AND time <= ? ORDER BY time LIMIT ?")
        try statement.bind([.real(range.lowerBound), .real(range.upperBound), .integer(Int64(limit) + 1)])
        var items: [String] = []
        while items.count < limit, try statement.step() {
            let point = Self.trackPoint(statement)
            var w = JSONObjectWriter()
            w.add("hex", Self.hex(Int64(point.address)))
            w.add("time", point.time, decimals: 1)
            w.add("lat", point.latitude, decimals: 5)
            w.add("lon", point.longitude, decimals: 5)
            w.add("alt", point.altitudeFt)
            w.add("gs", point.groundSpeedKt, decimals: 1)
            w.add("track", point.trackDeg, decimals: 1)
            w.add("rate", point.verticalRateFpm)
            w.add("ground", point.onGround)
            items.append(w.result)
        }
        let truncated = items.count == limit && (try? statement.step()) == true
        var root = JSONObjectWriter()
        root.add("from", range.lowerBound, decimals: 0)
        root.add("to", range.upperBound, decimals: 0)
        root.add("truncated", truncated)
        root.addRaw("positions", "[" + items.joined(separator: ",\n") + "]")
        return root.result + "\n"
    }

    /// One aircraft's stored track in `range` in tar1090's trace layout: `{"icao",
    /// "timestamp","trace":[[seconds after timestamp, lat, lon, altitude or "ground", ground
    /// speed, track, flags, vertical rate], ...]}`, at most `limit` points. The flags are
    /// tar1090's: 1 when the point starts a new leg (more than 10 minutes after the one before).
    package func trace(address: UInt32, in range: ClosedRange<Double>, limit: Int) throws(HistoryError) -> String {
        let connection = try open()
        let statement = try connection.prepare(
            """
            SELECT time, latitude, longitude, altitude_ft, ground_speed_kt, track_deg, vertical_rate_fpm,
                on_ground FROM positions WHERE address = ? AND time >= ? AND time <= ? ORDER BY time LIMIT ?
            """)
        try statement.bind([
            .integer(Int64(address)), .real(range.lowerBound), .real(range.upperBound), .integer(Int64(limit))
        ])
        var points: [String] = []
        var start: Double?
        var previous: Double?
        while try statement.step() {
            let time = statement.double(0) ?? 0
            let base = start ?? time
            start = base
            let altitude = statement.int64(7) == 1 ? "\"ground\"" : Self.number(statement.int64(3))
            let flags = previous.map { time - $0 > 600 ? 1 : 0 } ?? 0
            previous = time
            let fields = [
                DecimalText.fixed(time - base, places: 1), Self.number(statement.double(1), places: 5),
                Self.number(statement.double(2), places: 5), altitude, Self.number(statement.double(4), places: 1),
                Self.number(statement.double(5), places: 1), "\(flags)", Self.number(statement.int64(6))
            ]
            points.append("[" + fields.joined(separator: ",") + "]")
        }
        var root = JSONObjectWriter()
        root.add("icao", Self.hex(Int64(address)))
        root.add("timestamp", start ?? range.lowerBound, decimals: 1)
        root.addRaw("trace", "[" + points.joined(separator: ",\n") + "]")
        return root.result + "\n"
    }

    /// A stored position's columns, in the order `trackPoint(_:)` reads them.
    static let positionColumns = """
        address, time, latitude, longitude, altitude_ft, ground_speed_kt, track_deg, vertical_rate_fpm, on_ground
        """

    /// The position of the current row of a statement that selects `positionColumns` first.
    static func trackPoint(_ statement: SQLiteStatement) -> TrackPoint {
        TrackPoint(
            address: UInt32(truncatingIfNeeded: statement.int64(0) ?? 0), time: statement.double(1) ?? 0,
            latitude: statement.double(2) ?? 0, longitude: statement.double(3) ?? 0,
            altitudeFt: statement.int64(4).map(Int.init), groundSpeedKt: statement.double(5),
            trackDeg: statement.double(6), verticalRateFpm: statement.int64(7).map(Int.init),
            onGround: statement.int64(8) == 1)
    }

    /// The address as aircraft.json writes it: six hex digits, `~` in front for a non-ICAO one.
    static func hex(_ key: Int64) -> String {
        let address = UInt32(truncatingIfNeeded: key)
        let text = Message.hex(address: address & 0xFF_FFFF)
        return address & (1 << 24) != 0 ? "~" + text : text
    }

    /// A number for a JSON array, `null` when missing.
    static func number(_ value: Int64?) -> String { value.map { "\($0)" } ?? "null" }

    /// A number with `places` decimals for a JSON array, `null` when missing or not finite.
    static func number(_ value: Double?, places: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        return DecimalText.fixed(value, places: places)
    }
}
