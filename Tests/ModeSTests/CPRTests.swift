import Foundation
import Testing

@testable import ModeS

/// Encodes a position as a CPR frame, written from the specification for the tests only.
func cprEncode(_ latitude: Double, _ longitude: Double, odd: Bool, surface: Bool = false) -> CPRFrame {
    let span = surface ? 90.0 : 360.0
    let i = odd ? 1.0 : 0.0
    let dLat = span / (60 - i)
    func mod(_ a: Double, _ b: Double) -> Double { a - b * (a / b).rounded(.down) }
    let yz = (CPR.scale * mod(latitude, dLat) / dLat + 0.5).rounded(.down)
    let rlat = dLat * (yz / CPR.scale + (latitude / dLat).rounded(.down))
    let dLon = span / Double(max(CPR.nl(rlat) - Int(i), 1))
    let xz = (CPR.scale * mod(longitude, dLon) / dLon + 0.5).rounded(.down)
    return CPRFrame(
        isOdd: odd, isSurface: surface, lat: UInt32(yz.truncatingRemainder(dividingBy: CPR.scale)),
        lon: UInt32(xz.truncatingRemainder(dividingBy: CPR.scale)))
}

@Suite struct CPRTests {
    let even = CPRFrame(isOdd: false, isSurface: false, lat: 93_000, lon: 51_372)
    let odd = CPRFrame(isOdd: true, isSurface: false, lat: 74_158, lon: 50_194)

    @Test func globalAirbornePair() throws {
        let position = try #require(CPR.globalDecode(even: even, odd: odd, useOdd: false))
        #expect(abs(position.latitude - 52.257202) < 1e-5)
        #expect(abs(position.longitude - 3.919373) < 1e-5)
    }

    @Test func localAirborne() throws {
        let position = try #require(CPR.localDecode(even, reference: GeoPoint(latitude: 52.258, longitude: 3.918)))
        #expect(abs(position.latitude - 52.257202) < 1e-5)
        #expect(abs(position.longitude - 3.919373) < 1e-5)
    }

    @Test func surfaceNeedsAReferenceAndPicksTheNearestQuadrant() throws {
        let surface = CPRFrame(isOdd: false, isSurface: true, lat: 115_609, lon: 116_941)
        let position = try #require(CPR.localDecode(surface, reference: GeoPoint(latitude: 51.990, longitude: 4.375)))
        #expect(abs(position.latitude - 52.32304) < 1e-4)
        #expect(abs(position.longitude - 4.73047) < 1e-4)
        // A global surface pair made from a known position, resolved near it.
        let truth = GeoPoint(latitude: -33.9461, longitude: 151.1772)  // southern and eastern
        let e = cprEncode(truth.latitude, truth.longitude, odd: false, surface: true)
        let o = cprEncode(truth.latitude, truth.longitude, odd: true, surface: true)
        #expect(CPR.globalDecode(even: e, odd: o, useOdd: true) == nil)
        let reference = GeoPoint(latitude: -33.9, longitude: 151.2)
        let decoded = try #require(CPR.globalDecode(even: e, odd: o, useOdd: true, reference: reference))
        #expect(abs(decoded.latitude - truth.latitude) < 1e-4)
        #expect(abs(decoded.longitude - truth.longitude) < 1e-4)
    }

    @Test func longitudeZoneCounts() {
        #expect(CPR.nl(0) == 59)
        #expect(CPR.nl(10.47) == 59)
        #expect(CPR.nl(10.48) == 58)
        #expect(CPR.nl(-52.3) == CPR.nl(52.3))
        #expect(CPR.nl(86.9) == 2)
        #expect(CPR.nl(87) == 2)
        #expect(CPR.nl(87.01) == 1)
    }

    @Test(arguments: [
        (0.0, 0.0), (52.2572, 3.9194), (-45.5, -170.25), (10.4705, 179.99), (86.99, -120.0),
        (89.5, 45.0), (-0.0001, -179.9999), (59.95, 10.0)
    ])
    func globalRoundTripEverywhere(latitude: Double, longitude: Double) throws {
        let e = cprEncode(latitude, longitude, odd: false)
        let o = cprEncode(latitude, longitude, odd: true)
        let position = try #require(CPR.globalDecode(even: e, odd: o, useOdd: true))
        #expect(abs(position.latitude - latitude) < 1e-3)
        let dLon = abs(CPR.normalizedLongitude(position.longitude - longitude))
        #expect(dLon < 1e-3 || (abs(latitude) > 87 && dLon < 0.01))
    }

