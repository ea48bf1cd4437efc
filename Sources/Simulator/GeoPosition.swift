/// A geodetic position (degrees).
public struct GeoPosition: Sendable, Equatable {
    /// Latitude, degrees north.
    public var lat: Double
    /// Longitude, degrees east.
    public var lon: Double

    /// A position from its coordinates.
    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// Mean Earth radius in metres (the spherical model is accurate enough for a few
    /// hundred kilometres of simulated sky).
    public static let earthRadius = 6_371_000.0

    /// The point `north` and `east` metres away on a local tangent plane.
    public func offset(north: Double, east: Double) -> GeoPosition {
        let degreesPerRadian = 180 / DeterministicMath.pi
        let lat2 = lat + north / Self.earthRadius * degreesPerRadian
        let lon2 = lon + east / (Self.earthRadius * DeterministicMath.cos(DeterministicMath.radians(lat))) * degreesPerRadian
        return GeoPosition(lat: lat2, lon: lon2)
    }

    /// Ground distance in metres to `other` (equirectangular: exact enough within 500 km).
    public func distance(to other: GeoPosition) -> Double {
        let meanLat = DeterministicMath.radians((lat + other.lat) / 2)
        let dNorth = DeterministicMath.radians(other.lat - lat) * Self.earthRadius
        let dEast = DeterministicMath.radians(other.lon - lon) * Self.earthRadius * DeterministicMath.cos(meanLat)
        return (dNorth * dNorth + dEast * dEast).squareRoot()
    }
}
