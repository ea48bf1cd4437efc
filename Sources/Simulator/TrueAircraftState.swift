import ModeS

/// What an aircraft truly is doing at one instant: the values its messages encode and the
/// truth file records.
public struct TrueAircraftState: Sendable, Equatable {
    /// Position.
    public var position: GeoPoint
    /// Barometric (pressure) altitude, feet.
    public var altitudeBaroFt: Double
    /// Geometric (GNSS) altitude, feet.
    public var altitudeGeoFt: Double
    /// Ground speed, knots.
    public var groundSpeedKt: Double
    /// Track over ground, degrees clockwise from true north.
    public var trackDeg: Double
    /// Vertical rate, feet per minute (positive climbing).
    public var verticalRateFpm: Double
    /// On the ground (surface messages) or airborne.
    public var onGround: Bool
}
