import FoundationEssentials
import ModeS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in Earth-centred, Earth-fixed coordinates, in metres.
package struct ECEFPoint: Sendable, Equatable {
    /// Towards latitude 0, longitude 0.
    package var x: Double
    /// Towards latitude 0, longitude 90° E.
    package var y: Double
    /// Towards the north pole.
    package var z: Double

    /// A point from its coordinates in metres.
    package init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// A vector in the local east-north-up frame of an observer, in metres.
package struct ENUVector: Sendable, Equatable {
    /// Metres east.
    package var east: Double
    /// Metres north.
    package var north: Double
    /// Metres up, along the ellipsoid normal at the observer.
    package var up: Double

    /// A vector from its components in metres.
    package init(east: Double, north: Double, up: Double) {
        self.east = east
        self.north = north
        self.up = up
    }

    /// Straight-line length in metres.
    package var length: Double { (east * east + north * north + up * up).squareRoot() }
    /// Length of the horizontal part in metres.
    package var horizontalLength: Double { (east * east + north * north).squareRoot() }
}

/// The WGS-84 ellipsoid and the conversions the radar needs: geodetic to ECEF, ECEF to a local
/// east-north-up frame, and the distance along the surface.
///
/// Positions are placed on the ellipsoid rather than compared as flat latitude/longitude
/// differences: a degree of longitude shrinks with latitude and the Earth curves away, so flat
/// differences put aircraft tens of kilometres off at radar ranges.
package enum Geodesy {
    /// Semi-major axis in metres (WGS-84).
    package static let semiMajorAxis = 6_378_137.0
    /// Flattening (WGS-84).
    package static let flattening = 1 / 298.257223563
    /// Semi-minor axis in metres.
    package static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    /// First eccentricity squared.
    package static let eccentricitySquared = flattening * (2 - flattening)

    /// ECEF coordinates of a point at `latitude`, `longitude` (degrees) and `height` metres
    /// above the ellipsoid.
    package static func ecef(latitude: Double, longitude: Double, height: Double) -> ECEFPoint {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let sinPhi = sin(phi)
        let cosPhi = cos(phi)
        // Prime vertical radius of curvature at this latitude.
        let n = semiMajorAxis / (1 - eccentricitySquared * sinPhi * sinPhi).squareRoot()
        return ECEFPoint(
            x: (n + height) * cosPhi * cos(lambda),
            y: (n + height) * cosPhi * sin(lambda),
            z: (n * (1 - eccentricitySquared) + height) * sinPhi)
    }

    /// The vector from the observer at `latitude`, `longitude` (degrees), whose ECEF position is
    /// `origin`, to `target`, expressed in the observer's east-north-up frame.
    package static func enu(
        of target: ECEFPoint, from origin: ECEFPoint,
        latitude: Double, longitude: Double
    ) -> ENUVector {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let sinPhi = sin(phi)
        let cosPhi = cos(phi)
        let sinLambda = sin(lambda)
        let cosLambda = cos(lambda)
        let dx = target.x - origin.x
        let dy = target.y - origin.y
        let dz = target.z - origin.z
        return ENUVector(
            east: -sinLambda * dx + cosLambda * dy,
            north: -sinPhi * cosLambda * dx - sinPhi * sinLambda * dy + cosPhi * dz,
            up: cosPhi * cosLambda * dx + cosPhi * sinLambda * dy + sinPhi * dz)
    }

    /// Distance in metres along the ellipsoid between two points given in degrees (the
    /// geodesic, by Vincenty's inverse iteration).
    ///
    /// Vincenty's method is accurate to well under a millimetre; it can fail to converge only
    /// for nearly antipodal points, far beyond any receiver's range, where the great-circle
    /// distance on a sphere of the mean radius is returned instead.
    package static func surfaceDistance(
        latitude1: Double, longitude1: Double,
        latitude2: Double, longitude2: Double
    ) -> Double {
        let a = semiMajorAxis
        let b = semiMinorAxis
        let f = flattening
        var l = (longitude2 - longitude1) * .pi / 180
        // Take the short way round, across the antimeridian if need be.
        l = remainder(l, 2 * .pi)
        let u1 = atan((1 - f) * tan(latitude1 * .pi / 180))
        let u2 = atan((1 - f) * tan(latitude2 * .pi / 180))
        let sinU1 = sin(u1)
        let cosU1 = cos(u1)
        let sinU2 = sin(u2)
        let cosU2 = cos(u2)

        var lambda = l
        for _ in 0..<200 {
            let sinLambda = sin(lambda)
            let cosLambda = cos(lambda)
            let sinSigma =
                ((cosU2 * sinLambda) * (cosU2 * sinLambda)
                + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) * (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda))
                .squareRoot()
            if sinSigma == 0 { return 0 }  // the same point
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cosSqAlpha = 1 - sinAlpha * sinAlpha
            // On the equator cos²α is 0 and the term vanishes.
            let cos2SigmaM = cosSqAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha
            let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let previous = lambda
            lambda =
                l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
                let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
                let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
                let deltaSigma =
                    bigB * sinSigma
                    * (cos2SigmaM + bigB / 4
                        * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                            - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma)
                            * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
                return b * bigA * (sigma - deltaSigma)
            }
        }
        // The ellipsoidal iteration did not converge (nearly antipodal points): the
        // great-circle distance on a sphere of the mean radius is within 0.5% there.
        return CPR.distanceKm(
            GeoPoint(latitude: latitude1, longitude: longitude1),
            GeoPoint(latitude: latitude2, longitude: longitude2)) * 1000
    }

    /// `degrees` brought into [0, 360).
    package static func normalizedDegrees(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        let positive = r < 0 ? r + 360 : r
        return positive >= 360 ? 0 : positive
    }
}
