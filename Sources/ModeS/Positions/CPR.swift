import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The raw Compact Position Reporting fields of one position message.
public struct CPRFrame: Sendable, Equatable {
    /// True for an odd frame (F bit set), false for even.
    public var isOdd: Bool
    /// True for a surface position (type codes 5–8), whose zones are a quarter the size.
    public var isSurface: Bool
    /// Encoded latitude, 17 bits.
    public var lat: UInt32
    /// Encoded longitude, 17 bits.
    public var lon: UInt32

    /// A frame from its parts.
    public init(isOdd: Bool, isSurface: Bool, lat: UInt32, lon: UInt32) {
        self.isOdd = isOdd
        self.isSurface = isSurface
        self.lat = lat
        self.lon = lon
    }
}

/// A latitude/longitude pair in degrees.
public struct GeoPoint: Sendable, Equatable {
    /// Latitude in degrees, north positive.
    public var latitude: Double
    /// Longitude in degrees in [−180, 180), east positive.
    public var longitude: Double

    /// A point from its coordinates.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Compact Position Reporting: the 17-bit latitude/longitude encoding of ADS-B.
///
/// The globe is cut into 60 latitude zones for even frames and 59 for odd ones; each frame
/// carries only the position within its zone. An even/odd pair fixes the zone ("global"
/// decoding); a single frame can be placed relative to a reference position known to be
/// within half a zone ("local" decoding). Longitude zones shrink towards the poles: their
/// number at a latitude is NL(lat), read from a table of transition latitudes.
public enum CPR {
    /// 2^17, the scale of the encoded fractions.
    public static let scale = 131_072.0
    /// Number of latitude zones between the equator and a pole (per quarter of meridian).
    public static let nz = 15

    /// Latitudes (ascending) at which NL drops by one: NL(lat) = 59 − (number of these ≤ |lat|)
    /// for |lat| below 87°, computed once from the closed form of the specification.
    private static let transitions: [Double] = (2...59).reversed().map { nl in
        let a = 1 - cos(Double.pi / (2 * Double(nz)))
        let b = 1 - cos(2 * Double.pi / Double(nl))
        return acos((a / b).squareRoot()) * 180 / Double.pi
    }

    /// The number of longitude zones at `latitude`: 59 at the equator down to 1 at the poles.
    public static func nl(_ latitude: Double) -> Int {
        let lat = abs(latitude)
        if lat >= 87 { return lat > 87 ? 1 : 2 }
        var zones = 59
        for boundary in transitions where lat >= boundary { zones -= 1 }
        return zones
    }

