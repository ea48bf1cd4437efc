/// What an aircraft is doing over the recording.
public enum FlightPhase: String, Sendable, CaseIterable {
    /// Moving (or parked) on the airport surface.
    case taxiing
    /// Departing: climbing out.
    case climbing
    /// Level in cruise.
    case cruising
    /// Arriving: descending towards the airport.
    case landing
}

/// One simulated aircraft: who it is, how its transponder behaves, and how it moves.
///
/// Motion is straight and at constant speed and vertical rate (recordings last seconds to
/// minutes), which keeps every state a closed-form function of time.
public struct AircraftTrack: Sendable {
    /// The 24-bit ICAO address.
    public var icao: UInt32
    /// Flight identification, up to 8 characters.
    public var callsign: String
    /// Emitter category, e.g. "A3".
    public var category: String
    /// Mode A code, four octal digits.
    public var squawk: String
    /// The phase of flight.
    public var phase: FlightPhase
    /// State at t = 0.
    public var initial: TrueAircraftState
    /// Lowest altitude the aircraft reaches (ground elevation), feet.
    public var floorFt: Double
    /// Reports GNSS height positions (type codes 20–22) instead of barometric ones.
    public var gnssPositionsOnly: Bool
    /// Reports airspeed and heading (velocity subtype 3) instead of ground velocity.
    public var reportsAirspeed: Bool
    /// Answers Gillham-coded altitude in DF4 (an older transponder).
    public var gillhamAltitude: Bool
    /// Carrier offset of this transponder from 1090 MHz, Hz.
    public var frequencyOffsetHz: Double
    /// Per-aircraft signal spread (antenna, transmitter power, installation), dB.
    public var levelOffsetDb: Double

    /// The highest level a climb reaches, feet.
    public static let ceilingFt = 41_000.0

    /// The state at `t` seconds.
    public func state(at t: Double) -> TrueAircraftState {
        var state = initial
        let (s, c) = DeterministicMath.sinCos(DeterministicMath.radians(initial.trackDeg))
        let metres = initial.groundSpeedKt * 1852 / 3600 * t
        state.position = initial.position.offset(north: metres * c, east: metres * s)
        let climb = initial.verticalRateFpm / 60 * t
        // Climbs level off at the ceiling and descents at the floor (long recordings).
        let ceiling = max(Self.ceilingFt, initial.altitudeBaroFt)
        state.altitudeBaroFt = min(ceiling, max(floorFt, initial.altitudeBaroFt + climb))
        state.altitudeGeoFt = state.altitudeBaroFt + (initial.altitudeGeoFt - initial.altitudeBaroFt)
        let rate = initial.verticalRateFpm
        if !initial.onGround,
            (state.altitudeBaroFt <= floorFt && rate < 0) || (state.altitudeBaroFt >= ceiling && rate > 0)
        {
            state.verticalRateFpm = 0
        }
        return state
    }
}
