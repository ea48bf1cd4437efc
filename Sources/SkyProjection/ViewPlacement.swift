import FeedProtocol
import FoundationEssentials
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a client's view places the aircraft of a scene: which it shows, where on the radar,
/// and which way their icons point.
extension RadarView {
    /// Whether `aircraft` passes the filters. Aircraft of unknown altitude fail any altitude
    /// filter (they cannot be shown to pass it); distances apply only when known.
    package func includes(_ aircraft: SceneAircraft) -> Bool {
        let state = aircraft.state
        if hideOnGround, state.onGround == true { return false }
        if minAltitudeFt != nil || maxAltitudeFt != nil {
            // Filters are in the altitude pilots and charts use: barometric first.
            guard let altitude = state.altitudeBaroFt ?? state.altitudeGeoFt else { return false }
            if let low = minAltitudeFt, Double(altitude) < low { return false }
            if let high = maxAltitudeFt, Double(altitude) > high { return false }
        }
        if let sky = aircraft.sky {
            if sky.groundKm > rangeKm { return false }
            if let distance = maxDistanceKm, sky.groundKm > distance { return false }
        }
        return true
    }

    /// Where `sky` lands on this radar: bearing relative to the heading, and x, y as fractions
    /// of the radius with up being the heading (x to the right).
    package func place(_ sky: SkyPlacement) -> RadarPlacement {
        let bearing = Geodesy.normalizedDegrees(sky.azimuthDeg - headingDeg)
        let r = sky.groundKm / rangeKm
        let radians = bearing * .pi / 180
        return RadarPlacement(bearingDeg: bearing, x: r * sin(radians), y: r * cos(radians))
    }

    /// Which way an aircraft's icon points on this radar: its track relative to the heading.
    package func rotation(trackDeg: Double?) -> Double? {
        trackDeg.map { Geodesy.normalizedDegrees($0 - headingDeg) }
    }
}

/// Where an aircraft is drawn on one client's radar.
package struct RadarPlacement: Sendable, Equatable {
    /// Direction relative to where the device points, degrees clockwise, in [0, 360).
    package var bearingDeg: Double
    /// Rightwards, as a fraction of the radar's radius.
    package var x: Double
    /// Upwards (towards the heading), as a fraction of the radar's radius.
    package var y: Double
}
