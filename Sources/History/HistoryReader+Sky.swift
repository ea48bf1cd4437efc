/// The sky at a moment of the past, for the rewind: every aircraft the store holds a position
/// for around that moment, where it was then.
extension HistoryReader {
    /// How far apart two stored positions may be and still be joined by a straight line: the
    /// thinning rule keeps one at least every 30 s while an aircraft is heard
    /// (`TrackThinner.Rule.maxInterval`), so a wider gap means it was not heard in between.
    package static let joinSeconds = 45.0
    /// How long after its last stored position an aircraft still stands there when no later
    /// one follows: one thinning interval and a little, then it has gone.
    package static let holdSeconds = 35.0

    /// The aircraft at `time` (seconds since 1970), at most `limit`, by address: each at the
    /// point between its stored positions on either side of `time` (linear in time; the
    /// thinning rule keeps a position wherever the track bends, so straight lines between them
    /// follow it), or at its last stored position when none follows within `joinSeconds`.
    package func sky(at time: Double, limit: Int) throws(HistoryError) -> [StoredAircraft] {
        let connection = try open()
        let statement = try connection.prepare(
            "SELECT \(Self.positionColumns) FROM positions WHERE time >= ? AND time <= ? ORDER BY address, time")
        try statement.bind([.real(time - Self.joinSeconds), .real(time + Self.joinSeconds)])
        var found: [StoredAircraft] = []
        var before: TrackPoint?
        var after: TrackPoint?
        func settle() {
            if let placed = Self.place(before: before, after: after, at: time) {
                found.append(StoredAircraft(point: placed))
            }
            before = nil
            after = nil
        }
        while found.count < limit, try statement.step() {
            let point = Self.trackPoint(statement)
            if let held = before ?? after, held.address != point.address { settle() }
            if point.time <= time {
                before = point
            } else if after == nil {
                after = point
            }
        }
        if found.count < limit { settle() }
        let visits = try sightings(connection, at: time)
        return found.map { plane in
            var plane = plane
            plane.sighting = visits[plane.point.address]
            return plane
        }
    }

    /// Where an aircraft stood at `time` from its last stored position `before` and its first
    /// `after`; nil when it was not yet heard or had gone.
    static func place(before: TrackPoint?, after: TrackPoint?, at time: Double) -> TrackPoint? {
        guard var placed = before else { return nil }
        guard let after, after.time - placed.time <= joinSeconds, after.time > placed.time else {
            return time - placed.time <= holdSeconds ? placed : nil
        }
        let share = (time - placed.time) / (after.time - placed.time)
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * share }
        placed.latitude = mix(placed.latitude, after.latitude)
        // Across the antimeridian the shorter way round.
        var east = after.longitude - placed.longitude
        if east > 180 { east -= 360 } else if east < -180 { east += 360 }
        placed.longitude = placed.longitude + east * share
        if placed.longitude > 180 {
            placed.longitude -= 360
        } else if placed.longitude < -180 {
            placed.longitude += 360
        }
        if let a = placed.altitudeFt, let b = after.altitudeFt {
            placed.altitudeFt = Int(mix(Double(a), Double(b)).rounded())
        }
        if let a = placed.groundSpeedKt, let b = after.groundSpeedKt { placed.groundSpeedKt = mix(a, b) }
        placed.time = time
        return placed
    }

    /// The visits under way at `time` (or ended within `holdSeconds` of it), the latest one
    /// of each address.
    private func sightings(_ connection: SQLiteConnection, at time: Double) throws(HistoryError) -> [UInt32: Sighting] {
        let statement = try connection.prepare(
            """
            SELECT address, start, last_seen, callsign, registration, type_code, type_description, class,
                operator, category FROM sightings WHERE start <= ? AND last_seen >= ? ORDER BY start
            """)
        try statement.bind([.real(time + Self.joinSeconds), .real(time - Self.joinSeconds)])
        var visits: [UInt32: Sighting] = [:]
        while try statement.step() {
            var visit = Sighting(
                address: UInt32(truncatingIfNeeded: statement.int64(0) ?? 0), start: statement.double(1) ?? 0)
            visit.lastSeen = statement.double(2) ?? visit.start
            visit.callsign = statement.text(3)
            visit.registration = statement.text(4)
            visit.typeCode = statement.text(5)
            visit.typeDescription = statement.text(6)
            visit.aircraftClass = statement.text(7)
            visit.operatorName = statement.text(8)
            visit.category = statement.text(9)
            if visit.start <= time || visits[visit.address] == nil { visits[visit.address] = visit }
        }
        return visits
    }
}