    /// Global decode from an even and an odd frame of the same kind (both airborne or both
    /// surface), taking the position of whichever is newer (`useOdd`). Returns nil when the
    /// two frames straddle a longitude-zone boundary (they cannot be paired) or are invalid.
    ///
    /// Surface frames leave a fourfold ambiguity (zones are 90° wide): `reference` picks the
    /// solution nearest to it and is required for them. Every result has |latitude| ≤ 90 and
    /// a longitude in [−180, 180).
    public static func globalDecode(
        even: CPRFrame, odd: CPRFrame, useOdd: Bool,
        reference: GeoPoint? = nil
    ) -> GeoPoint? {
        guard even.isSurface == odd.isSurface else { return nil }
        let surface = even.isSurface
        if surface && reference == nil { return nil }
        let span = surface ? 90.0 : 360.0
        let latEven = Double(even.lat) / scale
        let latOdd = Double(odd.lat) / scale
        let lonEven = Double(even.lon) / scale
        let lonOdd = Double(odd.lon) / scale
        let dLatEven = span / 60
        let dLatOdd = span / 59

        // Latitude zone index from the difference of the two fractions.
        let j = (59 * latEven - 60 * latOdd + 0.5).rounded(.down)
        var rlatEven = dLatEven * (positiveModulo(j, 60) + latEven)
        var rlatOdd = dLatOdd * (positiveModulo(j, 59) + latOdd)
        if surface {
            // Surface latitudes come out in [0, 90): pick the hemisphere nearest the reference.
            let refLat = reference!.latitude
            rlatEven = nearest(rlatEven, candidates: [rlatEven, rlatEven - 90], to: refLat)
            rlatOdd = nearest(rlatOdd, candidates: [rlatOdd, rlatOdd - 90], to: refLat)
        } else {
            if rlatEven >= 270 { rlatEven -= 360 }
            if rlatOdd >= 270 { rlatOdd -= 360 }
        }
        // A latitude past a pole is not a position: the pair is inconsistent.
        guard abs(rlatEven) <= 90, abs(rlatOdd) <= 90 else { return nil }
        // Both frames must fall in the same longitude zone count, or the pair is inconsistent.
        guard nl(rlatEven) == nl(rlatOdd) else { return nil }

        let latitude = useOdd ? rlatOdd : rlatEven
        let zones = nl(latitude)
        let ni = max(zones - (useOdd ? 1 : 0), 1)
        let m = (lonEven * Double(zones - 1) - lonOdd * Double(zones) + 0.5).rounded(.down)
        let fraction = useOdd ? lonOdd : lonEven
        var longitude = (span / Double(ni)) * (positiveModulo(m, Double(ni)) + fraction)
        if surface {
            let refLon = reference!.longitude
            let candidates = (0..<4).map { normalizedLongitude(longitude + Double($0) * 90) }
            longitude = candidates.min { angularDistance($0, refLon) < angularDistance($1, refLon) }!
        } else {
            longitude = normalizedLongitude(longitude)
        }
        guard longitude.isFinite, latitude.isFinite else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// Local decode of one frame relative to `reference`, which must lie within half a zone
    /// of the true position (about 180 NM airborne, 45 NM on the surface) for the answer to
    /// be right; callers check that bound.
    ///
    /// Nil when the zone nearest the reference would put the frame beyond a pole: near a pole
    /// the formula's nearest zone can lie past ±90°, which no transmitted position encodes
    /// (zones do not wrap over the pole), so such a frame is not within half a zone of the
    /// reference and has no answer. Every result has |latitude| ≤ 90 and a longitude in
    /// [−180, 180).
    public static func localDecode(_ frame: CPRFrame, reference: GeoPoint) -> GeoPoint? {
        let span = frame.isSurface ? 90.0 : 360.0
        let odd = frame.isOdd ? 1 : 0
        let lat = Double(frame.lat) / scale
        let lon = Double(frame.lon) / scale
        let dLat = span / Double(60 - odd)
        let refLat = reference.latitude
        let refLon = reference.longitude
        let j =
            (refLat / dLat).rounded(.down)
            + (0.5 + positiveModulo(refLat, dLat) / dLat - lat).rounded(.down)
        let latitude = dLat * (j + lat)
        guard latitude.isFinite, abs(latitude) <= 90 else { return nil }
        let ni = max(nl(latitude) - odd, 1)
        let dLon = span / Double(ni)
        let m =
            (refLon / dLon).rounded(.down)
            + (0.5 + positiveModulo(refLon, dLon) / dLon - lon).rounded(.down)
        let longitude = normalizedLongitude(dLon * (m + lon))
        guard longitude.isFinite else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// Great-circle distance in kilometres (spherical Earth, good to 0.5% for range checks).
    public static func distanceKm(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0088 * asin(min(1, h.squareRoot()))
    }

    /// `value` modulo `modulus`, always in [0, modulus).
    static func positiveModulo(_ value: Double, _ modulus: Double) -> Double {
        let r = value.truncatingRemainder(dividingBy: modulus)
        return r < 0 ? r + modulus : r
    }

    /// Longitude folded into [−180, 180).
    static func normalizedLongitude(_ longitude: Double) -> Double {
        var l = positiveModulo(longitude + 180, 360) - 180
        if l >= 180 { l -= 360 }
        return l
    }

    private static func angularDistance(_ a: Double, _ b: Double) -> Double {
        let d = abs(normalizedLongitude(a - b))
        return d
    }

    private static func nearest(_ value: Double, candidates: [Double], to target: Double) -> Double {
        candidates.min { abs($0 - target) < abs($1 - target) } ?? value
    }
}
