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
    package func includes(_ aircraft: FeedAircraft) -> Bool {
        if hideOnGround, aircraft.onGround == true { return false }
        if minAltitudeFt != nil || maxAltitudeFt != nil {
            // Filters are in the altitude pilots and charts use: barometric first.
            guard let altitude = aircraft.altitudeFt else { return false }
            if let low = minAltitudeFt, altitude < low { return false }
            if let high = maxAltitudeFt, altitude > high { return false }
        }
        if let groundKm = aircraft.groundKm {
            if groundKm > rangeKm { return false }
            if let distance = maxDistanceKm, groundKm > distance { return false }
        }
        return true
    }

    /// `aircraft`, placed in the sky already, as this radar shows it: its bearing and x, y
    /// (unknown without a place in the sky) and the rotation of its icon.
    package func show(_ aircraft: FeedAircraft) -> FeedAircraft {
        var shown = aircraft
        if let azimuthDeg = aircraft.azimuthDeg, let groundKm = aircraft.groundKm {
            let radar = place(azimuthDeg: azimuthDeg, groundKm: groundKm)
            shown.bearingDeg = radar.bearingDeg
            shown.x = radar.x
            shown.y = radar.y
        }
        shown.rotationDeg = rotation(trackDeg: aircraft.trackDeg)
        return shown
    }

    /// Where `sky` lands on this radar: bearing relative to the heading, and x, y as fractions
    /// of the radius with up being the heading (x to the right).
    package func place(_ sky: SkyPlacement) -> RadarPlacement {
        place(azimuthDeg: sky.azimuthDeg, groundKm: sky.groundKm)
    }

    /// Where a point at `azimuthDeg` and `groundKm` from the observer lands on this radar.
    private func place(azimuthDeg: Double, groundKm: Double) -> RadarPlacement {
        let bearing = Geodesy.normalizedDegrees(azimuthDeg - headingDeg)
        let r = groundKm / rangeKm
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