    @Test func pairStraddlingALongitudeZoneBoundaryIsRejected() {
        // NL changes from 59 to 58 at 10.4705°: an even frame just below and an odd frame just
        // above describe an aircraft that crossed the boundary between them.
        let e = cprEncode(10.465, 20, odd: false)
        let o = cprEncode(10.476, 20, odd: true)
        #expect(CPR.globalDecode(even: e, odd: o, useOdd: true) == nil)
        #expect(CPR.globalDecode(even: e, odd: o, useOdd: false) == nil)
    }

    @Test func antimeridianLongitudesAreNormalised() throws {
        let e = cprEncode(-16.5, 179.999, odd: false)
        let o = cprEncode(-16.5, -179.999, odd: true)
        let position = try #require(CPR.globalDecode(even: e, odd: o, useOdd: true))
        #expect(position.longitude >= -180 && position.longitude < 180)
        #expect(abs(position.longitude + 179.999) < 1e-3)
    }
}

@Suite struct PositionResolverTests {
    func positionMessage(_ icao: UInt32, _ frame: CPRFrame) -> Message {
        var message = Message(df: 17, icao: icao, crcOK: true)
        message.cpr = frame
        return message
    }

    @Test func pairsWithinTheTimeWindowResolveAndLaterFramesDecodeLocally() throws {
        var resolver = PositionResolver()
        var first = positionMessage(1, cprEncode(52.0, 4.0, odd: false))
        resolver.resolve(&first, time: 0)
        #expect(first.latitude == nil)
        var second = positionMessage(1, cprEncode(52.001, 4.002, odd: true))
        resolver.resolve(&second, time: 1)
        #expect(abs(try #require(second.latitude) - 52.001) < 1e-4)
        // A lone frame much later: decoded against the last position.
        var third = positionMessage(1, cprEncode(52.05, 4.1, odd: false))
        resolver.resolve(&third, time: 30)
        #expect(abs(try #require(third.longitude) - 4.1) < 1e-4)
    }

    @Test func pairsTooFarApartInTimeAreNotCombined() {
        var resolver = PositionResolver()
        var first = positionMessage(2, cprEncode(40.0, -3.0, odd: false))
        resolver.resolve(&first, time: 0)
        var second = positionMessage(2, cprEncode(40.0, -3.0, odd: true))
        resolver.resolve(&second, time: 11)
        #expect(second.latitude == nil)
    }

    @Test func positionsOutOfRangeOrTooFastAreRejected() throws {
        var resolver = PositionResolver(receiver: GeoPoint(latitude: 52, longitude: 4), maxRangeKm: 300)
        var far1 = positionMessage(3, cprEncode(48.0, 4.0, odd: false))
        resolver.resolve(&far1, time: 0)
        var far2 = positionMessage(3, cprEncode(48.0, 4.0, odd: true))
        resolver.resolve(&far2, time: 1)
        #expect(far2.latitude == nil, "445 km from the receiver")

        var a = positionMessage(4, cprEncode(52.5, 4.0, odd: false))
        resolver.resolve(&a, time: 0)
        var b = positionMessage(4, cprEncode(52.5, 4.0, odd: true))
        resolver.resolve(&b, time: 1)
        #expect(b.latitude != nil)
        // One second later the aircraft would be 100 km away: impossible.
        var c = positionMessage(4, cprEncode(53.4, 4.0, odd: false))
        resolver.resolve(&c, time: 2)
        var d = positionMessage(4, cprEncode(53.4, 4.0, odd: true))
        resolver.resolve(&d, time: 2.5)
        #expect(c.latitude == nil && d.latitude == nil)
    }

    @Test func receiverReferenceIsUsedOnlyWhereUnambiguous() throws {
        let receiver = GeoPoint(latitude: 52, longitude: 4)
        var wide = PositionResolver(receiver: receiver, maxRangeKm: 500)
        var lone = positionMessage(5, cprEncode(52.3, 4.2, odd: false))
        wide.resolve(&lone, time: 0)
        #expect(lone.latitude == nil, "with a 500 km range a lone airborne frame is ambiguous")
        var narrow = PositionResolver(receiver: receiver, maxRangeKm: 250)
        var again = positionMessage(5, cprEncode(52.3, 4.2, odd: false))
        narrow.resolve(&again, time: 0)
        #expect(abs(try #require(again.latitude) - 52.3) < 1e-4)
    }
}
