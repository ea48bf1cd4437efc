import ModeS

/// What an aircraft truly is doing at one instant: the values its messages encode and the
/// truth file records.
package struct TrueAircraftState: Sendable, Equatable {
    /// Position.
    package var position: GeoPoint
    /// Barometric (pressure) altitude, feet.
    package var altitudeBaroFt: Double
    /// Geometric (GNSS) altitude, feet.
    package var altitudeGeoFt: Double
    /// Ground speed, knots.
    package var groundSpeedKt: Double
    /// Track over ground, degrees clockwise from true north.
    package var trackDeg: Double
    /// Vertical rate, feet per minute (positive climbing).
    package var verticalRateFpm: Double
    /// On the ground (surface messages) or airborne.
    package var onGround: Bool
}
