import ModeS

/// Everything one report from an aggregator (an OpenSky state vector) says about one
/// aircraft, in the tracker's units: feet, knots, feet per minute, seconds since 1970.
/// Values a report leaves out stay nil.
package struct StateReport: Sendable, Equatable {
    /// The 24-bit ICAO address.
    package var icao: UInt32
    /// When the aggregator last heard the aircraft.
    package var lastSeen: Double
    /// Flight identification, trimmed.
    package var callsign: String?
    /// ADS-B emitter category such as "A3".
    package var category: String?
    /// Mode A code, four octal digits.
    package var squawk: String?
    /// Position, with the time it was reported.
    package var position: GeoPoint?
    /// When `position` was reported.
    package var positionTime: Double?
    /// Barometric altitude.
    package var altitudeBaroFt: Int?
    /// Geometric (GNSS) altitude.
    package var altitudeGeoFt: Int?
    /// Speed over ground.
    package var groundSpeedKt: Double?
    /// Track over ground, degrees from true north.
    package var trackDeg: Double?
    /// Climb (positive) or descent rate.
    package var verticalRateFpm: Int?
    /// On the ground.
    package var onGround: Bool?

    /// A report of `icao`, heard at `lastSeen`, with nothing else known yet.
    package init(icao: UInt32, lastSeen: Double) {
        self.icao = icao
        self.lastSeen = lastSeen
    }
}
