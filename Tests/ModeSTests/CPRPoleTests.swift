import TestSupport
import Testing

@testable import ModeS

/// Positions near the poles and the antimeridian: every decoded position is on the Earth
/// (|latitude| ≤ 90, longitude in [−180, 180)) or there is none.
@Suite struct CPRPoleTests {
    static func isOnEarth(_ point: GeoPoint?) -> Bool {
        guard let point else { return true }
        return point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90
            && point.longitude >= -180 && point.longitude < 180
    }

    static let poleReferences = [
        GeoPoint(latitude: -89.9, longitude: 179.99), GeoPoint(latitude: -90, longitude: 0),
        GeoPoint(latitude: -89.99, longitude: -180), GeoPoint(latitude: 89.9, longitude: 179.99),
        GeoPoint(latitude: 90, longitude: -179.999), GeoPoint(latitude: 89.7, longitude: 0.5)
    ]

    @Test(arguments: CPRPoleTests.poleReferences)
    func localDecodingNearAPoleNeverLeavesTheEarth(reference: GeoPoint) {
        var offEarth: [String] = []
        for surface in [false, true] {
            for odd in [false, true] {
                for lat in stride(from: UInt32(0), to: 131_072, by: 61) {
                    for lon: UInt32 in [0, 1, 65_536, 131_071] {
                        let frame = CPRFrame(isOdd: odd, isSurface: surface, lat: lat, lon: lon)
                        let position = CPR.localDecode(frame, reference: reference)
                        if !Self.isOnEarth(position), offEarth.count < 5 { offEarth.append("\(frame) -> \(position!)") }
                    }
                }
            }
        }
        #expect(offEarth.isEmpty, "\(offEarth)")
    }

    @Test(arguments: [
        (-89.95, 100.0), (-89.5, -179.99), (-88.2, 179.999), (89.95, -60.0), (89.2, 179.5), (87.5, -179.9)
    ])
    func positionsNearThePolesStillDecodeLocally(latitude: Double, longitude: Double) throws {
        let reference = GeoPoint(latitude: latitude > 0 ? 89.9 : -89.9, longitude: 179.99)
        for odd in [false, true] {
            let position = try #require(CPR.localDecode(cprEncode(latitude, longitude, odd: odd), reference: reference))
            #expect(abs(position.latitude - latitude) < 1e-3)
            #expect(CPR.distanceKm(position, GeoPoint(latitude: latitude, longitude: longitude)) < 1)
        }
    }

    @Test(.computeBound) func aBruteForceSweepOfReferencesAndFramesStaysOnTheEarth() {
        var generator = SplitMix(state: 14)
        var latitudes = stride(from: -90.0, through: 90.0, by: 0.37).map { $0 }
        latitudes += [-90, -89.999_999, -89.9, -87.000_1, 86.999, 87, 89.9, 89.999_999, 90]
        let longitudes = [-180, -179.999_999, -90.5, 0, 0.001, 90.25, 179.5, 179.999_999]
        var failures: [String] = []
        for latitude in latitudes {
            for longitude in longitudes {
                let reference = GeoPoint(latitude: latitude, longitude: longitude)
                for _ in 0..<24 {
                    let frame = CPRFrame(
                        isOdd: Bool.random(using: &generator), isSurface: Bool.random(using: &generator),
                        lat: UInt32.random(in: 0..<131_072, using: &generator),
                        lon: UInt32.random(in: 0..<131_072, using: &generator))
                    let local = CPR.localDecode(frame, reference: reference)
                    if !Self.isOnEarth(local), failures.count < 5 {
                        failures.append("local \(frame) at \(reference) -> \(local!)")
                    }
                    var other = CPRFrame(
                        isOdd: !frame.isOdd, isSurface: frame.isSurface,
                        lat: UInt32.random(in: 0..<131_072, using: &generator),
                        lon: UInt32.random(in: 0..<131_072, using: &generator))
                    if Bool.random(using: &generator) { other.lat = frame.lat }
                    let (even, odd) = frame.isOdd ? (other, frame) : (frame, other)
                    let global = CPR.globalDecode(even: even, odd: odd, useOdd: frame.isOdd, reference: reference)
                    if !Self.isOnEarth(global), failures.count < 5 {
                        failures.append("global \(even) \(odd) -> \(global!)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func theResolverNearAPoleGivesOnlyPositionsOnTheEarth() {
        var generator = SplitMix(state: 90)
        for receiver in [GeoPoint(latitude: -89.9, longitude: 179.99), GeoPoint(latitude: 89.9, longitude: -179.99)] {
            // A range within half a zone lets lone frames decode against the receiver.
            var resolver = PositionResolver(receiver: receiver, maxRangeKm: 300)
            var resolved = 0
            for index in 0..<20_000 {
                var message = Message(df: 17, icao: UInt32(index % 97) + 1, crcOK: true)
                message.cpr = CPRFrame(
                    isOdd: index % 2 == 1, isSurface: index % 5 == 0,
                    lat: UInt32.random(in: 0..<131_072, using: &generator),
                    lon: UInt32.random(in: 0..<131_072, using: &generator))
                resolver.resolve(&message, time: Double(index) * 0.05)
                guard let latitude = message.latitude, let longitude = message.longitude else { continue }
                resolved += 1
                #expect(Self.isOnEarth(GeoPoint(latitude: latitude, longitude: longitude)), "\(latitude), \(longitude)")
                if !Self.isOnEarth(GeoPoint(latitude: latitude, longitude: longitude)) { return }
            }
            #expect(resolved > 0, "some frames resolve near \(receiver)")
        }
    }
}
