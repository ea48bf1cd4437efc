import ModeS
import Testing

@testable import Simulator

/// The encoders reproduce real messages bit for bit from their decoded contents.
@Suite struct KnownMessageTests {
    @Test func identificationMatchesRealMessage() {
        let bits = ExtendedSquitterEncoder.identification(icao: 0x406B90, callsign: "EZY85MH", category: "A0")
        #expect(bits.hex == "8D406B902015A678D4D220AA4BDA")
    }

    @Test func airbornePositionMatchesRealEvenAndOddFrames() {
        // The classic pair decodes to 52.25720°N 3.91937°E at 38000 ft; these coordinates are
        // exactly representable on the CPR grid, so the encoding must give the same bits.
        let lat = 52.2572021484375
        let lon = 3.91937255859375
        let even = ExtendedSquitterEncoder.airbornePosition(
            icao: 0x40621D, latitude: lat, longitude: lon,
            odd: false, altitudeFt: 38000)
        #expect(even.hex == "8D40621D58C382D690C8AC2863A7")
        let odd = ExtendedSquitterEncoder.airbornePosition(
            icao: 0x40621D, latitude: lat, longitude: lon,
            odd: true, altitudeFt: 38000)
        // The real odd frame was sent a moment earlier, from a slightly different position;
        // ours must carry the odd flag and decode back to the position it was made from.
        #expect(odd.bit(54) == 1)
        let decoded = CPREncoderTests.decodeLocal(
            (odd.field(55, 71), odd.field(72, 88)), odd: true,
            surface: false, reference: GeoPoint(latitude: 52.3, longitude: 3.9))
        #expect(decoded.distance(to: GeoPoint(latitude: lat, longitude: lon)) < 10)
    }

    @Test func velocityMatchesRealComponents() {
        // 8D485020994409940838175B284F: 8 kt west, 159 kt south, 832 ft/min down (GNSS source),
        // GNSS 550 ft above baro.
        let real = ModeSBits(hex: "8D485020994409940838175B284F")!
        let speed = (8.0 * 8 + 159 * 159).squareRoot()
        let track = 180 + atan2Degrees(8, 159)
        let bits = ExtendedSquitterEncoder.groundVelocity(
            icao: 0x485020, groundSpeedKt: speed, trackDeg: track,
            verticalRateFpm: -832, geoMinusBaroFt: 550,
            verticalRateFromGNSS: true)
        #expect(bits.field(1, 32) == real.field(1, 32))
        // ME bits 14-56 (message bits 46-88): components, vertical rate, difference.
        #expect(bits.field(46, 88) == real.field(46, 88))
        #expect(CRC.syndrome(of: bits) == 0)
    }

    @Test func commBRepliesMatchRealMessagesWithAddressOverlay() {
        // DF20 altitude 1625 ft, DF21 squawk 0504 (golden decodes of the shared corpus).
        let df20 = ModeSBits(hex: "A000019910010080F500004315B2")!
        #expect(AltitudeCode.acField(1625) == df20.field(20, 32))
        let icao20 = CRC.syndrome(of: df20)
        let rebuilt20 = ReplyEncoder.commBAltitudeReply(
            icao: icao20, altitudeFt: 1625, onGround: false,
            mb: df20.field(33, 88))
        #expect(rebuilt20 == df20)
        let df21 = ModeSBits(hex: "A80000238075173A6004D94E810A")!
        #expect(IdentityCode.encode(squawk: "0504").map(UInt64.init) == df21.field(20, 32))
        let rebuilt21 = ReplyEncoder.commBIdentityReply(
            icao: CRC.syndrome(of: df21), squawk: "0504",
            onGround: false, mb: df21.field(33, 88))
        #expect(rebuilt21 == df21)
    }

    @Test func allCallReplyCarriesAddressAndValidCRC() {
        let bits = ReplyEncoder.allCall(icao: 0x4CA1B2)
        #expect(bits.bitCount == 56)
        #expect(bits.downlinkFormat == 11)
        #expect(bits.field(9, 32) == 0x4CA1B2)
        #expect(CRC.syndrome(of: bits) == 0)
        let replying = ReplyEncoder.allCall(icao: 0x4CA1B2, interrogatorCode: 9)
        #expect(CRC.syndrome(of: replying) == 9)
    }

    @Test func everyEncodedSquitterValidates() {
        var validator = FrameValidator()
        let messages = [
            ExtendedSquitterEncoder.surfacePosition(
                icao: 0x3C1234, latitude: 52.3, longitude: 4.76, odd: true,
                groundSpeedKt: 12, trackDeg: 270),
            ExtendedSquitterEncoder.gnssPosition(
                icao: 0x3C1234, latitude: 52.3, longitude: 4.76, odd: false,
                heightFt: 3500),
            ExtendedSquitterEncoder.aircraftStatus(icao: 0x3C1234, squawk: "7000"),
            ExtendedSquitterEncoder.targetState(
                icao: 0x3C1234, selectedAltitudeFt: 30000, baroSettingHPa: 1013.2,
                selectedHeadingDeg: 90, autopilot: true, vnav: true,
                altitudeHold: false, approach: false, lnav: true),
            ExtendedSquitterEncoder.operationalStatus(icao: 0x3C1234, onGround: false),
            ExtendedSquitterEncoder.airspeedVelocity(
                icao: 0x3C1234, airspeedKt: 250, trueAirspeed: false,
                headingDeg: 45, verticalRateFpm: 0, geoMinusBaroFt: nil)
        ]
        for bits in messages {
            let frame = validator.validate(bits, time: 0)
            #expect(frame?.address == 0x3C1234)
            #expect(frame?.correctedBits == 0)
        }
    }
}

/// atan2 in degrees from plain arithmetic (a short series is plenty for small angles).
func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    // atan(z) for |z| < 0.1 by its Taylor series.
    let z = y / x
    var term = z
    var sum = 0.0
    for n in 0..<12 {
        sum += term / Double(2 * n + 1) * (n % 2 == 0 ? 1 : -1)
        term *= z * z
    }
    return sum * 180 / DeterministicMath.pi
}
