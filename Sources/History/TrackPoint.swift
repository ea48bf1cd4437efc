/// One stored position of a track.
package struct TrackPoint: Sendable, Equatable {
    /// The tracker's key of the aircraft.
    package var address: UInt32
    /// When the position was fixed, seconds since 1970.
    package var time: Double
    /// Latitude, degrees.
    package var latitude: Double
    /// Longitude, degrees.
    package var longitude: Double
    /// Pressure altitude (else GNSS height), feet.
    package var altitudeFt: Int?
    /// Ground speed, knots.
    package var groundSpeedKt: Double?
    /// Track over ground, degrees.
    package var trackDeg: Double?
    /// Vertical rate, feet per minute.
    package var verticalRateFpm: Int?
    /// Whether it was on the ground.
    package var onGround: Bool

    /// A point from its parts.
    package init(
        address: UInt32, time: Double, latitude: Double, longitude: Double, altitudeFt: Int? = nil,
        groundSpeedKt: Double? = nil, trackDeg: Double? = nil, verticalRateFpm: Int? = nil, onGround: Bool = false
    ) {
        self.address = address
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeFt = altitudeFt
        self.groundSpeedKt = groundSpeedKt
        self.trackDeg = trackDeg
        self.verticalRateFpm = verticalRateFpm
        self.onGround = onGround
    }
}
