import FeedProtocol
import FoundationEssentials
import ModeS
import Tracking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where one aircraft is in the observer's sky, independent of which way the device points:
/// the part of the projection that all clients share.
package struct SkyPlacement: Sendable, Equatable {
    /// Direction from the observer, degrees clockwise from true north, in [0, 360).
    package var azimuthDeg: Double
    /// Angle above the observer's horizon in degrees (negative below it); nil when the
    /// aircraft's height is unknown.
    package var elevationDeg: Double?
    /// Straight-line distance in kilometres; nil when the aircraft's height is unknown.
    package var slantKm: Double?
    /// Distance along the Earth's surface in kilometres.
    package var groundKm: Double
}

/// Projects positions into one observer's sky: geodetic -> ECEF -> the observer's local
/// east-north-up frame, from which azimuth, elevation and slant range follow exactly.
///
/// The observer's ECEF position and frame are computed once, so projecting a frame's worth of
/// aircraft costs a few trigonometric calls each.
package struct SkyProjection: Sendable {
    /// The observer everything is projected for.
    package let observer: Observer
    private let origin: ECEFPoint

    /// A projection for `observer`.
    package init(observer: Observer) {
        self.observer = observer
        origin = Geodesy.ecef(
            latitude: observer.latitude, longitude: observer.longitude,
            height: observer.altitudeMetres)
    }

    /// Where a point at `latitude`, `longitude` (degrees) is, and, when its height in metres
    /// is known, how high and how far in a straight line.
    package func place(latitude: Double, longitude: Double, heightMetres: Double?) -> SkyPlacement {
        // Without a height the direction is still well defined: take the point on the
        // ellipsoid for the azimuth, and leave elevation and slant range unknown.
        let target = Geodesy.ecef(latitude: latitude, longitude: longitude, height: heightMetres ?? 0)
        let enu = Geodesy.enu(
            of: target, from: origin,
            latitude: observer.latitude, longitude: observer.longitude)
        let horizontal = enu.horizontalLength
        // Straight overhead the azimuth is undefined, and a horizontal offset under a
        // millimetre is rounding noise in the ECEF differences: report north.
        let azimuth = horizontal < 0.001 ? 0 : Geodesy.normalizedDegrees(atan2(enu.east, enu.north) * 180 / .pi)
        let ground =
            Geodesy.surfaceDistance(
                latitude1: observer.latitude, longitude1: observer.longitude,
                latitude2: latitude, longitude2: longitude) / 1000
        guard heightMetres != nil else {
            return SkyPlacement(azimuthDeg: azimuth, elevationDeg: nil, slantKm: nil, groundKm: ground)
        }
        let elevation = atan2(enu.up, horizontal) * 180 / .pi
        return SkyPlacement(
            azimuthDeg: azimuth, elevationDeg: elevation,
            slantKm: enu.length / 1000, groundKm: ground)
    }

    /// Where an aircraft is, using its geometric height if known, else its barometric one;
    /// nil when it has no position.
    package func place(_ aircraft: AircraftState) -> SkyPlacement? {
        guard let position = aircraft.position else { return nil }
        return place(
            latitude: position.latitude, longitude: position.longitude,
            heightMetres: AircraftHeight.metres(of: aircraft))
    }
}

/// Which height the radar uses for an aircraft.
package enum AircraftHeight {
    /// Metres per foot.
    package static let metresPerFoot = 0.3048

    /// The aircraft's height in metres: geometric (GNSS) if known, else barometric, since the
    /// geometric height is the true one and pressure altitude can be off by hundreds of feet
    /// in unusual weather; nil when neither is known.
    package static func metres(of aircraft: AircraftState) -> Double? {
        if let geo = aircraft.altitudeGeoFt { return Double(geo) * metresPerFoot }
        if let baro = aircraft.altitudeBaroFt { return Double(baro) * metresPerFoot }
        return nil
    }
}
