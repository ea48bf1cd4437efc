/// One aircraft as the store holds it at a moment of the past: where it was then (between two
/// stored positions, or at the last one before), and its visit's row (identity, category).
/// `HistoryReader.sky(at:limit:)` makes them; the web server turns them into a feed frame.
package struct StoredAircraft: Sendable, Equatable {
    /// The tracker's key: the 24-bit address, bit 24 set for a non-ICAO address.
    package var address: UInt32
    /// The moment the position stands for, seconds since 1970: the moment asked for when it
    /// lies between two stored positions, else the time of the last one before it.
    package var positionTime: Double
    /// Latitude, degrees.
    package var latitude: Double
    /// Longitude, degrees.
    package var longitude: Double
    /// Pressure altitude, feet.
    package var altitudeFt: Int?
    /// Ground speed, knots.
    package var groundSpeedKt: Double?
    /// Track over the ground, degrees.
    package var trackDeg: Double?
    /// Vertical rate, feet per minute.
    package var verticalRateFpm: Int?
    /// Whether it was on the ground.
    package var onGround: Bool
    /// The visit it belongs to, when its row is there.
    package var sighting: Sighting?
}
