/// What an aircraft is doing over the recording.
package enum FlightPhase: String, Sendable, CaseIterable {
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
package struct AircraftTrack: Sendable {
    /// The 24-bit ICAO address.
    package var icao: UInt32
    /// Flight identification, up to 8 characters.
    package var callsign: String
    /// Emitter category, e.g. "A3".
    package var category: String
    /// Mode A code, four octal digits.
    package var squawk: String
    /// The phase of flight.
    package var phase: FlightPhase
    /// State at t = 0.
    package var initial: TrueAircraftState
    /// Lowest altitude the aircraft reaches (ground elevation), feet.
    package var floorFt: Double
    /// Reports GNSS height positions (type codes 20–22) instead of barometric ones.
    package var gnssPositionsOnly: Bool
    /// Reports airspeed and heading (velocity subtype 3) instead of ground velocity.
    package var reportsAirspeed: Bool
    /// Answers Gillham-coded altitude in DF4 (an older transponder).
    package var gillhamAltitude: Bool
    /// Carrier offset of this transponder from 1090 MHz, Hz.
    package var frequencyOffsetHz: Double
    /// Per-aircraft signal spread (antenna, transmitter power, installation), dB.
    package var levelOffsetDb: Double

    /// The highest level a climb reaches, feet.
    package static let ceilingFt = 41_000.0

    /// The state at `t` seconds.
    package func state(at t: Double) -> TrueAircraftState {
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
