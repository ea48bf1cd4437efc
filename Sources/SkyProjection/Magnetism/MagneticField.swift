#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Earth's main magnetic field at a point, in the local geodetic frame the compass and
/// the radar share: north along the meridian, east, and down along the ellipsoid normal.
package struct MagneticField: Sendable, Equatable {
    /// Northward component X, nT.
    package var north: Double
    /// Eastward component Y, nT.
    package var east: Double
    /// Downward component Z, nT.
    package var down: Double

    /// A field from its components in nT.
    package init(north: Double, east: Double, down: Double) {
        self.north = north
        self.east = east
        self.down = down
    }

    /// Horizontal intensity H, nT: what turns a compass needle.
    package var horizontal: Double { (north * north + east * east).squareRoot() }

    /// Total intensity F, nT.
    package var total: Double { (north * north + east * east + down * down).squareRoot() }

    /// Declination D, degrees in [−180, 180]: the angle from true north to magnetic north,
    /// east positive. So a compass's magnetic heading plus D is the true heading. Where the
    /// horizontal field vanishes (nowhere on the real Earth's surface) it is 0, not NaN.
    package var declinationDeg: Double { atan2(east, north) * 180 / .pi }

    /// Inclination I, degrees: how far below the horizontal the field dips (down positive).
    package var inclinationDeg: Double { atan2(down, horizontal) * 180 / .pi }
}
