import ModeS
import Testing

@testable import Simulator

/// CPR encoding, checked by an independent local decode and by the zone count's known values.
@Suite struct CPREncoderTests {
    @Test func zoneCountKnownValues() {
        #expect(CPREncoder.nl(0) == 59)
        #expect(CPREncoder.nl(10.4) == 59)
        #expect(CPREncoder.nl(10.5) == 58)
        #expect(CPREncoder.nl(52.2572) == 36)
        #expect(CPREncoder.nl(-52.2572) == 36)
        #expect(CPREncoder.nl(86.9) == 2)
        #expect(CPREncoder.nl(87.5) == 1)
    }

    /// Local decoding relative to a nearby reference (the receiver's position), per the spec.
    static func decodeLocal(
        _ cpr: (lat: UInt64, lon: UInt64), odd: Bool, surface: Bool,
        reference: GeoPoint
    ) -> GeoPoint {
        let span = surface ? 90.0 : 360.0
        let i = odd ? 1.0 : 0.0
        let dLat = span / (60 - i)
        let yz = Double(cpr.lat) / 131_072
        let xz = Double(cpr.lon) / 131_072
        let j =
            (reference.latitude / dLat).rounded(.down)
            + ((reference.latitude - dLat * (reference.latitude / dLat).rounded(.down)) / dLat - yz + 0.5).rounded(
                .down)
        let lat = dLat * (j + yz)
        let zones = max(CPREncoder.nl(lat) - Int(i), 1)
        let dLon = span / Double(zones)
        let m =
            (reference.longitude / dLon).rounded(.down)
            + ((reference.longitude - dLon * (reference.longitude / dLon).rounded(.down)) / dLon - xz + 0.5).rounded(
                .down)
        return GeoPoint(latitude: lat, longitude: dLon * (m + xz))
    }

    @Test func localDecodeRecoversPositions() {
        var g = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let truth = GeoPoint(latitude: g.uniform(-80, 80), longitude: g.uniform(-180, 180))
            let reference = truth.offset(north: g.uniform(-100_000, 100_000), east: g.uniform(-100_000, 100_000))
            for odd in [false, true] {
                let airborne = CPREncoder.encode(latitude: truth.latitude, longitude: truth.longitude, odd: odd)
                let decoded = Self.decodeLocal(airborne, odd: odd, surface: false, reference: reference)
                #expect(decoded.distance(to: truth) < 10, "\(truth) odd \(odd)")
                // Surface zones are 4 times smaller: stay within 20 km of the reference.
                let near = truth.offset(north: g.uniform(-20_000, 20_000), east: g.uniform(-20_000, 20_000))
                let surface = CPREncoder.encode(
                    latitude: truth.latitude, longitude: truth.longitude, odd: odd, surface: true)
                let decodedSurface = Self.decodeLocal(surface, odd: odd, surface: true, reference: near)
                #expect(decodedSurface.distance(to: truth) < 3, "\(truth) surface odd \(odd)")
            }
        }
    }
}
