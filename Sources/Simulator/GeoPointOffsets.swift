import ModeS

extension GeoPoint {
    /// Mean Earth radius in metres (the spherical model is accurate enough for a few hundred
    /// kilometres of simulated sky).
    package static let earthRadius = 6_371_000.0

    /// The point `north` and `east` metres away on a local tangent plane, computed with the
    /// simulator's own deterministic maths so recordings are bit-identical everywhere.
    package func offset(north: Double, east: Double) -> GeoPoint {
        let degreesPerRadian = 180 / DeterministicMath.pi
        let lat2 = latitude + north / Self.earthRadius * degreesPerRadian
        let lon2 =
            longitude
            + east / (Self.earthRadius * DeterministicMath.cos(DeterministicMath.radians(latitude))) * degreesPerRadian
        return GeoPoint(latitude: lat2, longitude: lon2)
    }

    /// Ground distance in metres to `other` (equirectangular: exact enough within 500 km).
    package func distance(to other: GeoPoint) -> Double {
        let meanLat = DeterministicMath.radians((latitude + other.latitude) / 2)
        let dNorth = DeterministicMath.radians(other.latitude - latitude) * Self.earthRadius
        let dEast =
            DeterministicMath.radians(other.longitude - longitude) * Self.earthRadius * DeterministicMath.cos(meanLat)
        return (dNorth * dNorth + dEast * dEast).squareRoot()
    }
}
