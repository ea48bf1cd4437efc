#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in geocentric spherical coordinates: distance from the Earth's centre, the angle
/// above the equatorial plane seen from the centre, and longitude. Magnetic models are
/// spherical-harmonic expansions about the centre, so they are evaluated here, not at the
/// geodetic latitude a receiver or a phone reports.
///
/// Geodetic and geocentric latitude differ by up to 0.19° (at 45°), because the WGS-84
/// ellipsoid's normal does not pass through the centre; the field found in the geocentric
/// frame is turned back by that angle (`MagneticModel`).
package struct GeocentricPosition: Sendable, Equatable {
    /// Distance from the Earth's centre, km.
    package var radiusKm: Double
    /// sin of the geocentric latitude: cos θ of the colatitude θ.
    package var sinLatitude: Double
    /// cos of the geocentric latitude (≥ 0): sin θ, exactly 0 at a pole.
    package var cosLatitude: Double
    /// Geocentric latitude minus geodetic latitude, radians (negative in the north): the
    /// angle the field's north and down components are turned by.
    package var latitudeOffset: Double
    /// Longitude, radians.
    package var longitude: Double

    /// The geocentric position of a point at geodetic `latitude` and `longitude` (degrees,
    /// latitude clamped into [−90, 90]) and `heightMetres` above the WGS-84 ellipsoid.
    package init(latitude: Double, longitude: Double, heightMetres: Double) {
        let latitude = min(90, max(-90, latitude))
        // Through Earth-centred coordinates: the distance from the axis p and the height
        // above the equator z give both the radius and the geocentric latitude exactly.
        let point = Geodesy.ecef(latitude: latitude, longitude: 0, height: heightMetres)
        let axial = abs(latitude) == 90 ? 0 : point.x
        let radius = (axial * axial + point.z * point.z).squareRoot()
        radiusKm = radius / 1000
        // At a pole the distance from the axis is set to exactly 0 above, so the colatitude's
        // sine is exactly 0 (cos(90°) in floating point is 6e-17, not 0).
        sinLatitude = point.z / radius
        cosLatitude = axial / radius
        latitudeOffset = atan2(point.z, axial) - latitude * .pi / 180
        self.longitude = longitude * .pi / 180
    }
}
