/// Compact Position Reporting: encodes a latitude/longitude into the 17-bit even or odd
/// CPR values of ADS-B airborne (360° zones) and surface (90° zones) positions, following
/// the ICAO Annex 10 / DO-260B formulas with Nb = 17 and NZ = 15.
package enum CPREncoder {
    /// 2^17: the number of CPR steps in one zone.
    private static let scale = 131_072.0

    /// cos²(latitude) at which the number of longitude zones drops from n to n−1 (index n,
    /// n = 2...59). From NL(lat) = ⌊2π / acos(1 − (1 − cos(π/30)) / cos² lat)⌋, rearranged so
    /// that only a cosine is needed: NL ≥ n ⇔ cos² lat ≥ (1 − cos(π/30)) / (1 − cos(2π/n)).
    private static let thresholds: [Double] = {
        let a = 1 - DeterministicMath.cos(DeterministicMath.pi / 30)
        return (0...59).map { n in n < 2 ? 0 : a / (1 - DeterministicMath.cos(2 * DeterministicMath.pi / Double(n))) }
    }()

    /// The number of longitude zones at `latitude` (degrees), 1...59.
    package static func nl(_ latitude: Double) -> Int {
        let lat = abs(latitude)
        if lat == 0 { return 59 }
        if lat == 87 { return 2 }
        if lat > 87 { return 1 }
        let c = DeterministicMath.cos(DeterministicMath.radians(lat))
        let c2 = c * c
        var n = 59
        while n > 1, c2 < thresholds[n] { n -= 1 }
        return n
    }

    /// x mod y with a non-negative result (the spec's MOD).
    private static func mod(_ x: Double, _ y: Double) -> Double { x - y * (x / y).rounded(.down) }

    /// The 17-bit CPR latitude and longitude of a position, even (`odd` false) or odd.
    package static func encode(
        latitude: Double, longitude: Double, odd: Bool,
        surface: Bool = false
    ) -> (lat: UInt64, lon: UInt64) {
        let i = odd ? 1.0 : 0.0
        let span = surface ? 90.0 : 360.0
        let dLat = span / (60 - i)
        let yz = (scale * mod(latitude, dLat) / dLat + 0.5).rounded(.down)
        let rLat = dLat * (yz / scale + (latitude / dLat).rounded(.down))
        let zones = nl(rLat) - Int(i)
        let dLon = span / Double(max(zones, 1))
        let xz = (scale * mod(longitude, dLon) / dLon + 0.5).rounded(.down)
        let yzBits = UInt64(mod(yz, scale))
        let xzBits = UInt64(mod(xz, scale))
        return (yzBits, xzBits)
    }
}
